/** /inspecoes: the scored inspections of the caller's scope and their scores (issue 29; docs/inspections.md). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { inspectionListLoader } from "~/inspections/inspections.server";

export const meta: MetaFunction = () => [{ title: "Inspeções | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => inspectionListLoader(args);
export { default } from "~/inspections/list";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
