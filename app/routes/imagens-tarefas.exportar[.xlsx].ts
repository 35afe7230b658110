/** /imagens-tarefas/exportar.xlsx: the task images report as shown, every page (spec 001 §2.12). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { activitiesXlsxLoader } from "~/reports/activities.server";

export const loader = (args: LoaderFunctionArgs) => activitiesXlsxLoader(args, "/imagens-tarefas");
