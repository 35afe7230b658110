/** /ambientes: the list (search with 'Filtrar por', sort, page size, pager, tick boxes, QR, edit, remove, exports). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { environmentListLoader } from "~/environments/list.server";

export const loader = (args: LoaderFunctionArgs) => environmentListLoader(args);
export { default, ErrorBoundary } from "~/environments/list";
