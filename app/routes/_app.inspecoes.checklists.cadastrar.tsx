/** /inspecoes/checklists/cadastrar: a new checklist for a room category (issue 29; docs/inspections.md). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { checklistCreateLoader, checklistFormAction } from "~/inspections/checklists.server";

export const meta: MetaFunction = () => [{ title: "Novo checklist | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => checklistCreateLoader(args);
export const action = (args: ActionFunctionArgs) => checklistFormAction(args);
export { ChecklistCreate as default } from "~/inspections/checklist-form";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
