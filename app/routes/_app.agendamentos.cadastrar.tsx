/** /agendamentos/cadastrar: the register tab (company, collaborator, the items of 'Criar novo item', 'Cadastrar'). */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";

import { registerAction, registerLoader } from "~/scheduling/register.server";
import calendarStyles from "~/styles/calendar.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: calendarStyles }];
export const loader = (args: LoaderFunctionArgs) => registerLoader(args);
export const action = (args: ActionFunctionArgs) => registerAction(args);
export { default, ErrorBoundary, meta } from "~/scheduling/register";
