import { sql, type Kysely } from "kysely";

import type { DB } from "../db/schema.ts";
import { isBlockedOnWeb, isBranchLevel } from "../domain/roles.ts";
import { SCHEDULE_TEXTS } from "../domain/schedule-texts.ts";
import { ApiError, notFound } from "../lib/errors.ts";

/**
 * Tenant and role scope of the signed-in user (DESIGN.md 'Security'), the one piece every route uses:
 * - company: admins and auditors see the whole main company and may pick any of its branches;
 * - branch: roleId 3 or no role see their own branch only;
 * - client: roleId 7 sees the branch it is a client of (filialClientId);
 * - field staff (ASGs, and old-system users marked coordenador 0: those the web sign-in refuses) see their own branch,
 *   and of the bookings and history only their own work (`ownWorkOf`; issue 22 item 4, docs/security.md).
 * Anything outside the scope answers 404, never another tenant's data.
 */
export type Scope =
  | { level: "company"; companyId: number }
  | { level: "branch" | "client"; companyId: number; branchId: number; ownWorkOf?: number };

export type ScopedUser = {
  id?: number;
  roleId: number | null;
  coordenador: number | null;
  companyId: number;
  branchId: number | null;
  filialClientId: number | null;
};

export function scopeOf(user: ScopedUser): Scope {
  if (isBlockedOnWeb(user) && user.id !== undefined) {
    // A field worker without a branch (no such user can be scheduled) gets branch 0, which holds nothing.
    return { level: "branch", companyId: user.companyId, branchId: user.branchId ?? 0, ownWorkOf: user.id };
  }
  if (user.roleId === 7 && user.filialClientId) {
    return { level: "client", companyId: user.companyId, branchId: user.filialClientId };
  }
  if (isBranchLevel(user) && user.branchId) {
    return { level: "branch", companyId: user.companyId, branchId: user.branchId };
  }
  return { level: "company", companyId: user.companyId };
}

/** The one branch a scope is held to (branch-level users and clients); null for company-wide users. */
export const scopeBranch = (scope: Scope) => (scope.level === "company" ? null : scope.branchId);

/** The field worker whose own bookings and history are all a scope may read; null for everyone else. */
export const ownWorkOf = (scope: Scope) => (scope.level === "company" ? null : (scope.ownWorkOf ?? null));

/** The rows a list may show: always the tenant, and one branch when the scope or the query narrows it. */
export type BranchFilter = { companyId: number; branchId?: number };

/** The contract's list query: companyId = a main company, filialId/filialClientId = a branch (-1: every branch). */
export type BranchQuery = { companyId?: number; filialId?: number; filialClientId?: number };

/**
 * Reads the contract's list query (companyId = a main company, filialId/filialClientId = a branch) and checks it
 * against the scope. A main company or branch of another tenant, or another branch for a branch-level user, is 404.
 */
export async function resolveBranchFilter(db: Kysely<DB>, scope: Scope, query: BranchQuery): Promise<BranchFilter> {
  if (query.companyId !== undefined && query.companyId !== scope.companyId) throw notFound();
  const requestedBranch = query.filialId ?? query.filialClientId;
  if (scope.level !== "company") {
    if (requestedBranch !== undefined && requestedBranch !== scope.branchId) throw notFound();
    return { companyId: scope.companyId, branchId: scope.branchId };
  }
  if (requestedBranch === undefined || requestedBranch === -1) return { companyId: scope.companyId };
  await assertBranchInScope(db, scope, requestedBranch);
  return { companyId: scope.companyId, branchId: requestedBranch };
}

/** A branch the user may read: of the tenant and, for branch-level users, their own. */
export async function assertBranchInScope(
  db: Kysely<DB>,
  scope: Scope,
  branchId: number,
  options: { active?: boolean } = {},
) {
  if (scope.level !== "company" && scope.branchId !== branchId) throw notFound("Filial não encontrada");
  const branch = await db
    .selectFrom("branches")
    .select(["id", "ativo"])
    .where("id", "=", branchId)
    .where("company_id", "=", scope.companyId)
    .executeTakeFirst();
  if (!branch) throw notFound("Filial não encontrada");
  if (options.active && !branch.ativo) throw new ApiError(400, "A filial está inativa");
  return branch;
}

/**
 * The rows a query may name by id, and what holds each to the scope: always the tenant (company_id); the caller's
 * branch for branch-level users and clients where the row belongs to a branch; a branch is itself.
 */
const ID_TABLES = {
  branches: "self",
  users: "branch_id",
  environments: "branch_id",
  categories: "branch_id",
  sectors: "branch_id",
  procedures: "branch_id",
  risks: "branch_id",
  incident_kinds: null,
  agendas: "branch_id",
  bookings: "branch_id",
} as const;
export type IdTable = keyof typeof ID_TABLES;

/**
 * The one rule for ids a caller sends (path, body or a list filter, docs/security.md): each must be a row the caller
 * may read, else 404 with `message`, never an empty answer that would tell nothing apart. Removed rows stay in scope
 * (reports filter by rooms and people that are gone); field staff may name only themselves among the users.
 */
export async function assertIdsInScope(
  db: Kysely<DB>,
  scope: Scope,
  table: IdTable,
  ids: readonly number[],
  message?: string,
) {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const own = ownWorkOf(scope);
  if (table === "users" && own !== null && wanted.some((id) => id !== own)) throw notFound(message);
  const branch = scopeBranch(scope);
  const holder = ID_TABLES[table];
  if (holder === "self" && branch !== null && wanted.some((id) => id !== branch)) throw notFound(message);
  const found = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("id", "in", wanted)
    .where("company_id", "=", scope.companyId)
    .$if(holder === "branch_id" && branch !== null, (qb) => qb.where(sql.ref("branch_id"), "=", branch!))
    .executeTakeFirstOrThrow();
  if (Number(found.n) !== wanted.length) throw notFound(message);
}

/** A collaborator id of the query: of the tenant, of the caller's branch for branch-level users, oneself for field staff. */
export const assertUserInScope = (db: Kysely<DB>, scope: Scope, id: number) =>
  assertIdsInScope(db, scope, "users", [id], SCHEDULE_TEXTS.collaboratorNotFound);

/** A room id of the query: of the tenant, and of the caller's branch for branch-level users and clients, else 404. */
export const assertEnvironmentInScope = (db: Kysely<DB>, scope: Scope, id: number) =>
  assertIdsInScope(db, scope, "environments", [id], SCHEDULE_TEXTS.environmentNotFound);
