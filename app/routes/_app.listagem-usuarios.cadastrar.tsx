/** /listagem-usuarios/cadastrar: 'Dados da filial', a new user of a level in the company or one of its branches. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { userRegisterAction, userRegisterLoader } from "~/users/register.server";

export const loader = (args: LoaderFunctionArgs) => userRegisterLoader(args);
export const action = (args: ActionFunctionArgs) => userRegisterAction(args);
export { default, ErrorBoundary, meta } from "~/users/register";
