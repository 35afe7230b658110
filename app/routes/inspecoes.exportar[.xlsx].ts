/** /inspecoes/exportar.xlsx: the inspections list as filtered, every page (issue 29; docs/inspections.md). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { inspectionsXlsxLoader } from "~/inspections/inspection-exports.server";

export const loader = (args: LoaderFunctionArgs) => inspectionsXlsxLoader(args);
