/** /procedimentos: the list (search, sort, page size, pager, tick boxes, duplicate, remove, export). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { catalogueListLoader } from "~/catalogues/list.server";

export const loader = (args: LoaderFunctionArgs) => catalogueListLoader(args, "procedimentos");
export { default, ErrorBoundary } from "~/catalogues/list";
