/** /listagem-usuarios/exportar.xlsx: the list page as shown, as listagem-usuarios-DD-MM-YYYY.xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { userExportLoader } from "~/users/export.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => userExportLoader(args));
