/** POST /categorias/importar: one or more CSV files of the batch register, answered as JSON (the upload script's route). */
import type { ActionFunctionArgs } from "@remix-run/node";

import { catalogueImportAction } from "~/catalogues/import.server";

export const action = (args: ActionFunctionArgs) => catalogueImportAction(args, "categorias");
