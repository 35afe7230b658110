/** /tarefas-incompletas/ambiente/:ambienteId: 'Tarefas Incompletas de {room}' (spec 001 §2.11). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { roomIncompleteLoader } from "~/reports/incomplete-tasks.server";

export const loader = (args: LoaderFunctionArgs) => roomIncompleteLoader(args);
export { default } from "~/reports/room-incomplete";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
