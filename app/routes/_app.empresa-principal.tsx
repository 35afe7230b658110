/** /empresa-principal and its tabs: the frame (title, help text, 'Listar empresas' / 'Cadastrar empresa'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { companyLayoutLoader } from "~/companies/layout.server";

export const loader = (args: LoaderFunctionArgs) => companyLayoutLoader(args);
export { default, ErrorBoundary, meta, shouldRevalidate } from "~/companies/layout";
