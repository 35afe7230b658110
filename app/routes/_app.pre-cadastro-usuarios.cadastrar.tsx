/** /pre-cadastro-usuarios/cadastrar: 'Cadastro individual', a CPF allowed to sign up in a branch with a level. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { cpfRegisterAction, cpfRegisterLoader } from "~/pre-registered-cpfs/register.server";

export const loader = (args: LoaderFunctionArgs) => cpfRegisterLoader(args);
export const action = (args: ActionFunctionArgs) => cpfRegisterAction(args);
export { default, ErrorBoundary, meta } from "~/pre-registered-cpfs/register";
