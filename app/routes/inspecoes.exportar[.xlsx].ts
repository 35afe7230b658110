/** /inspecoes/exportar.xlsx: the inspections list as filtered, every page (issue 29; docs/inspections.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { inspectionsXlsxLoader } from "~/inspections/inspection-exports.server";
import { exportLoader } from "~/lib/export-jobs.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => inspectionsXlsxLoader(args));
