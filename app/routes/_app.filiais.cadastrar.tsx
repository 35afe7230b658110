/** /filiais/cadastrar: 'Dados da filial', a new branch of the user's main company. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { branchRegisterAction, branchRegisterLoader } from "~/branches/register.server";

export const loader = (args: LoaderFunctionArgs) => branchRegisterLoader(args);
export const action = (args: ActionFunctionArgs) => branchRegisterAction(args);
export { default, ErrorBoundary, meta } from "~/branches/register";
