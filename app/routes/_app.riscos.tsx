/** /riscos and its tabs: the frame (title, help text, 'Listar' / 'Cadastrar'). Shared by the four catalogues. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { catalogueLayoutLoader } from "~/catalogues/layout.server";

export const loader = (args: LoaderFunctionArgs) => catalogueLayoutLoader(args, "riscos");
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/catalogues/layout";
