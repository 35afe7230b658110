import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";

import { ALREADY_PRESENT, INVALID_LIST } from "../../api/domain/catalogues";

import { callApi } from "~/api.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { activeBranches, CatalogueItem, failLoad, requireCatalogue } from "./catalogue.server";
import { DuplicateForm, type DuplicateData } from "./duplicate-form";

function readIds(values: string[]) {
  return [
    ...new Set(
      values
        .flatMap((value) => value.split(","))
        .map(Number)
        .filter((id) => Number.isInteger(id) && id > 0),
    ),
  ];
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  const url = new URL(request.url);
  const back = safeRedirectTo(url.searchParams.get("voltar"), `/${catalogue.kind}`);
  if (!catalogue.canEdit) throw json("Permissão negada!", { status: 403 });
  const ids = readIds(url.searchParams.getAll("ids"));
  if (!ids.length) {
    throw await redirectWithToast(context, back, {
      type: "error",
      title: catalogue.texts.duplicateFailed,
      description: INVALID_LIST,
    });
  }
  const branches = await activeBranches(request, context, catalogue);
  const requested = Number(url.searchParams.get("filial"));
  const branchId = branches.find((branch) => branch.id === requested)?.id ?? branches[0]?.id ?? null;
  const list = (query: Record<string, string | number | undefined>) =>
    callApi(context, request, catalogue.definition.apiPath, {
      token: catalogue.auth.token,
      query,
      schema: z.array(CatalogueItem),
    });
  const [selected, present] = await Promise.all([
    list({ ...catalogue.scopeQuery, ids: ids.join(",") }),
    branchId ? list({ filialId: branchId }) : Promise.resolve({ ok: true as const, status: 200, data: [] }),
  ]);
  if (!selected.ok) return failLoad(request, context, selected, catalogue.texts.loadFailed);
  if (!present.ok) return failLoad(request, context, present, catalogue.texts.loadFailed);
  const names = new Set(present.data.map((item) => item.name.toLowerCase()));
  const seen = new Set<string>();
  const missing = selected.data.filter((item) => {
    const key = item.name.toLowerCase();
    if (names.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return json<DuplicateData & { title: string }>({
    kind: catalogue.kind,
    title: catalogue.texts.duplicateDialog,
    ids,
    branches,
    branchId,
    missing: missing.map((item) => ({ id: item.id, name: item.name, color: item.color })),
    redirectTo: back,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  const form = await request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), `/${catalogue.kind}`);
  const ids = readIds(form.getAll("ids").map(String));
  const result = await callApi(context, request, `${catalogue.definition.apiPath}/duplicar`, {
    method: "POST",
    token: catalogue.auth.token,
    json: { ids, companyId: Number(form.get("filial")) },
  });
  if (result.ok) return redirectWithToast(context, back, { type: "success", title: catalogue.texts.duplicated });
  const alreadyThere = result.message === ALREADY_PRESENT;
  return redirectWithToast(context, back, {
    type: alreadyThere ? "info" : "error",
    title: catalogue.texts.duplicateFailed,
    description: result.message,
  });
}

/** Without JS the duplicate dialog is this page. */
export default function DuplicatePage() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="card dialog-page" aria-labelledby="duplicate-title">
      <h2 id="duplicate-title">{data.title}</h2>
      <DuplicateForm data={data} redirectTo={data.redirectTo} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
