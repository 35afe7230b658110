/** /pre-cadastro-usuarios/exportar.xlsx: the list page as shown, as listagem-cpfs-DD-MM-YYYY.xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { cpfExportLoader } from "~/pre-registered-cpfs/export.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => cpfExportLoader(args));
