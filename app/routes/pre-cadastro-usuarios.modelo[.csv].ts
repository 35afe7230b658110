/** /pre-cadastro-usuarios/modelo.csv: 'Baixar Modelo', the CSV template of the CPFs' batch register. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { cpfTemplateLoader } from "~/pre-registered-cpfs/template.server";

export const loader = (args: LoaderFunctionArgs) => cpfTemplateLoader(args);
