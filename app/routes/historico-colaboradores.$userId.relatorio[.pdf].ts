/** /historico-colaboradores/:userId/relatorio.pdf: 'Relatório de Agendamentos' of a collaborator (spec 001 §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { collaboratorPdfLoader } from "~/reports/collaborator-history.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => collaboratorPdfLoader(args));
