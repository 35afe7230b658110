/** /inspecoes/:id: one inspection, its formula, failures and changes (issue 29; docs/inspections.md). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { inspectionAction, inspectionLoader } from "~/inspections/inspections.server";

export const meta: MetaFunction = () => [{ title: "Inspeção | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => inspectionLoader(args);
export const action = (args: ActionFunctionArgs) => inspectionAction(args);
export { default } from "~/inspections/detail";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
