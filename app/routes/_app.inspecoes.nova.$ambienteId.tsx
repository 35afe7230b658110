/** /inspecoes/nova/:ambienteId: inspecting one room against its checklist (issue 29; docs/inspections.md). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { inspectionFormAction, inspectionFormLoader } from "~/inspections/inspections.server";

export const meta: MetaFunction = () => [{ title: "Inspecionar | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => inspectionFormLoader(args);
export const action = (args: ActionFunctionArgs) => inspectionFormAction(args);
export { default } from "~/inspections/form";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
