/** /categorias and its tabs: the frame (title, help text, 'Listar' / 'Cadastrar'). Shared by the four catalogues. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { catalogueLayoutLoader } from "~/catalogues/layout.server";

export const loader = (args: LoaderFunctionArgs) => catalogueLayoutLoader(args, "categorias");
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/catalogues/layout";
