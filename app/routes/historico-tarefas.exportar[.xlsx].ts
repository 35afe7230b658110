/** /historico-tarefas/exportar.xlsx: the activity report as shown, every page (spec 001 §2.12). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { activitiesXlsxLoader } from "~/reports/activities.server";

export const loader = (args: LoaderFunctionArgs) => activitiesXlsxLoader(args, "/historico-tarefas");
