/** /ambientes/importar: the spreadsheet importer of environments (an .xlsx or CSV into a branch, all rows or none). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { environmentImportAction, environmentImportLoader } from "~/environments/import.server";

export const loader = (args: LoaderFunctionArgs) => environmentImportLoader(args);
export const action = (args: ActionFunctionArgs) => environmentImportAction(args);
export { default, ErrorBoundary, meta } from "~/environments/import";
