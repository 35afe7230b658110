/** /listagem-usuarios: the list (search, sort, 20 a page, pager, export, names and edit per row). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { userListLoader } from "~/users/list.server";

export const loader = (args: LoaderFunctionArgs) => userListLoader(args);
export { default, ErrorBoundary } from "~/users/list";
