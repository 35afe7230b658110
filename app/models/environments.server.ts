import {
  EnvironmentChunk,
  EnvironmentDetail,
  EnvironmentForm,
  EnvironmentItem,
  EnvironmentPage,
  type EnvironmentCreateBody,
  type EnvironmentEditBody,
} from "../../api/routes/environments";

import { type ApiFailure, type ApiResult, callApi, type SignedInCaller } from "~/api.server";
import { invariantResponse } from "~/lib/invariant";
import { keysetRows } from "~/lib/keyset.server";
import { apiListQuery, type ListParams } from "~/lib/list-params";

import { scopeQuery } from "./scope.server";

/**
 * The environment calls of the REST API (spec 000 §7 'Environments', docs/environments.md), for one signed-in user.
 * `companyId` in a body and the form's `{companyId}` are the branch (filial), as for the catalogues.
 */
export type { EnvironmentDetail, EnvironmentForm, EnvironmentItem };

/** A list page's query: the shared list params and the 'Filtrar por' fields ('' = the default, Ambiente). */
export type EnvironmentListQuery = { params: ListParams; fields: string };

const EXPORT_CHUNK = 1000;
/** Ids per look-up of the ticked rows (the API takes up to 5,000; smaller keeps each answer small). */
const IDS_CHUNK = 500;

function listQuery(api: SignedInCaller, { params, fields }: EnvironmentListQuery) {
  return { ...scopeQuery(api.auth), ...apiListQuery(params), fields: fields || undefined };
}

export function listEnvironmentPage(api: SignedInCaller, query: EnvironmentListQuery) {
  return callApi(api, "/environments", { query: listQuery(api, query), schema: EnvironmentPage });
}

/** These environments, if in the user's scope (others are simply absent), sorted by name. */
export function findEnvironments(api: SignedInCaller, ids: number[]) {
  return callApi(api, "/environments", {
    query: { ...scopeQuery(api.auth), ids: ids.join(",") },
    schema: EnvironmentItem.array(),
  });
}

/**
 * The rows a list page shows, for 'Exportar Excel': one call for a sized page; for 'Todos', keyset chunks of 1,000
 * rows fetched one at a time as the spreadsheet is written.
 */
export async function* environmentExportRows(api: SignedInCaller, query: EnvironmentListQuery) {
  if (query.params.tamanho !== "todos") {
    const page = await listEnvironmentPage(api, query);
    if (!page.ok) throw downloadFailed(page);
    yield* page.data.items;
    return;
  }
  const { page: _page, size: _size, ...order } = listQuery(api, query);
  yield* keysetRows(api.request.signal, async (after) => {
    const chunk: ApiResult<EnvironmentChunk> = await callApi(api, "/environments", {
      query: { ...order, after, size: EXPORT_CHUNK },
      schema: EnvironmentChunk,
    });
    if (!chunk.ok) throw downloadFailed(chunk);
    return chunk.data;
  });
}

/**
 * The ticked environments in the order they were ticked (the list's order on screen), fetched 500 ids at a time as
 * the bulk QR PDF pulls them. An id outside the user's scope is 404, as the API answers it (docs/security.md); a
 * room removed since it was ticked is skipped.
 */
export async function* environmentsInOrder(api: SignedInCaller, ids: number[]) {
  for (let start = 0; start < ids.length; start += IDS_CHUNK) {
    const slice = ids.slice(start, start + IDS_CHUNK);
    const found = await findEnvironments(api, slice);
    if (!found.ok) {
      invariantResponse(found.status !== 404, found.message, { status: 404 });
      throw downloadFailed(found);
    }
    const byId = new Map(found.data.map((item) => [item.ID, item]));
    for (const id of slice) {
      const item = byId.get(id);
      if (item) yield item;
    }
  }
}

/** A failed API call in the middle of a download: the stream is aborted and the failure logged. */
function downloadFailed(failure: ApiFailure) {
  return new Error(`Download interrompido: a API respondeu ${failure.status} (${failure.message})`);
}

/** One environment in scope, in the nested form (the edit form's start); 404 outside the scope. */
export function getEnvironment(api: SignedInCaller, id: number) {
  return callApi(api, `/environments/${id}`, { schema: EnvironmentDetail });
}

/** The register form's options for one branch: its live categories, procedures, sectors and risks. */
export function getEnvironmentFormOptions(api: SignedInCaller, branchId: number) {
  return callApi(api, `/environments/form/${branchId}`, { schema: EnvironmentForm });
}

export function createEnvironment(api: SignedInCaller, body: EnvironmentCreateBody) {
  return callApi(api, "/environments", { method: "POST", json: body, schema: EnvironmentDetail });
}

export function updateEnvironment(api: SignedInCaller, id: number, body: EnvironmentEditBody) {
  return callApi(api, `/environments/${id}`, { method: "PUT", json: body, schema: EnvironmentDetail });
}

/** 'Gerar novo QR code': a new QR value for the room, the printed one retired (docs/qr-codes.md 'Reissuing a code'). */
export function reissueEnvironmentQr(api: SignedInCaller, id: number) {
  return callApi(api, `/ambientes/${id}/qrcode/reemitir`, { method: "POST", schema: EnvironmentDetail });
}

/** 204, or 409 with 'Ambiente já possui historico e não pode ser deletado'. */
export function removeEnvironment(api: SignedInCaller, id: number) {
  return callApi(api, `/environments/${id}`, { method: "DELETE" });
}
