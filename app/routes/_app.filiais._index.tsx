/** /filiais: the list (search, sort, page size, pager, export, edit). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { branchListLoader } from "~/branches/list.server";

export const loader = (args: LoaderFunctionArgs) => branchListLoader(args);
export { default, ErrorBoundary } from "~/branches/list";
