/** /ocorrencias/tipos: the kinds visitors report, kept by the main company's administrators (docs/incidents.md). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { incidentKindsAction, incidentKindsLoader } from "~/incidents/kinds.server";

export const meta: MetaFunction = () => [{ title: "Tipos de ocorrência | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => incidentKindsLoader(args);
export const action = (args: ActionFunctionArgs) => incidentKindsAction(args);
export { default } from "~/incidents/kinds";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
