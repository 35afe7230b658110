/** /historico-tarefas/exportar.xlsx: the activity report as shown, every page (spec 001 §2.12). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { exportLoader } from "~/lib/export-jobs.server";
import { activitiesXlsxLoader } from "~/reports/activities.server";

export const loader = exportLoader((args: LoaderFunctionArgs) => activitiesXlsxLoader(args, "/historico-tarefas"));
