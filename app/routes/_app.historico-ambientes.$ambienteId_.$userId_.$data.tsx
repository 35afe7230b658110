/** /historico-ambientes/:ambienteId/:userId/:data: the day's procedure details (spec 001 §2.10, §9 times). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { DayLevel } from "~/reports/drill-down";
import { environmentDayLoader } from "~/reports/environment-history.server";

export const meta: MetaFunction = () => [{ title: "Detalhes do Histórico | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => environmentDayLoader(args);
export default DayLevel;
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
