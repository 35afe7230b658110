/** /tarefas-incompletas: the incomplete tasks report (spec 001 §2.11; docs/incomplete-tasks.md); its drill-downs are children. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { incompleteListLoader } from "~/reports/incomplete-tasks.server";
import { listUnchanged } from "~/reports/report-links";
import reportStyles from "~/styles/reports.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];
export const meta: MetaFunction = () => [{ title: "Tarefas Incompletas | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => incompleteListLoader(args);
export const shouldRevalidate = listUnchanged;
export { default } from "~/reports/incomplete-tasks";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
