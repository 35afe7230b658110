/** /historico-colaboradores: the collaborators report (spec 001 §2.9; docs/reports.md). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { collaboratorsLoader } from "~/reports/collaborators.server";

export const meta: MetaFunction = () => [{ title: "Colaboradores | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => collaboratorsLoader(args);
export { default } from "~/reports/collaborators";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
