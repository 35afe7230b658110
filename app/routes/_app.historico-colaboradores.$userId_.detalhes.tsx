/** /historico-colaboradores/:userId/detalhes: 'Detalhes do Colaborador' (spec 001 §2.9). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { collaboratorDetailsLoader } from "~/reports/collaborator-history.server";

export const meta: MetaFunction = () => [{ title: "Detalhes do Colaborador | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => collaboratorDetailsLoader(args);
export { default } from "~/reports/collaborator-details";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
