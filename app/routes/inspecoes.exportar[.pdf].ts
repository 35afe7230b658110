/** /inspecoes/exportar.pdf: the inspections list as filtered, as an A4 table (issue 29; docs/inspections.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { inspectionsPdfLoader } from "~/inspections/inspection-exports.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => inspectionsPdfLoader(args));
