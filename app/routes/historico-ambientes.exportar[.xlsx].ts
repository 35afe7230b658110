/** /historico-ambientes/exportar.xlsx: every row of the rooms the report found (spec 001 §2.10, §3, §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { environmentsXlsxLoader } from "~/reports/environments.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => environmentsXlsxLoader(args));
