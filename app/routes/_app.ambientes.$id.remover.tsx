/** /ambientes/:id/remover: 'Tem certeza que deseja remover?' (a page without JS; the list's dialog posts here). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { environmentRemoveAction, environmentRemoveLoader } from "~/environments/remove.server";

export const loader = (args: LoaderFunctionArgs) => environmentRemoveLoader(args);
export const action = (args: ActionFunctionArgs) => environmentRemoveAction(args);
export { default, ErrorBoundary, meta } from "~/environments/remove";
