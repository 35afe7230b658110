/** /ambientes/:id/editar: 'Editar ambiente'. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { environmentEditAction, environmentEditLoader } from "~/environments/edit.server";

export const loader = (args: LoaderFunctionArgs) => environmentEditLoader(args);
export const action = (args: ActionFunctionArgs) => environmentEditAction(args);
export { default, ErrorBoundary, meta } from "~/environments/edit";
