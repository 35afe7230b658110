import { ALREADY_PRESENT, INVALID_LIST, type CatalogueKind } from "../../api/domain/catalogues";

import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { loadActiveBranches } from "~/models/branches.server";
import { duplicateCatalogueItems, findCatalogueItems, listBranchCatalogue } from "~/models/catalogues.server";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { requireCatalogue, type CatalogueArgs } from "./catalogue.server";

/** What the duplicate dialog (or its no-JS page) shows: the target branch and the ticked items it lacks. */
export type DuplicateData = {
  kind: string;
  title: string;
  ids: number[];
  branches: { id: number; nome: string }[];
  branchId: number | null;
  missing: { id: number; name: string; color?: string | null }[];
  redirectTo: string;
};

function readIds(values: string[]) {
  const ids = values.flatMap((value) => value.split(",")).map(Number);
  return [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0))];
}

export async function catalogueDuplicateLoader(args: CatalogueArgs, kind: CatalogueKind): Promise<DuplicateData> {
  const catalogue = await requireCatalogue(args, kind);
  const url = new URL(args.request.url);
  const back = safeRedirectTo(url.searchParams.get("redirectTo"), `/${kind}`);
  invariantResponse(catalogue.canEdit, "Permissão negada!", { status: 403 });
  const ids = readIds(url.searchParams.getAll("ids"));
  if (!ids.length) {
    throw await redirectWithToast(args.context, back, {
      type: "error",
      title: catalogue.texts.duplicateFailed,
      description: INVALID_LIST,
    });
  }
  const branches = await loadActiveBranches(catalogue.api);
  const selected = await findCatalogueItems(catalogue.api, kind, ids);
  if (!selected.ok) return failLoad(catalogue.api, selected, catalogue.texts.loadFailed);
  // The asked-for branch, else the first one the ticked items do not come from (copying onto their own branch
  // would have nothing to do).
  const sources = new Set(selected.data.map((item) => item.companyId));
  const requested = branches.find((branch) => branch.id === Number(url.searchParams.get("filial")));
  const branchId = (requested ?? branches.find((branch) => !sources.has(branch.id)) ?? branches[0])?.id ?? null;
  const present = branchId
    ? await listBranchCatalogue(catalogue.api, kind, branchId)
    : { ok: true as const, status: 200, data: [] };
  if (!present.ok) return failLoad(catalogue.api, present, catalogue.texts.loadFailed);
  const names = new Set(present.data.map((item) => item.name.toLowerCase()));
  const seen = new Set<string>();
  const missing = selected.data.filter((item) => {
    const key = item.name.toLowerCase();
    if (names.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return {
    kind,
    title: catalogue.texts.duplicateDialog,
    ids,
    branches,
    branchId,
    missing: missing.map((item) => ({ id: item.id, name: item.name, color: item.color })),
    redirectTo: back,
  };
}

export async function catalogueDuplicateAction(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  const form = await args.request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), `/${kind}`);
  const ids = readIds(form.getAll("ids").map(String));
  const result = await duplicateCatalogueItems(catalogue.api, kind, ids, Number(form.get("filial")));
  if (result.ok) return redirectWithToast(args.context, back, { type: "success", title: catalogue.texts.duplicated });
  return redirectWithToast(args.context, back, {
    type: result.message === ALREADY_PRESENT ? "info" : "error",
    title: catalogue.texts.duplicateFailed,
    description: result.message,
  });
}
