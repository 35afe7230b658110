/** /tarefas-incompletas/procedimento/exportar.pdf?tarefa=: the procedure's history, titled 'Histórico do Procedimento'. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { procedurePdfLoader } from "~/reports/incomplete-tasks.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => procedurePdfLoader(args));
