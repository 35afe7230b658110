/** /listagem-usuarios/:id/editar: 'Editar Usuário' ('Alterar informações'; ?aba=nivel 'Alterar nível de acesso'). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { userEditAction, userEditLoader } from "~/users/edit.server";

export const loader = (args: LoaderFunctionArgs) => userEditLoader(args);
export const action = (args: ActionFunctionArgs) => userEditAction(args);
export { default, ErrorBoundary, meta } from "~/users/edit";
