/** /auditoria/exportar.xlsx: the audit charts' numbers as 'DataSheet.xlsx', a sheet per enabled board (spec 001 §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { auditXlsxLoader } from "~/audit/audit-exports.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => auditXlsxLoader(args));
