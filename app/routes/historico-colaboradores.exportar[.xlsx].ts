/** /historico-colaboradores/exportar.xlsx: the collaborators report as shown, every page (spec 001 §2.9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { collaboratorsXlsxLoader } from "~/reports/collaborators.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => collaboratorsXlsxLoader(args));
