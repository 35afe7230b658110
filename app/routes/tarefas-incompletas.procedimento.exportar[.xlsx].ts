/** /tarefas-incompletas/procedimento/exportar.xlsx?tarefa=: the procedure's history (§9 'relatorio-procedimentos'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { procedureXlsxLoader } from "~/reports/incomplete-tasks.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => procedureXlsxLoader(args));
