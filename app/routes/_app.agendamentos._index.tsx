/** /agendamentos: the list tab (the calendar's cards with Editar / Remover, search ?q=, month ?mes=, day ?dia=). */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";

import { agendamentosListLoader } from "~/scheduling/list.server";
import calendarStyles from "~/styles/calendar.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: calendarStyles }];
export const loader = (args: LoaderFunctionArgs) => agendamentosListLoader(args);
export { default, ErrorBoundary } from "~/scheduling/list";
