import { scopeOf } from "../../api/auth/scope";

import type { SessionUser } from "~/session.server";

/**
 * The contract's list query that names the signed-in user's scope: companyId (main company) for company-wide users,
 * filialId (own branch) for branch-level ones, filialClientId for clients. The rule is the API's own `scopeOf`, read
 * from what the session knows: the user's companyId is their branch for branch-level staff and the main company
 * otherwise.
 */
export function scopeQuery(auth: Pick<SessionUser, "user" | "empresaPrincipal">) {
  const { user } = auth;
  const scope = scopeOf({
    roleId: user.roleId,
    coordenador: user.coordenador,
    companyId: auth.empresaPrincipal[0]?.Id_Empresas ?? user.companyId,
    branchId: user.companyId,
    filialClientId: user.filialClientId,
  });
  if (scope.level === "company") return { companyId: scope.companyId };
  return scope.level === "client" ? { filialClientId: scope.branchId } : { filialId: scope.branchId };
}

/**
 * The company a register form starts on, the same on every form (issue 27): the one asked for (?empresa=) when the
 * user may choose, else the user's own branch, else the main company, else the first offered.
 */
export function startingBranchId(
  branches: readonly { id: number }[],
  scope: ReturnType<typeof scopeQuery>,
  asked: number | null,
) {
  const offered = (id: number | null | undefined) => branches.find((branch) => branch.id === id)?.id;
  const own = "filialId" in scope ? scope.filialId : undefined;
  const main = "companyId" in scope ? scope.companyId : undefined;
  return offered(asked) ?? offered(own) ?? offered(main) ?? Math.min(...branches.map((branch) => branch.id));
}
