/** /agendamentos/:id/remover?dia=: 'Tem certeza que deseja remover?' for one booking (a page, with JS or without). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { agendamentoRemoveAction, agendamentoRemoveLoader } from "~/scheduling/remove.server";

export const loader = (args: LoaderFunctionArgs) => agendamentoRemoveLoader(args);
export const action = (args: ActionFunctionArgs) => agendamentoRemoveAction(args);
export { default, ErrorBoundary, meta } from "~/scheduling/remove";
