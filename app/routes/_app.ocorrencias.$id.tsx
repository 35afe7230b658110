/** /ocorrencias/{id}: one incident, its timeline and the managers' changes (issue 28; docs/incidents.md). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { incidentAction, incidentLoader } from "~/incidents/incidents.server";

export const meta: MetaFunction = () => [{ title: "Ocorrência | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => incidentLoader(args);
export const action = (args: ActionFunctionArgs) => incidentAction(args);
export { default } from "~/incidents/detail";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
