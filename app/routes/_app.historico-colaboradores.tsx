/** /historico-colaboradores: the collaborators report (spec 001 §2.9; docs/reports.md); its drill-downs are children. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { collaboratorsLoader } from "~/reports/collaborators.server";
import { listUnchanged } from "~/reports/report-links";
import reportStyles from "~/styles/reports.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];
export const meta: MetaFunction = () => [{ title: "Colaboradores | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => collaboratorsLoader(args);
export const shouldRevalidate = listUnchanged;
export { default } from "~/reports/collaborators";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
