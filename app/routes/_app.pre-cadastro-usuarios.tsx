/** /pre-cadastro-usuarios and its tabs: the frame (title, help text, 'Listar CPF's' / 'Cadastrar CPF's'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { cpfLayoutLoader } from "~/pre-registered-cpfs/layout.server";

export const loader = (args: LoaderFunctionArgs) => cpfLayoutLoader(args);
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/pre-registered-cpfs/layout";
