/** /pre-cadastro-usuarios/status: the confirmation of 'Status do(s) Usuário(s)' (activate, inactivate, remove). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { cpfStatusAction, cpfStatusLoader } from "~/pre-registered-cpfs/status.server";

export const loader = (args: LoaderFunctionArgs) => cpfStatusLoader(args);
export const action = (args: ActionFunctionArgs) => cpfStatusAction(args);
export { default, ErrorBoundary, meta } from "~/pre-registered-cpfs/status";
