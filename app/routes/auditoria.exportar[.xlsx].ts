/** /auditoria/exportar.xlsx: the audit charts' numbers as 'DataSheet.xlsx', a sheet per enabled board (spec 001 §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { auditXlsxLoader } from "~/audit/audit-exports.server";

export const loader = (args: LoaderFunctionArgs) => auditXlsxLoader(args);
