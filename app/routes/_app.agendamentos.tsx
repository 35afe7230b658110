/** /agendamentos and its tabs: the frame (title, 'Listar agendamentos' / 'Cadastrar agendamentos'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { agendamentosLayoutLoader } from "~/scheduling/layout.server";

export const loader = (args: LoaderFunctionArgs) => agendamentosLayoutLoader(args);
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/scheduling/layout";
