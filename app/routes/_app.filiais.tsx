/** /filiais and its tabs: the frame (title, help text, 'Listar filiais' / 'Cadastrar filial'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { branchLayoutLoader } from "~/branches/layout.server";

export const loader = (args: LoaderFunctionArgs) => branchLayoutLoader(args);
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/branches/layout";
