import type { AppLoadContext } from "@remix-run/node";

import { CSV_INVALID, type CatalogueKind } from "../../api/domain/catalogues";

import type { ApiResult } from "~/api.server";
import { createdCount } from "~/lib/format";
import { importCatalogueCsv } from "~/models/catalogues.server";
import { toastCookie, type ToastInput } from "~/toast.server";

import { requireCatalogue, type CatalogueArgs, type CatalogueContext } from "./catalogue.server";
import { BATCH_FAILED_HINT, type BatchFileResult } from "./register-form";

/** How one batch register sends its files: the API call per file and the toasts (catalogues, CPFs). */
export type CsvFilesImport = {
  /** One file into the chosen branch (the form's idEmpresaFilial): all its rows or none. */
  upload: (file: File, branchId: string) => Promise<ApiResult<{ created: number }>>;
  /** The API's file field: a refused file's row messages come back under it. */
  field: string;
  failedTitle: string;
  succeeded: (created: number) => ToastInput;
};

/**
 * 'Cadastro em lote': each CSV file of the form (field 'arquivos') into the chosen branch, one API import per file
 * (each all-or-nothing). Answers every file's outcome, the toast to show, and the branch so a failed form can keep
 * it selected.
 */
export async function importCsvFiles(form: FormData, how: CsvFilesImport) {
  const branchId = String(form.get("idEmpresaFilial") ?? "");
  const files = form.getAll("arquivos").filter((file): file is File => file instanceof File && file.size > 0);
  if (!files.length) {
    const toast: ToastInput = { type: "error", title: how.failedTitle, description: CSV_INVALID };
    return { ok: false as const, files: [], toast, branchId };
  }
  const results: BatchFileResult[] = [];
  let created = 0;
  for (const file of files) {
    const result = await how.upload(file, branchId);
    if (result.ok) created += result.data.created;
    results.push(
      result.ok
        ? { name: file.name, ok: true, errors: [] }
        : { name: file.name, ok: false, errors: result.fieldErrors?.[how.field] ?? [result.message] },
    );
  }
  const failed = results.filter((result) => !result.ok);
  if (!failed.length) {
    // The script sends its files one request each and says how many the earlier ones created, so the last answer's
    // toast (the one the list shows) counts them all. Only a message: nothing else trusts that number.
    const earlier = Number(form.get("anteriores"));
    const total = created + (Number.isSafeInteger(earlier) && earlier > 0 ? earlier : 0);
    return { ok: true as const, files: results, toast: how.succeeded(total), branchId, created };
  }
  const description = failed.length === 1 && failed[0].errors.length === 1 ? failed[0].errors[0] : BATCH_FAILED_HINT;
  const toast: ToastInput = { type: "error", title: how.failedTitle, description };
  return { ok: false as const, files: results, toast, branchId };
}

export type CsvFilesOutcome = Awaited<ReturnType<typeof importCsvFiles>>;

/**
 * The answer of a POST {list}/importar resource route, the one the batch form's script sends each file to (with
 * upload progress): JSON `{ files, created }`, 200 when every file was imported (with the success toast for the list
 * it then opens), 400 otherwise; 403 when the user may not write.
 */
export async function csvFilesAnswer(context: AppLoadContext, outcome: CsvFilesOutcome | "forbidden") {
  if (outcome === "forbidden") return Response.json({ files: [], message: "Permissão negada!" }, { status: 403 });
  const headers = outcome.ok ? { "set-cookie": await toastCookie(context, outcome.toast) } : undefined;
  return Response.json(
    { files: outcome.files, created: outcome.ok ? outcome.created : 0, toast: outcome.ok ? undefined : outcome.toast },
    { status: outcome.ok ? 200 : 400, headers },
  );
}

/** A catalogue's batch register: its CSV call, field and toasts. */
export function importBatch(catalogue: CatalogueContext, form: FormData) {
  const { kind, texts, definition } = catalogue;
  return importCsvFiles(form, {
    upload: (file, branchId) => importCatalogueCsv(catalogue.api, kind, branchId, file),
    field: definition.csvField,
    failedTitle: texts.batchFailed,
    succeeded: (total) => ({
      type: "success",
      title: texts.batchCreated,
      description: createdCount(definition, total),
    }),
  });
}

/** POST /{kind}/importar: one or more CSV files of a catalogue's batch register, answered as JSON. */
export async function catalogueImportAction(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  if (!catalogue.canEdit) return csvFilesAnswer(args.context, "forbidden");
  return csvFilesAnswer(args.context, await importBatch(catalogue, await args.request.formData()));
}
