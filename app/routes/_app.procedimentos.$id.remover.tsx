/** /procedimentos/:id/remover: 'Tem certeza que deseja remover?' (a page without JS; the list's dialog posts here). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { catalogueRemoveAction, catalogueRemoveLoader } from "~/catalogues/remove.server";

export const loader = (args: LoaderFunctionArgs) => catalogueRemoveLoader(args, "procedimentos");
export const action = (args: ActionFunctionArgs) => catalogueRemoveAction(args, "procedimentos");
export { default, ErrorBoundary, meta } from "~/catalogues/remove";
