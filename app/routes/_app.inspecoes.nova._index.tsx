/** /inspecoes/nova: the rooms to inspect (issue 29; docs/inspections.md). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { inspectionRoomsLoader } from "~/inspections/inspections.server";

export const meta: MetaFunction = () => [{ title: "Nova inspeção | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => inspectionRoomsLoader(args);
export { default } from "~/inspections/rooms";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
