/** /categorias/cadastrar: register one item, or a CSV batch (?modo=lote). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { catalogueRegisterAction, catalogueRegisterLoader } from "~/catalogues/register.server";

export const loader = (args: LoaderFunctionArgs) => catalogueRegisterLoader(args, "categorias");
export const action = (args: ActionFunctionArgs) => catalogueRegisterAction(args, "categorias");
export { default, ErrorBoundary, meta } from "~/catalogues/register";
