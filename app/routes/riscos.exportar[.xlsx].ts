/** /riscos/exportar.xlsx: the list page as shown, streamed as listagem-riscos-DD-MM-YYYY.xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { catalogueExportLoader } from "~/catalogues/export.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => catalogueExportLoader(args, "riscos"));
