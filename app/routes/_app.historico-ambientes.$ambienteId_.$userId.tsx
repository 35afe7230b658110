/** /historico-ambientes/:ambienteId/:userId: a collaborator's days in the room (spec 001 §2.10). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { REPORT_TEXTS as T } from "../../api/domain/reports";

import { DaysLevel } from "~/reports/drill-down";
import { environmentDaysLoader } from "~/reports/environment-history.server";

export const meta: MetaFunction = () => [{ title: "Histórico do Ambiente | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => environmentDaysLoader(args);
export default function EnvironmentDays() {
  return <DaysLevel title={T.environmentHistoryTitle} />;
}
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
