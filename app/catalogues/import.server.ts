import { CSV_INVALID, type CatalogueKind } from "../../api/domain/catalogues";

import { createdCount } from "~/lib/format";
import { importCatalogueCsv } from "~/models/catalogues.server";
import { toastCookie, type ToastInput } from "~/toast.server";

import { requireCatalogue, type CatalogueArgs, type CatalogueContext } from "./catalogue.server";
import { BATCH_FAILED_HINT, type BatchFileResult } from "./register-form";

/**
 * 'Cadastro em lote': each CSV file into the chosen branch, one API import per file (each all-or-nothing). Answers
 * every file's outcome, the toast to show, and the branch so a failed form can keep it selected.
 */
export async function importBatch(catalogue: CatalogueContext, form: FormData) {
  const { kind, texts, definition } = catalogue;
  const branchId = String(form.get("idEmpresaFilial") ?? "");
  const files = form.getAll("arquivos").filter((file): file is File => file instanceof File && file.size > 0);
  if (!files.length) {
    const toast: ToastInput = { type: "error", title: texts.batchFailed, description: CSV_INVALID };
    return { ok: false as const, files: [], toast, branchId };
  }
  const results: BatchFileResult[] = [];
  let created = 0;
  for (const file of files) {
    const result = await importCatalogueCsv(catalogue.api, kind, branchId, file);
    if (result.ok) created += result.data.created;
    results.push(
      result.ok
        ? { name: file.name, ok: true, errors: [] }
        : { name: file.name, ok: false, errors: result.fieldErrors?.[definition.csvField] ?? [result.message] },
    );
  }
  const failed = results.filter((result) => !result.ok);
  if (!failed.length) {
    // The script sends its files one request each and says how many the earlier ones created, so the last answer's
    // toast (the one the list shows) counts them all. Only a message: nothing else trusts that number.
    const earlier = Number(form.get("anteriores"));
    const total = created + (Number.isSafeInteger(earlier) && earlier > 0 ? earlier : 0);
    const toast: ToastInput = {
      type: "success",
      title: texts.batchCreated,
      description: createdCount(definition, total),
    };
    return { ok: true as const, files: results, toast, branchId, created };
  }
  const description = failed.length === 1 && failed[0].errors.length === 1 ? failed[0].errors[0] : BATCH_FAILED_HINT;
  const toast: ToastInput = { type: "error", title: texts.batchFailed, description };
  return { ok: false as const, files: results, toast, branchId };
}

/**
 * POST /{kind}/importar, the resource route the batch form's script sends each file to (with upload progress): JSON
 * `{ files, created }`, 200 when every file was imported (with the success toast for the list it then opens), 400 otherwise.
 */
export async function catalogueImportAction(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  if (!catalogue.canEdit) return Response.json({ files: [], message: "Permissão negada!" }, { status: 403 });
  const outcome = await importBatch(catalogue, await args.request.formData());
  const headers = outcome.ok ? { "set-cookie": await toastCookie(args.context, outcome.toast) } : undefined;
  return Response.json(
    { files: outcome.files, created: outcome.ok ? outcome.created : 0, toast: outcome.ok ? undefined : outcome.toast },
    { status: outcome.ok ? 200 : 400, headers },
  );
}
