/** /historico-ambientes/exportar.pdf: 'Relatório de Agendamentos' of the rooms the report found (spec 001 §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { environmentsPdfLoader } from "~/reports/environments.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => environmentsPdfLoader(args));
