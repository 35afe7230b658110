/** /inspecoes/exportar.pdf: the inspections list as filtered, as an A4 table (issue 29; docs/inspections.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { inspectionsPdfLoader } from "~/inspections/inspection-exports.server";

export const loader = (args: LoaderFunctionArgs) => inspectionsPdfLoader(args);
