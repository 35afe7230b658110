/** /historico-ambientes/:ambienteId: 'Histórico do Ambiente', the room's collaborators (spec 001 §2.10). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { environmentCollaboratorsLoader } from "~/reports/environment-history.server";

export const meta: MetaFunction = () => [{ title: "Histórico do Ambiente | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => environmentCollaboratorsLoader(args);
export { default } from "~/reports/environment-collaborators";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
