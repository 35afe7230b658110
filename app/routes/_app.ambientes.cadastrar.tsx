/** /ambientes/cadastrar: register an environment (?empresa= loads another branch's options). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { environmentRegisterAction, environmentRegisterLoader } from "~/environments/register.server";

export const loader = (args: LoaderFunctionArgs) => environmentRegisterLoader(args);
export const action = (args: ActionFunctionArgs) => environmentRegisterAction(args);
export { default, ErrorBoundary, meta } from "~/environments/register";
