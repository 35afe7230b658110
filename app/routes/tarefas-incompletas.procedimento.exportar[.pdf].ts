/** /tarefas-incompletas/procedimento/exportar.pdf?tarefa=: the procedure's history, titled 'Histórico do Procedimento'. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { procedurePdfLoader } from "~/reports/incomplete-tasks.server";

export const loader = (args: LoaderFunctionArgs) => procedurePdfLoader(args);
