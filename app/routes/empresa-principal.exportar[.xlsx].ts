/** /empresa-principal/exportar.xlsx: the list page as shown, as listagem-filiais-DD-MM-YYYY.xlsx (spec 000 §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { companyExportLoader } from "~/companies/export.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => companyExportLoader(args));
