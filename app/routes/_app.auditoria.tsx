/** /auditoria: the audit dashboard (spec 001 §2.13; docs/audit-dashboard.md). */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { auditPageLoader } from "~/audit/audit-page.server";
import { listUnchanged } from "~/reports/report-links";
import auditStyles from "~/styles/audit.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: auditStyles }];
export const meta: MetaFunction = () => [{ title: "Auditoria | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => auditPageLoader(args);
// Opening and closing 'Filtros' (the same query) does not read the charts again.
export const shouldRevalidate = listUnchanged;
export { default } from "~/audit/audit-page";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
