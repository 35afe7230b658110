/** /historico-tarefas: the activity report (spec 001 §2.12; docs/activity-reports.md); its detail is a child route. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { activitiesLoader } from "~/reports/activities.server";
import { listUnchanged } from "~/reports/report-links";
import activityStyles from "~/styles/activity-reports.css";
import reportStyles from "~/styles/reports.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: reportStyles },
  { rel: "stylesheet", href: activityStyles },
];
export const meta: MetaFunction = () => [{ title: "Atividades | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => activitiesLoader(args, "/historico-tarefas");
export const shouldRevalidate = listUnchanged;
export { default } from "~/reports/activities";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
