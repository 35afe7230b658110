/** /relatorio-cliente/exportar.pdf: the client report as 'relatorio-cliente-DD-MM-YYYY.pdf' (A4, built by the pool). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { clientReportPdfLoader } from "~/reports/client-report.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => clientReportPdfLoader(args));
