/** /imagens-tarefas/:agendamentoId: 'Detalhes', one slot and the activities done in it (spec 001 §2.12). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { activityDetailLoader } from "~/reports/activities.server";

export const meta: MetaFunction = () => [{ title: "Detalhes | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => activityDetailLoader(args, "/imagens-tarefas");
export { default } from "~/reports/activity-detail";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
