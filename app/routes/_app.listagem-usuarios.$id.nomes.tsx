/** /listagem-usuarios/:id/nomes: 'Nomes do Usuário' (?aba=cadastrar 'Cadastrar Nome', ?editar=ID 'Editar Nome'). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { userNamesAction, userNamesLoader } from "~/users/names.server";

export const loader = (args: LoaderFunctionArgs) => userNamesLoader(args);
export const action = (args: ActionFunctionArgs) => userNamesAction(args);
export { default, ErrorBoundary, meta } from "~/users/names";
