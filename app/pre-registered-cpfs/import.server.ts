import { CPF_CSV_FIELD } from "../../api/domain/pre-registered-cpf-csv";
import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import type { SignedInCaller } from "~/api.server";
import { csvFilesAnswer, importCsvFiles } from "~/catalogues/import.server";
import { createdCount } from "~/lib/format";
import { importPreRegisteredCpfCsv } from "~/models/pre-registered-cpfs.server";

import { requireCpfs, type CpfArgs } from "./cpfs.server";

const CPF_NOUN = { singular: "CPF", plural: "CPF's", feminine: false };

/**
 * 'Cadastro em lote' of CPFs: each CSV file of the form into the chosen branch (POST empresas/saveCSVFuncionarios,
 * all or nothing per file), with the catalogues' batch form and its toasts: 'CPF's pré-cadastrados com sucesso' /
 * '3 CPF's pré-cadastrados', or 'Erro ao pré-cadastrar lista de CPF's' with the lines refused.
 */
export function importCpfFiles(api: SignedInCaller, form: FormData) {
  return importCsvFiles(form, {
    upload: (file, branchId) => importPreRegisteredCpfCsv(api, branchId, file),
    field: CPF_CSV_FIELD,
    failedTitle: T.batchFailed,
    succeeded: (total) => ({
      type: "success",
      title: T.batchCreated,
      description: createdCount(CPF_NOUN, total, "pré-cadastrad"),
    }),
  });
}

/** POST /pre-cadastro-usuarios/importar: the batch form's script sends each file here (JSON answers). */
export async function cpfImportAction(args: CpfArgs) {
  const { api, canEdit } = await requireCpfs(args);
  if (!canEdit) return csvFilesAnswer(args.context, "forbidden");
  return csvFilesAnswer(args.context, await importCpfFiles(api, await args.request.formData()));
}
