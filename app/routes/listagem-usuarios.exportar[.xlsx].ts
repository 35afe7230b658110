/** /listagem-usuarios/exportar.xlsx: the list page as shown, as listagem-usuarios-DD-MM-YYYY.xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { userExportLoader } from "~/users/export.server";

export const loader = (args: LoaderFunctionArgs) => userExportLoader(args);
