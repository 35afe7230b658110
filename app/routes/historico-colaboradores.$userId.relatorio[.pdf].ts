/** /historico-colaboradores/:userId/relatorio.pdf: 'Relatório de Agendamentos' of a collaborator (spec 001 §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { collaboratorPdfLoader } from "~/reports/collaborator-history.server";

export const loader = (args: LoaderFunctionArgs) => collaboratorPdfLoader(args);
