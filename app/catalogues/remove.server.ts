import type { CatalogueKind } from "../../api/domain/catalogues";

import { removeCatalogueItem } from "~/models/catalogues.server";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { requireCatalogue, requireEditableItem, type CatalogueArgs } from "./catalogue.server";

export async function catalogueRemoveLoader(args: CatalogueArgs, kind: CatalogueKind) {
  const { item } = await requireEditableItem(args, kind);
  const back = safeRedirectTo(new URL(args.request.url).searchParams.get("redirectTo"), `/${kind}`);
  return { item, kind, back };
}

export async function catalogueRemoveAction(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  const back = safeRedirectTo((await args.request.formData()).get("redirectTo"), `/${kind}`);
  const result = await removeCatalogueItem(catalogue.api, kind, Number(args.params.id));
  if (!result.ok) {
    return redirectWithToast(args.context, back, {
      type: "error",
      title: catalogue.texts.deleteFailed,
      description: result.message,
    });
  }
  return redirectWithToast(args.context, back, { type: "success", title: catalogue.texts.deleted });
}
