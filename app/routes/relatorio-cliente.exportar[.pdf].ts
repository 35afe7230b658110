/** /relatorio-cliente/exportar.pdf: the client report as 'relatorio-cliente-DD-MM-YYYY.pdf' (A4, built by the pool). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { clientReportPdfLoader } from "~/reports/client-report.server";

export const loader = (args: LoaderFunctionArgs) => clientReportPdfLoader(args);
