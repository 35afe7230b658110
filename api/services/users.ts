import { sql, type ExpressionBuilder, type Kysely } from "kysely";

import { assertBranchInScope, type Scope } from "../auth/scope.ts";
import { selectUsers, type UserRow } from "../auth/users.ts";
import type { DB } from "../db/schema.ts";
import { cnpjSearchDigits } from "../domain/organisation.ts";
import { can, canEditUser, type UserEditCheck } from "../domain/roles.ts";
import { createLevelsFor, levelChoicesFor, USER_TEXTS as T, type UserLevelId } from "../domain/users.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import {
  cappedRows,
  foldSearch,
  listVersionOf,
  onePage,
  pageOf,
  withPageTotal,
  type ListQuery,
} from "../lib/list-query.ts";

/**
 * The users of a main company (spec 000 §7 'CPFs, users, branches, companies'): the list, the create calls per level,
 * the level changes and the other names, with the caller's scope. The role rules are api/domain/roles.ts
 * (canEditUser, who may edit whom) and api/domain/users.ts (which levels one may create or give); this module only
 * applies them. Which users a caller may reach at all is one rule, usersInScope, read by every user call.
 */

/** Who acts: the scope and the signed-in user (the rules read the role and the id). */
export type UserAdmin = { scope: Scope; user: UserEditCheck };

export type ListedUserRow = UserRow & { empresa: string };

export const USER_SORTS = ["empresa", "nome", "cpf", "email", "telefone", "nascimento", "nivel"] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const DEFAULT_USER_SORT: UserSort = "nome";

/**
 * The one rule for which users a caller may reach (issue 22, item 7): the tenant's, and for a branch-level caller or
 * a client those whose home branch is theirs or who are clients of it (roleId 7 keeps its branch in
 * filial_client_id, not branch_id). The list, one user, PUT /users, the level changes and the names all read it, so
 * they agree; anyone else answers 404 as an unknown id. Who may then change whom is the role table (canEditUser).
 */
export function usersInScope(scope: Scope) {
  return (eb: ExpressionBuilder<DB, "users">) => {
    const tenant = eb("users.company_id", "=", scope.companyId);
    if (scope.level === "company") return tenant;
    const branch = eb.or([
      eb("users.branch_id", "=", scope.branchId),
      eb("users.filial_client_id", "=", scope.branchId),
    ]);
    return eb.and([tenant, branch]);
  };
}

/** The users a caller may reach, with the name of their branch or company. */
function scoped(db: Kysely<DB>, scope: Scope) {
  return selectUsers(db)
    .innerJoin("companies", "companies.id", "users.company_id")
    .leftJoin("branches", (join) =>
      join.on((eb) => eb("branches.id", "=", eb.fn.coalesce("users.branch_id", "users.filial_client_id"))),
    )
    .select(sql<string>`coalesce(branches.nome, companies.nome)`.as("empresa"))
    .where(usersInScope(scope));
}

/**
 * Spec 000 §2: the search matches cpf, nome, email and companyId (the contract's User.companyId: the branch for
 * branch-level staff, the main company otherwise). Names fold case and accents; a term of digits and punctuation
 * also matches the CPF's digits, and a number alone the companyId.
 */
function filtered(db: Kysely<DB>, scope: Scope, q: string | undefined) {
  const term = q?.trim() ?? "";
  if (!term) return scoped(db, scope);
  const search = foldSearch(term);
  const digits = cnpjSearchDigits(term);
  const id = /^\d{1,9}$/.test(term) ? Number(term) : null;
  return scoped(db, scope).where((eb) =>
    eb.or([
      eb("users.nome_folded", "like", search),
      eb(sql`lower(users.email)`, "like", search),
      ...(digits ? [eb("users.cpf", "like", `%${digits}%`)] : []),
      ...(id !== null ? [eb(eb.fn.coalesce("users.branch_id", "users.company_id"), "=", id)] : []),
    ]),
  );
}

function sortOf(sort: string | undefined) {
  const key = (USER_SORTS as readonly string[]).includes(sort ?? "") ? (sort as UserSort) : DEFAULT_USER_SORT;
  switch (key) {
    case "empresa":
      return sql`coalesce(branches.nome_folded, companies.nome_folded)`;
    case "cpf":
      return sql`users.cpf`;
    case "email":
      return sql`lower(users.email)`;
    case "telefone":
      return sql`users.telefone`;
    case "nascimento":
      return sql`users.data_nascimento`;
    case "nivel":
      return sql`coalesce(users.role_id, 99)`;
    default:
      return sql`users.nome_folded`;
  }
}

/** Every user in scope, by name: the contract's plain array (GET /allUsers/{companyId}). */
export function listUsers(db: Kysely<DB>, scope: Scope): Promise<ListedUserRow[]> {
  return cappedRows(scoped(db, scope).orderBy("users.nome_folded").orderBy("users.id"));
}

/** One page and the total (size 0, 'Todos': the first MAX_PAGE_ROWS rows), searched and sorted in SQL. */
export async function pageUsers(db: Kysely<DB>, scope: Scope, query: ListQuery) {
  const base = filtered(db, scope, query.q);
  const { page, size, limit, offset } = pageOf(query);
  const direction = query.dir === "desc" ? "desc" : "asc";
  const rows = await base
    .select(listVersionOf(scope.companyId).as("list_version"))
    .orderBy(sortOf(query.sort), direction)
    .orderBy("users.nome_folded", direction)
    .orderBy("users.id", direction)
    .$call(onePage({ limit, offset }))
    .execute();
  const count = async () =>
    Number(
      (
        await base
          .clearSelect()
          .select(sql<string>`count(*)`.as("total"))
          .executeTakeFirstOrThrow()
      ).total,
    );
  // Users' writes move the company's list version (migration 009), which the cached total is kept with.
  const key = `users|${scope.companyId}|${scope.level === "company" ? "" : scope.branchId}|${query.q?.trim() ?? ""}`;
  return { ...(await withPageTotal(db, rows, { key, companyId: scope.companyId }, count)), page, size };
}

/** A user the caller may see, or 404 (another tenant's or another branch's answers like an unknown id). */
export async function findUser(db: Kysely<DB>, scope: Scope, id: number): Promise<ListedUserRow> {
  const row = await scoped(db, scope).where("users.id", "=", id).executeTakeFirst();
  if (!row) throw notFound(T.notFound);
  return row;
}

/**
 * A user the caller may reach (404 otherwise) and edit under spec 000 §6 (403 'Permissão negada!' otherwise): one's
 * own record always, others by the role table. Every call that changes a user goes through here (PUT /users, the
 * level changes, the names).
 */
export async function findEditableUser(db: Kysely<DB>, admin: UserAdmin, id: number) {
  const target = await findUser(db, admin.scope, id);
  if (!canEditUser(admin.user, { id: target.id, roleId: target.role_id, coordenador: target.coordenador }))
    throw new ApiError(403, "Permissão negada!");
  return target;
}

/** Users that take a seat of max_number_users: the active ones (an inactivated user frees a seat). */
export async function activeUserCount(db: Kysely<DB>, companyId: number) {
  const { count } = await db
    .selectFrom("users")
    .select(({ fn }) => fn.countAll<string>().as("count"))
    .where("company_id", "=", companyId)
    .where("ativo", "=", 1)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Inside a transaction: refuses one more active user when the company is full. The company row is locked first,
 * so two creates racing for the last seat are serialised and the second one sees the first.
 */
export async function assertSeatAvailable(trx: Kysely<DB>, companyId: number) {
  const company = await trx
    .selectFrom("companies")
    .select("max_number_users")
    .where("id", "=", companyId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if ((await activeUserCount(trx, companyId)) >= company.max_number_users)
    throw new ApiError(400, T.seatsFull(company.max_number_users));
}

const taken = (field: "email" | "cpf", message: string) => new ApiError(409, message, { [field]: [message] });

/**
 * 409 when the e-mail or the CPF already belongs to a user (the unique indexes are global and back this against races:
 * one sign-in per e-mail, one account per CPF). Issue 22: only a holder in `companyId`, the main company the new or
 * changed user belongs to, is named ('E-mail já cadastrado', 'CPF já cadastrado'); one in another main company gets a
 * text that names no company, so a tenant cannot tell who works elsewhere.
 */
export async function assertUniqueUser(
  db: Kysely<DB>,
  companyId: number,
  fields: { email?: string; cpf?: string },
  exceptId?: number,
) {
  if (fields.email) {
    const holder = await db
      .selectFrom("users")
      .select("company_id")
      .where(sql`lower(email)`, "=", fields.email.toLowerCase())
      .$if(exceptId !== undefined, (qb) => qb.where("id", "!=", exceptId!))
      .executeTakeFirst();
    if (holder) throw taken("email", holder.company_id === companyId ? T.emailTaken : T.emailUnavailable);
  }
  if (fields.cpf) {
    const holder = await db.selectFrom("users").select("company_id").where("cpf", "=", fields.cpf).executeTakeFirst();
    if (holder) throw taken("cpf", holder.company_id === companyId ? T.cpfTaken : T.cpfUnavailable);
  }
}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";

/** Where a level puts a user: the main company for Administrador and Auditor, a branch for the others. */
export type Placement = { companyId: number } | { branchId: number };

/** The columns a level sets: role, home branch (staff) or client branch (7), and the legacy coordenador flag. */
function levelColumns(level: UserLevelId, branchId: number | null) {
  return {
    role_id: level,
    branch_id: level === 3 || level === 5 ? branchId : null,
    filial_client_id: level === 7 ? branchId : null,
    coordenador: level === 3 ? 1 : null,
  };
}

/** The placement checked against the scope: the caller's own main company, or an active branch in scope. */
async function placeIn(db: Kysely<DB>, scope: Scope, level: UserLevelId, place: Placement) {
  const needsBranch = level === 3 || level === 5 || level === 7;
  if (needsBranch) {
    if (!("branchId" in place)) throw new ApiError(400, T.branchRequired, { filiaId: [T.branchRequired] });
    await assertBranchInScope(db, scope, place.branchId, { active: true });
    return place.branchId;
  }
  if (!("companyId" in place) || place.companyId !== scope.companyId) throw notFound("Empresa não encontrada");
  return null;
}

export type NewUser = {
  nome: string;
  email: string;
  cpf: string;
  dataNascimento: string;
  telefone: string;
  passwordHash: string;
};

/**
 * POST /empresas/{adminLocal,coordenador,auditor,asg,cliente}: a new active user of the level, in one transaction
 * with the seat check. The level must be one the caller may create (403), the place the caller's (404).
 */
export async function createUser(
  db: Kysely<DB>,
  admin: UserAdmin,
  level: UserLevelId,
  place: Placement,
  input: NewUser,
): Promise<ListedUserRow> {
  if (!(createLevelsFor(admin.user) as readonly number[]).includes(level)) throw new ApiError(403, "Permissão negada!");
  const branchId = await placeIn(db, admin.scope, level, place);
  await assertUniqueUser(db, admin.scope.companyId, input);
  try {
    const id = await db.transaction().execute(async (trx) => {
      await assertSeatAvailable(trx, admin.scope.companyId);
      const created = await trx
        .insertInto("users")
        .values({
          company_id: admin.scope.companyId,
          ...levelColumns(level, branchId),
          nome: input.nome,
          email: input.email,
          cpf: input.cpf,
          telefone: input.telefone,
          data_nascimento: input.dataNascimento,
          password_hash: input.passwordHash,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return created.id;
    });
    return await findUser(db, admin.scope, id);
  } catch (error) {
    // A concurrent create took the e-mail or CPF between the check and the insert: the same 409 as the check.
    if (isUniqueViolation(error)) await assertUniqueUser(db, admin.scope.companyId, input);
    throw error;
  }
}

/**
 * POST /empresas/transformTo*: a new level for another user the caller may edit (§6), among the levels the caller
 * may give. One's own level is not changed here (an administrator would lock themselves out). The user's open
 * sessions end: what they may do has changed, and a new ASG may no longer use the web app.
 */
export async function changeUserLevel(
  db: Kysely<DB>,
  admin: UserAdmin,
  userId: number,
  level: UserLevelId,
  place: Placement,
): Promise<ListedUserRow> {
  // Ids first (404 for anything outside the scope, whatever the role), then the rules.
  const target = await findUser(db, admin.scope, userId);
  const branchId = await placeIn(db, admin.scope, level, place);
  if (target.id === admin.user.id) throw new ApiError(400, T.ownLevel);
  await findEditableUser(db, admin, userId);
  if (!(levelChoicesFor(admin.user) as readonly number[]).includes(level)) throw new ApiError(403, "Permissão negada!");
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ ...levelColumns(level, branchId), updated_at: new Date() })
      .where("id", "=", userId)
      .execute();
    await trx
      .updateTable("sessions")
      .set({ revoked_at: new Date() })
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .execute();
  });
  return findUser(db, admin.scope, userId);
}

export type UserNameRow = { id: number; name: string; user_id: number };

/**
 * GET /nameUser?userId: the other names of a user in scope, alphabetically. Those who may open the users page read
 * anyone's in their scope; everyone reads their own (issue 22, item 8), and another's is 403 for the others.
 */
export async function listUserNames(db: Kysely<DB>, admin: UserAdmin, userId: number): Promise<UserNameRow[]> {
  const target = await findUser(db, admin.scope, userId);
  if (target.id !== admin.user.id && !can(admin.user, "manageRegisters")) throw new ApiError(403, "Permissão negada!");
  return cappedRows(
    db
      .selectFrom("user_names")
      .select(["id", "name", "user_id"])
      .where("user_id", "=", userId)
      .orderBy(sql`lower(name)`)
      .orderBy("id"),
  );
}

const nameDuplicate = () => new ApiError(409, T.nameDuplicate, { name: [T.nameDuplicate] });

async function writeName(run: () => Promise<UserNameRow>) {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameDuplicate();
    throw error;
  }
}

/** POST /nameUser: a name for a user the caller may edit; the same name twice (any case) is 409. */
export function createUserName(db: Kysely<DB>, admin: UserAdmin, userId: number, name: string) {
  return writeName(async () => {
    await findEditableUser(db, admin, userId);
    return db
      .insertInto("user_names")
      .values({ user_id: userId, name })
      .returning(["id", "name", "user_id"])
      .executeTakeFirstOrThrow();
  });
}

/** A name whose user the caller may edit, or 404/403 as for the user. */
async function findEditableName(db: Kysely<DB>, admin: UserAdmin, id: number) {
  const row = await db.selectFrom("user_names").select(["id", "user_id"]).where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound(T.nameNotFound);
  try {
    await findEditableUser(db, admin, row.user_id);
  } catch (error) {
    // Another tenant's name answers like an unknown one.
    if (error instanceof ApiError && error.status === 404) throw notFound(T.nameNotFound);
    throw error;
  }
  return row;
}

/** PUT /nameUser: renames one name. */
export function updateUserName(db: Kysely<DB>, admin: UserAdmin, id: number, name: string) {
  return writeName(async () => {
    await findEditableName(db, admin, id);
    return db
      .updateTable("user_names")
      .set({ name })
      .where("id", "=", id)
      .returning(["id", "name", "user_id"])
      .executeTakeFirstOrThrow();
  });
}

/** DELETE /nameUser/{id}. */
export async function deleteUserName(db: Kysely<DB>, admin: UserAdmin, id: number) {
  await findEditableName(db, admin, id);
  await db.deleteFrom("user_names").where("id", "=", id).execute();
}
