/** POST /pre-cadastro-usuarios/importar: CSV files of the CPFs' batch register, answered as JSON (the upload script's route). */
import type { ActionFunctionArgs } from "@remix-run/node";

import { cpfImportAction } from "~/pre-registered-cpfs/import.server";

export const action = (args: ActionFunctionArgs) => cpfImportAction(args);
