/** /historico-colaboradores/:userId/:ambienteId/:data: 'Detalhes do Histórico' (spec 001 §2.9). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { collaboratorDayLoader } from "~/reports/collaborator-history.server";
import { DayLevel } from "~/reports/drill-down";

export const meta: MetaFunction = () => [{ title: "Detalhes do Histórico | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => collaboratorDayLoader(args);
export default DayLevel;
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
