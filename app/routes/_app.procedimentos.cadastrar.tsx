/** /procedimentos/cadastrar: register one item, or a CSV batch (?modo=lote). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { catalogueRegisterAction, catalogueRegisterLoader } from "~/catalogues/register.server";

export const loader = (args: LoaderFunctionArgs) => catalogueRegisterLoader(args, "procedimentos");
export const action = (args: ActionFunctionArgs) => catalogueRegisterAction(args, "procedimentos");
export { default, ErrorBoundary, meta } from "~/catalogues/register";
