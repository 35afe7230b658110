/** /historico-colaboradores/:userId: a collaborator's history, by room and day (spec 001 §2.9; docs/reports.md). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLocation, useParams } from "@remix-run/react";

import { collaboratorDaysLoader } from "~/reports/collaborator-history.server";
import { DaysLevel } from "~/reports/drill-down";

export const meta: MetaFunction = () => [{ title: "Histórico do Colaborador | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => collaboratorDaysLoader(args);

export default function CollaboratorHistory() {
  const { userId } = useParams();
  const { search } = useLocation();
  const file = `/historico-colaboradores/${userId}/relatorio`;
  return (
    <DaysLevel
      title="Histórico do Colaborador"
      exports={{ excel: `${file}.xlsx${search}`, pdf: `${file}.pdf${search}` }}
    />
  );
}
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
