/** /filiais/exportar.xlsx: the list page as shown, as listagem-filiais-DD-MM-YYYY.xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { branchExportLoader } from "~/branches/export.server";

export const loader = (args: LoaderFunctionArgs) => branchExportLoader(args);
