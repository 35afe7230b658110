/** /pre-cadastro-usuarios: the list (search, sort, page size, pager, export, tick boxes and status menu). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { cpfListLoader } from "~/pre-registered-cpfs/list.server";

export const loader = (args: LoaderFunctionArgs) => cpfListLoader(args);
export { default, ErrorBoundary } from "~/pre-registered-cpfs/list";
