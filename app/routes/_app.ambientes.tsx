/** /ambientes and its tabs: the frame (title, help text, 'Listar ambientes' / 'Cadastrar ambiente'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { environmentLayoutLoader } from "~/environments/layout.server";

export const loader = (args: LoaderFunctionArgs) => environmentLayoutLoader(args);
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/environments/layout";
