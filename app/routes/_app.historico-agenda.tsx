/** /historico-agenda: the agenda calendar (month, day strip, the day's bookings by hour), spec 001 §2.4 and §2.5. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { historyCalendarLoader } from "~/scheduling/history-calendar.server";
import calendarStyles from "~/styles/calendar.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: calendarStyles }];
export const meta: MetaFunction = () => [{ title: "Agenda | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => historyCalendarLoader(args);
export { default } from "~/scheduling/history-calendar";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
