import { Branch } from "../../api/routes/branches";

import { callApi } from "~/api.server";

import type { SignedInCaller } from "./catalogues.server";
import { scopeQuery } from "./scope.server";

/** Active branches in the user's scope, for the selectors of register and duplicate forms. */
export async function listActiveBranches(api: SignedInCaller) {
  const scope = scopeQuery(api.auth);
  const result = await callApi(api, "/empresas/filiais", {
    query: "companyId" in scope ? { companyId: scope.companyId } : {},
    schema: Branch.array(),
  });
  if (!result.ok) return result;
  const branches = result.data.filter((branch) => branch.ATIVO).map((branch) => ({ id: branch.ID, nome: branch.NOME }));
  return { ...result, data: branches };
}
