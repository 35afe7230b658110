/** /tarefas-incompletas/procedimento?tarefa=: 'Histórico do Procedimento' (spec 001 §2.11). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { procedureHistoryLoader } from "~/reports/incomplete-tasks.server";

export const loader = (args: LoaderFunctionArgs) => procedureHistoryLoader(args);
export { default } from "~/reports/procedure-history";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
