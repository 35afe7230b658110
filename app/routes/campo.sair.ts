/** /campo/sair: the field sign-out (a POST; a GET goes back to 'Hoje'). */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";

import { fieldLogout } from "~/field/field-session.server";

export const loader = () => redirect("/campo");
export const action = ({ request, context }: ActionFunctionArgs) => fieldLogout(request, context);
