import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import type { CatalogueKind } from "../../api/domain/catalogues";

import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { catalogueItemSchema } from "~/lib/schemas";
import { updateCatalogueItem } from "~/models/catalogues.server";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

import { requireCatalogue, requireEditableItem, type CatalogueArgs } from "./catalogue.server";

export async function catalogueEditLoader(args: CatalogueArgs, kind: CatalogueKind) {
  const { catalogue, item } = await requireEditableItem(args, kind);
  return {
    item,
    kind,
    title: catalogue.definition.title,
    nameLabel: catalogue.texts.nameLabel,
    hasColor: catalogue.definition.hasColor,
    back: safeRedirectTo(new URL(args.request.url).searchParams.get("redirectTo"), `/${kind}`),
  };
}

export async function catalogueEditAction(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  const form = await args.request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), `/${kind}`);
  const submission = parseWithZod(form, { schema: catalogueItemSchema(kind, false), disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const { name, color } = submission.value;
  const result = await updateCatalogueItem(catalogue.api, kind, Number(args.params.id), { name, color });
  if (!result.ok) {
    const { texts } = catalogue;
    // Spec 000 §5: the sector edit check shows an error toast, the others an info toast.
    const toast: ToastInput =
      result.status === 409
        ? {
            type: kind === "setores" ? "error" : "info",
            title: texts.duplicateTitle,
            description: texts.duplicateDescription,
          }
        : { type: "error", title: texts.editFailed, description: result.message };
    return data<FormActionData>(
      { result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }), toast },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, back, { type: "success", title: catalogue.texts.edited });
}
