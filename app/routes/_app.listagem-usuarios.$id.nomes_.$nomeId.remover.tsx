/** /listagem-usuarios/:id/nomes/:nomeId/remover: 'Tem certeza que deseja remover?' (a page without JS). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { userNameRemoveAction, userNameRemoveLoader } from "~/users/name-remove.server";

export const loader = (args: LoaderFunctionArgs) => userNameRemoveLoader(args);
export const action = (args: ActionFunctionArgs) => userNameRemoveAction(args);
export { default, ErrorBoundary, meta } from "~/users/name-remove";
