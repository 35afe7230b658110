/** /listagem-usuarios and its tabs: the frame (title, help text, 'Listar usuários' / 'Cadastrar usuário'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { userLayoutLoader } from "~/users/layout.server";

export const loader = (args: LoaderFunctionArgs) => userLayoutLoader(args);
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/users/layout";
