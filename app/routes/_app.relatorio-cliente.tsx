/** /relatorio-cliente: the client report (issue 24 part 3; docs/decisions/006-client-report.md). */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { clientReportLoader } from "~/reports/client-report.server";
import clientReportStyles from "~/styles/client-report.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: clientReportStyles }];
export const meta: MetaFunction = () => [{ title: "Relatório do cliente | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => clientReportLoader(args);
export { default } from "~/reports/client-report";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
