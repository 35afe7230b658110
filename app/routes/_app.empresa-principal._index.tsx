/** /empresa-principal: the list (search, sort, page size, pager, export, edit for roleId 1). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { companyListLoader } from "~/companies/list.server";

export const loader = (args: LoaderFunctionArgs) => companyListLoader(args);
export { default, ErrorBoundary } from "~/companies/list";
