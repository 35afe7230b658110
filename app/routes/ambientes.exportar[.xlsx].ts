/** /ambientes/exportar.xlsx: the list page as shown, streamed as listagem-ambientes-DD-MM-YYYY.xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { environmentExportLoader } from "~/environments/downloads.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => environmentExportLoader(args));
