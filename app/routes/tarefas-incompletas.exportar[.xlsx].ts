/** /tarefas-incompletas/exportar.xlsx: the procedure names of the view (spec 001 §2.11 'Exportar Excel'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { incompleteListXlsxLoader } from "~/reports/incomplete-tasks.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => incompleteListXlsxLoader(args));
