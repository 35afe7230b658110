/** /historico-colaboradores/:userId/relatorio.xlsx: a collaborator's history rows (spec 001 §2.9, §3, §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { collaboratorXlsxLoader } from "~/reports/collaborator-history.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => collaboratorXlsxLoader(args));
