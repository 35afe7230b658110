/** /relatorio-cliente/exportar.xlsx: the client report as 'relatorio-cliente-DD-MM-YYYY.xlsx' (four sheets). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { clientReportXlsxLoader } from "~/reports/client-report.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => clientReportXlsxLoader(args));
