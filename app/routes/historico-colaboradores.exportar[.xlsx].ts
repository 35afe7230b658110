/** /historico-colaboradores/exportar.xlsx: the collaborators report as shown, every page (spec 001 §2.9). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { collaboratorsXlsxLoader } from "~/reports/collaborators.server";

export const loader = (args: LoaderFunctionArgs) => collaboratorsXlsxLoader(args);
