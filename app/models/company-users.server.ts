import type { UserLevel } from "../../api/domain/users";
import { ListedUser, ListedUserPage, UserName } from "../../api/routes/company-users";
import { UserAnswer } from "../../api/routes/users";

import { callApi, type SignedInCaller } from "~/api.server";
import { apiListQuery, type ListParams } from "~/lib/list-params";

/**
 * The users of the signed-in user's company and their other names (spec 000 §7 'CPFs, users, branches, companies'):
 * the list, the create call of each level, the level changes, the edit (PUT /users) and the names.
 */
export type { ListedUser, UserName };

/**
 * The path's companyId is the session's, as for the pre-registered CPFs: the main company for company-wide users,
 * the user's branch for branch-level ones (they have no empresaPrincipal; their User.companyId is the branch).
 */
export function companyOf(api: SignedInCaller) {
  return api.auth.empresaPrincipal[0]?.Id_Empresas ?? api.auth.user.companyId;
}

/** One page of /listagem-usuarios, as the URL's search, order and page ask (20 a page, spec 000 §9). */
export function listCompanyUserPage(api: SignedInCaller, params: ListParams) {
  return callApi(api, `/allUsers/${companyOf(api)}`, { query: apiListQuery(params), schema: ListedUserPage });
}

/** Every user in scope: the edit and names pages find theirs here (a company has at most max_number_users). */
export function listCompanyUsers(api: SignedInCaller) {
  return callApi(api, `/allUsers/${companyOf(api)}`, { schema: ListedUser.array() });
}

/** One user of the scope, or undefined. */
export async function findCompanyUser(api: SignedInCaller, id: number) {
  const result = await listCompanyUsers(api);
  if (!result.ok) return result;
  return { ...result, data: result.data.find((user) => user.id === id) };
}

/** The fields of every create call (api/domain/users.ts userCreateFields), as the form's schema answers them. */
export type NewUserFields = {
  nome: string;
  email: string;
  cpf: string;
  dataNascimento: string;
  telefone: string;
  password: string;
};

/**
 * POST /empresas/{adminLocal,coordenador,auditor,asg,cliente}: Administrador and Auditor in the main company
 * (companyId), the branch levels in the chosen branch (filiaId, the contract's spelling).
 */
export function createCompanyUser(
  api: SignedInCaller,
  level: UserLevel,
  branchId: number | null,
  fields: NewUserFields,
) {
  const place = level.branch ? { filiaId: branchId } : { companyId: companyOf(api) };
  return callApi(api, `/empresas/${level.create}`, {
    method: "POST",
    json: { ...fields, ...place },
    schema: ListedUser,
  });
}

/** POST /empresas/transformTo*: a new level for a user (a branch for Coordenador and ASG). */
export function changeCompanyUserLevel(
  api: SignedInCaller,
  level: { transform: string; branch: boolean },
  userId: number,
  branchId: number | null,
) {
  const place = level.branch ? { filialId: branchId } : { companyId: companyOf(api) };
  return callApi(api, `/empresas/${level.transform}`, {
    method: "POST",
    json: { userId, ...place },
    schema: ListedUser,
  });
}

/** PUT /users: name, phone, active flag and, when typed, a new password. */
export function updateCompanyUser(
  api: SignedInCaller,
  body: { userId: number; nome: string; telefone: string; ativo: boolean; password?: string },
) {
  return callApi(api, "/users", { method: "PUT", json: body, schema: UserAnswer });
}

export function listUserNames(api: SignedInCaller, userId: number) {
  return callApi(api, "/nameUser", { query: { userId }, schema: UserName.array() });
}

export function createUserName(api: SignedInCaller, userId: number, name: string) {
  return callApi(api, "/nameUser", { method: "POST", json: { userId, name }, schema: UserName });
}

export function updateUserName(api: SignedInCaller, id: number, name: string) {
  return callApi(api, "/nameUser", { method: "PUT", json: { id, name }, schema: UserName });
}

export function removeUserName(api: SignedInCaller, id: number) {
  return callApi(api, `/nameUser/${id}`, { method: "DELETE" });
}
