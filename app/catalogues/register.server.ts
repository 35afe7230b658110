import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";

import type { CatalogueKind } from "../../api/domain/catalogues";

import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { createdCount } from "~/lib/format";
import { catalogueItemSchema } from "~/lib/schemas";
import { loadActiveBranches } from "~/models/branches.server";
import { createCatalogueItem } from "~/models/catalogues.server";
import { scopeQuery, startingBranchId } from "~/models/scope.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

import { requireCatalogue, type CatalogueArgs } from "./catalogue.server";
import { importBatch } from "./import.server";
import { INTENT, type BatchFileResult } from "./register-form";

export async function catalogueRegisterLoader(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  if (!catalogue.canEdit) throw redirect(`/${kind}`);
  const branches = await loadActiveBranches(catalogue.api);
  if (!branches.length) throw redirect(`/${kind}`);
  return {
    kind,
    texts: catalogue.texts,
    hasColor: catalogue.definition.hasColor,
    branches,
    defaultBranchId: startingBranchId(branches, scopeQuery(catalogue.api.auth), null),
    batch: new URL(args.request.url).searchParams.get("modo") === "lote",
  };
}

export type RegisterActionData = FormActionData & { files?: BatchFileResult[]; branchId?: string };

/** 'Cadastrar': one item, or (without JS) the batch form's files all at once. */
export async function catalogueRegisterAction(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  const form = await args.request.formData();
  const { texts } = catalogue;

  if (form.get("intent") === INTENT.batch) {
    const outcome = await importBatch(catalogue, form);
    if (outcome.ok) return redirectWithToast(args.context, `/${kind}`, outcome.toast);
    // The chosen branch goes back too, so the page keeps it selected for the next try.
    return data<RegisterActionData>(
      { toast: outcome.toast, files: outcome.files, branchId: outcome.branchId },
      { status: 400 },
    );
  }

  const submission = parseWithZod(form, { schema: catalogueItemSchema(kind, true), disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<RegisterActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const { name, color, companyId } = submission.value;
  const result = await createCatalogueItem(catalogue.api, kind, { name, color, companyId: Number(companyId) });
  if (!result.ok) {
    const toast: ToastInput =
      result.status === 409
        ? { type: "info", title: texts.duplicateTitle, description: texts.duplicateDescription }
        : { type: "error", title: texts.createFailed, description: result.message };
    return data<RegisterActionData>(
      { result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }), toast },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, `/${kind}`, {
    type: "success",
    title: texts.created,
    description: createdCount(catalogue.definition, 1),
  });
}
