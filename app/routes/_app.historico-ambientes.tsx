/** /historico-ambientes: the environments report (spec 001 §2.10; docs/reports.md); its drill-downs are children. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { environmentsLoader } from "~/reports/environments.server";
import { listUnchanged } from "~/reports/report-links";
import reportStyles from "~/styles/reports.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];
export const meta: MetaFunction = () => [{ title: "Ambientes | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => environmentsLoader(args);
export const shouldRevalidate = listUnchanged;
export { default } from "~/reports/environments";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
