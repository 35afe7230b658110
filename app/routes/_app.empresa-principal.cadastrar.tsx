/** /empresa-principal/cadastrar: a main company with its audit boards and its first administrator. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { companyRegisterAction, companyRegisterLoader } from "~/companies/register.server";

export const loader = (args: LoaderFunctionArgs) => companyRegisterLoader(args);
export const action = (args: ActionFunctionArgs) => companyRegisterAction(args);
export { default, ErrorBoundary, meta } from "~/companies/register";
