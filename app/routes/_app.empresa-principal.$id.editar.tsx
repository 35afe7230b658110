/** /empresa-principal/:id/editar: 'Editar Empresa' (status, every field, user limit, audit boards). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { companyEditAction, companyEditLoader } from "~/companies/edit.server";

export const loader = (args: LoaderFunctionArgs) => companyEditLoader(args);
export const action = (args: ActionFunctionArgs) => companyEditAction(args);
export { default, ErrorBoundary, meta } from "~/companies/edit";
