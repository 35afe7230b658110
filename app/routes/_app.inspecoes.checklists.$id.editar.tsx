/** /inspecoes/checklists/:id/editar: a checklist's items (a new version) and 'Duplicar' (issue 29). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { checklistEditLoader, checklistFormAction } from "~/inspections/checklists.server";

export const meta: MetaFunction = () => [{ title: "Checklist | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => checklistEditLoader(args);
export const action = (args: ActionFunctionArgs) => checklistFormAction(args);
export { ChecklistEdit as default } from "~/inspections/checklist-form";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
