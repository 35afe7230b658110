/** /agendamentos/:id/editar?dia=: the edit-booking modal as a page (the agenda :id, titled with the booking's day). */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";

import { agendaEditAction, agendaEditLoader } from "~/scheduling/edit.server";
import calendarStyles from "~/styles/calendar.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: calendarStyles }];
export const loader = (args: LoaderFunctionArgs) => agendaEditLoader(args);
export const action = (args: ActionFunctionArgs) => agendaEditAction(args);
export { default, ErrorBoundary, meta } from "~/scheduling/edit";
