/** /ocorrencias: the incidents visitors' reports opened (issue 28; docs/incidents.md). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { incidentListLoader } from "~/incidents/incidents.server";

export const meta: MetaFunction = () => [{ title: "Ocorrências | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => incidentListLoader(args);
export { default } from "~/incidents/list";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
