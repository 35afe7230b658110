/** /riscos/cadastrar: register one item, or a CSV batch (?modo=lote). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { catalogueRegisterAction, catalogueRegisterLoader } from "~/catalogues/register.server";

export const loader = (args: LoaderFunctionArgs) => catalogueRegisterLoader(args, "riscos");
export const action = (args: ActionFunctionArgs) => catalogueRegisterAction(args, "riscos");
export { default, ErrorBoundary, meta } from "~/catalogues/register";
