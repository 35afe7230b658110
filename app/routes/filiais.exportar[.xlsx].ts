/** /filiais/exportar.xlsx: the list page as shown, as listagem-filiais-DD-MM-YYYY.xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { branchExportLoader } from "~/branches/export.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => branchExportLoader(args));
