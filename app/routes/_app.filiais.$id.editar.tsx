/** /filiais/:id/editar: 'Editar filial', every field and the status. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { branchEditAction, branchEditLoader } from "~/branches/edit.server";

export const loader = (args: LoaderFunctionArgs) => branchEditLoader(args);
export const action = (args: ActionFunctionArgs) => branchEditAction(args);
export { default, ErrorBoundary, meta } from "~/branches/edit";
