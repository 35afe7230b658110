import { CPF_CSV_EXAMPLES, CPF_CSV_HEADER } from "../../api/domain/pre-registered-cpf-csv";

import { csvTemplateResponse } from "~/catalogues/template.server";

import { requireCpfEditor, type CpfArgs } from "./cpfs.server";

/**
 * 'Baixar Modelo' of 'Cadastro em lote' (spec 000 §2): modelo-pre-cadastro-cpfs.csv, the header the import checks
 * ('cpf;nivel') and two sample rows, the CPF with its mask so Excel keeps it as text (leading zeros too).
 */
export async function cpfTemplateLoader(args: CpfArgs) {
  await requireCpfEditor(args);
  return csvTemplateResponse("modelo-pre-cadastro-cpfs.csv", [CPF_CSV_HEADER, ...CPF_CSV_EXAMPLES]);
}
