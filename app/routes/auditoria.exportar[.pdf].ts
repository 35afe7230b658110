/** /auditoria/exportar.pdf: the audit charts as the PDF 'Resumo' (A4 portrait, built by the pool; spec 001 §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { auditPdfLoader } from "~/audit/audit-exports.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => auditPdfLoader(args));
