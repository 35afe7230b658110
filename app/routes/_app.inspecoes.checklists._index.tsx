/** /inspecoes/checklists: the checklists and the pass mark (issue 29; docs/inspections.md). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { checklistListAction, checklistListLoader } from "~/inspections/checklists.server";

export const meta: MetaFunction = () => [{ title: "Checklists de inspeção | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => checklistListLoader(args);
export const action = (args: ActionFunctionArgs) => checklistListAction(args);
export { default } from "~/inspections/checklists";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
