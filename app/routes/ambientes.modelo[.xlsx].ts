/** /ambientes/modelo.xlsx: 'Baixar modelo' of the environment importer (?empresa= puts that branch's names in it). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { environmentTemplateLoader } from "~/environments/import.server";

export const loader = (args: LoaderFunctionArgs) => environmentTemplateLoader(args);
