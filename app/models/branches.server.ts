import { Branch, BranchPage, type BranchCreateBody, type BranchUpdateBody } from "../../api/routes/branches";

import { callApi, type SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { apiListQuery, type ListParams } from "~/lib/list-params";

import { scopeQuery } from "./scope.server";

/** The branch calls of the REST API (spec 000 §7 'CPFs, users, branches, companies'), for one signed-in user. */
export type { Branch };

/** Every branch in the user's scope, active or not (GET empresas/filiais). */
export function listBranches(api: SignedInCaller) {
  const scope = scopeQuery(api.auth);
  return callApi(api, "/empresas/filiais", {
    query: "companyId" in scope ? { companyId: scope.companyId } : {},
    schema: Branch.array(),
  });
}

/**
 * Active branches in the user's scope, for every branch selector of the product (register, duplicate and import
 * forms of catalogues and environments): spec 000 §3 'Only active branches are offered in selectors'.
 */
export async function listActiveBranches(api: SignedInCaller) {
  const result = await listBranches(api);
  if (!result.ok) return result;
  const branches = result.data.filter((branch) => branch.ATIVO).map((branch) => ({ id: branch.ID, nome: branch.NOME }));
  return { ...result, data: branches };
}

/**
 * The branch a page's `filial` asks for (docs/security.md 'One rule for ids'): null is 'Todos'; any other must be one
 * the caller may read, an own inactive branch included, else the 404 page 'Filial não encontrada' as the API answers
 * it, never another branch's or tenant's link quietly shown as the caller's own. `branches` are the active ones a
 * company-wide user may pick (null for the others, whose scope is their branch).
 */
export async function readBranchChoice(api: SignedInCaller, wanted: number | null) {
  const own = scopeQuery(api.auth);
  if (!("companyId" in own)) {
    if (wanted !== null && wanted !== ("filialId" in own ? own.filialId : own.filialClientId)) throw branchNotFound();
    return { ok: true as const, branches: null, filial: null };
  }
  const result = await listBranches(api);
  if (!result.ok) return result;
  if (wanted !== null && !result.data.some((branch) => branch.ID === wanted)) throw branchNotFound();
  const branches = result.data.filter((branch) => branch.ATIVO).map((branch) => ({ id: branch.ID, nome: branch.NOME }));
  return { ok: true as const, branches, filial: wanted };
}

const branchNotFound = () =>
  new Response("Filial não encontrada", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

/** Active branches for a form's selector; a failed look-up is the page's load error. */
export async function loadActiveBranches(api: SignedInCaller) {
  const result = await listActiveBranches(api);
  if (!result.ok) return failLoad(api, result, "Erro ao carregar dados, por favor atualize a página");
  return result.data;
}

/** One page of the branch list (/filiais), as the URL's search, order, page and size ask. */
export function listBranchPage(api: SignedInCaller, params: ListParams) {
  const scope = scopeQuery(api.auth);
  return callApi(api, "/empresas/filiais", {
    query: { ...("companyId" in scope ? { companyId: scope.companyId } : {}), ...apiListQuery(params) },
    schema: BranchPage,
  });
}

/** One branch of the user's scope (the list is cached by the API), or undefined. */
export async function findBranch(api: SignedInCaller, id: number) {
  const result = await listBranches(api);
  if (!result.ok) return result;
  return { ...result, data: result.data.find((branch) => branch.ID === id) };
}

export function createBranch(api: SignedInCaller, body: BranchCreateBody) {
  return callApi(api, "/empresas/saveEmpresaFilial", { method: "POST", json: body, schema: Branch });
}

export function updateBranch(api: SignedInCaller, body: BranchUpdateBody) {
  return callApi(api, "/empresas/updateEmpresaFilial", { method: "PUT", json: body, schema: Branch });
}
