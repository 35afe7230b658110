/** /procedimentos/modelo.csv: 'Baixar Modelo', the CSV template of the batch register. */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { catalogueTemplateLoader } from "~/catalogues/template.server";

export const loader = (args: LoaderFunctionArgs) => catalogueTemplateLoader(args, "procedimentos");
