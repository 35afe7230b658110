/** /historico-colaboradores/:userId/relatorio.xlsx: a collaborator's history rows (spec 001 §2.9, §3, §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { collaboratorXlsxLoader } from "~/reports/collaborator-history.server";

export const loader = (args: LoaderFunctionArgs) => collaboratorXlsxLoader(args);
