/** /tarefas-incompletas/exportar.xlsx: the procedure names of the view (spec 001 §2.11 'Exportar Excel'). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { incompleteListXlsxLoader } from "~/reports/incomplete-tasks.server";

export const loader = (args: LoaderFunctionArgs) => incompleteListXlsxLoader(args);
