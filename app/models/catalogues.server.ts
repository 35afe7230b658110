import type { z } from "zod";

import { CATALOGUES, type CatalogueKind } from "../../api/domain/catalogues";
import { CatalogueChunk, CatalogueImported, CatalogueItem, CataloguePage } from "../../api/routes/catalogues";

import { callApi, type ApiFailure, type ApiResult, type SignedInCaller } from "~/api.server";
import { keysetRows } from "~/lib/keyset.server";
import { apiListQuery, type ListParams } from "~/lib/list-params";

import { scopeQuery } from "./scope.server";

/** The catalogue calls of the REST API (spec 000 §7 'Reference data'), for one signed-in user. */
export type { CatalogueItem };

const EXPORT_CHUNK = 1000;

export function listCataloguePage(api: SignedInCaller, kind: CatalogueKind, params: ListParams) {
  return callApi(api, CATALOGUES[kind].apiPath, {
    query: { ...scopeQuery(api.auth), ...apiListQuery(params) },
    schema: CataloguePage,
  });
}

/** These items, if they are in the user's scope (others are simply absent from the answer). */
export function findCatalogueItems(api: SignedInCaller, kind: CatalogueKind, ids: number[]) {
  return callApi(api, CATALOGUES[kind].apiPath, {
    query: { ...scopeQuery(api.auth), ids: ids.join(",") },
    schema: CatalogueItem.array(),
  });
}

/** Every live item of one branch. */
export function listBranchCatalogue(api: SignedInCaller, kind: CatalogueKind, branchId: number) {
  return callApi(api, CATALOGUES[kind].apiPath, { query: { filialId: branchId }, schema: CatalogueItem.array() });
}

/**
 * The rows a list page shows, for its export: one call for a sized page; for 'Todos', keyset chunks of 1,000 rows
 * fetched one at a time as the spreadsheet is written, so a long list never sits whole in memory.
 */
export async function* catalogueExportRows(api: SignedInCaller, kind: CatalogueKind, params: ListParams) {
  if (params.tamanho !== "todos") {
    const page = await listCataloguePage(api, kind, params);
    if (!page.ok) throw exportFailed(page);
    yield* page.data.items;
    return;
  }
  const { page: _page, size: _size, ...order } = apiListQuery(params);
  yield* keysetRows(api.request.signal, async (after) => {
    const chunk: ApiResult<z.infer<typeof CatalogueChunk>> = await callApi(api, CATALOGUES[kind].apiPath, {
      query: { ...scopeQuery(api.auth), ...order, after, size: EXPORT_CHUNK },
      schema: CatalogueChunk,
    });
    if (!chunk.ok) throw exportFailed(chunk);
    return chunk.data;
  });
}

/** A failed API call in the middle of a download: the stream is aborted and the failure logged. */
function exportFailed(failure: ApiFailure) {
  return new Error(`Exportação interrompida: a API respondeu ${failure.status} (${failure.message})`);
}

export function createCatalogueItem(
  api: SignedInCaller,
  kind: CatalogueKind,
  item: { name: string; companyId: number; color?: string },
) {
  return callApi(api, `${CATALOGUES[kind].apiPath}/`, { method: "POST", json: item, schema: CatalogueItem });
}

export function updateCatalogueItem(
  api: SignedInCaller,
  kind: CatalogueKind,
  id: number,
  item: { name: string; color?: string },
) {
  return callApi(api, `${CATALOGUES[kind].apiPath}/${id}`, { method: "PUT", json: item, schema: CatalogueItem });
}

/** The contract removes procedures by id and the others with the item as the body. */
export function removeCatalogueItem(api: SignedInCaller, kind: CatalogueKind, id: number) {
  const { apiPath, deleteById } = CATALOGUES[kind];
  return deleteById
    ? callApi(api, `${apiPath}/${id}`, { method: "DELETE" })
    : callApi(api, apiPath, { method: "DELETE", json: { id } });
}

export function duplicateCatalogueItems(api: SignedInCaller, kind: CatalogueKind, ids: number[], branchId: number) {
  return callApi(api, `${CATALOGUES[kind].apiPath}/duplicar`, {
    method: "POST",
    json: { ids, companyId: branchId },
  });
}

/** One CSV file into one branch: all its rows or none. */
export function importCatalogueCsv(api: SignedInCaller, kind: CatalogueKind, branchId: string, file: File) {
  const { csvPath, csvField } = CATALOGUES[kind];
  const upload = new FormData();
  upload.set(csvField, file);
  upload.set("idEmpresaFilial", branchId);
  return callApi(api, csvPath, { method: "POST", formData: upload, schema: CatalogueImported });
}
