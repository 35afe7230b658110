import { sql, type ExpressionBuilder, type Kysely, type Transaction } from "kysely";

import type { DB } from "../db/schema.ts";
import { cnpjSearchDigits, COMPANY_TEXTS as T, NEW_COMPANY_MAX_USERS } from "../domain/organisation.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { foldSearch, onePage, pageOf, cappedRows, type ListQuery } from "../lib/list-query.ts";

import { activeUserCount } from "./users.ts";

/**
 * Main companies (empresas matriz) of spec 000 §7 'CPFs, users, branches, companies': rules and SQL, called by the
 * HTTP routes, the seed and tests. A main company is a tenant (decision 002); its record (name, CNPJ, address,
 * boards, status, user limit) is visible to:
 * - its own people (the viewer's main company),
 * - the owners of its master CPFs (cpfUserMaster),
 * - the Administrador (P) who registered it (companies.created_by).
 * Nothing else of another tenant becomes visible through this: only the company record. Ids outside that set are
 * 404. Whether the viewer's role may write (roleId 1 only) is the route's check, made after the id's.
 */

/** Who is looking: the user, their CPF and their own main company (the scope's). */
export type CompanyViewer = { userId: number; cpf: string; companyId: number };

export type Board = { id: number; label: string };

export type CompanyRow = {
  id: number;
  nome: string;
  cnpj: string;
  endereco: string;
  numero: string;
  bairro: string;
  cidade: string;
  ativo: boolean;
  max_number_users: number;
  late_tolerance_minutes: number;
};

export type CompanyDetailRow = CompanyRow & { boards: Board[] };

/** The company fields of a create or an edit (CNPJ as digits). */
export type CompanyInput = {
  nome: string;
  cnpj: string;
  endereco: string;
  numero: string;
  bairro: string;
  cidade: string;
};

export type CompanyAdminInput = {
  nome: string;
  email: string;
  cpf: string;
  dataNascimento: string;
  telefone: string;
  /** Already hashed by the caller (api/auth/password.ts), outside the transaction: scrypt takes ~100 ms. */
  passwordHash: string;
};

const COLUMNS = [
  "companies.id",
  "companies.nome",
  "companies.cnpj",
  "companies.endereco",
  "companies.numero",
  "companies.bairro",
  "companies.cidade",
  "companies.ativo",
  "companies.max_number_users",
  "companies.late_tolerance_minutes",
] as const;

export const COMPANY_SORTS = ["id", "nome", "cnpj", "endereco", "numero", "status"] as const;
export type CompanySort = (typeof COMPANY_SORTS)[number];
export const DEFAULT_COMPANY_SORT: CompanySort = "nome";

/** The companies whose record the viewer may read (see the module's comment). */
function visible(eb: ExpressionBuilder<DB, "companies">, viewer: CompanyViewer) {
  return eb.or([
    eb("companies.id", "=", viewer.companyId),
    eb(
      "companies.id",
      "in",
      eb.selectFrom("master_cpfs").select("master_cpfs.company_id").where("cpf", "=", viewer.cpf),
    ),
    eb("companies.created_by", "=", viewer.userId),
  ]);
}

function visibleCompanies(db: Kysely<DB>, viewer: CompanyViewer) {
  return db.selectFrom("companies").where((eb) => visible(eb, viewer));
}

/** Every company the viewer may read, by folded name (GET empresas/listmatriz and empresas/all without paging). */
export async function listCompanies(db: Kysely<DB>, viewer: CompanyViewer): Promise<CompanyRow[]> {
  return cappedRows(visibleCompanies(db, viewer).select(COLUMNS).orderBy("nome_folded").orderBy("id"));
}

function sortOf(sort: string | undefined) {
  const key = (COMPANY_SORTS as readonly string[]).includes(sort ?? "") ? (sort as CompanySort) : DEFAULT_COMPANY_SORT;
  switch (key) {
    case "id":
      return [sql`companies.id`];
    case "cnpj":
      return [sql`companies.cnpj`];
    case "endereco":
      return [sql`companies.endereco_folded`];
    case "numero":
      return [sql`length(companies.numero)`, sql`companies.numero`];
    case "status":
      return [sql`companies.ativo`];
    default:
      return [sql`companies.nome_folded`];
  }
}

/**
 * One page of the viewer's companies and the total (size 0, 'Todos': up to MAX_PAGE_ROWS rows on one page). A viewer sees a handful of companies
 * (their own, the ones they own or registered), so the count is not cached.
 */
export async function pageCompanies(db: Kysely<DB>, viewer: CompanyViewer, query: ListQuery) {
  const search = query.q?.trim() ? foldSearch(query.q) : null;
  const digits = cnpjSearchDigits(query.q);
  const filtered = visibleCompanies(db, viewer).$if(search !== null, (qb) =>
    qb.where((eb) =>
      eb.or([
        eb("companies.nome_folded", "like", search!),
        eb("companies.endereco_folded", "like", search!),
        ...(digits ? [eb("companies.cnpj", "like", `%${digits}%`)] : []),
      ]),
    ),
  );
  const { page, size, limit, offset } = pageOf(query);
  const direction = query.dir === "desc" ? "desc" : "asc";
  let ordered = filtered.select([...COLUMNS, sql<string>`count(*) over ()`.as("total")]);
  for (const key of sortOf(query.sort)) ordered = ordered.orderBy(key, direction);
  const rows = await ordered.orderBy("companies.id", direction).$call(onePage({ limit, offset })).execute();
  const total = rows.length
    ? Number(rows[0].total)
    : Number((await filtered.select(sql<string>`count(*)`.as("total")).executeTakeFirstOrThrow()).total);
  return { rows: rows.map(({ total: _total, ...row }) => row), total, page, size };
}

/** The enabled audit boards of a company, by id. */
function boardsOf(db: Kysely<DB>, companyId: number): Promise<Board[]> {
  return db
    .selectFrom("company_boards")
    .innerJoin("boards", "boards.id", "company_boards.board_id")
    .select(["boards.id", "boards.label"])
    .where("company_boards.company_id", "=", companyId)
    .orderBy("boards.id")
    .execute();
}

/** One company the viewer may read, with its boards, or 404. */
export async function findCompany(db: Kysely<DB>, viewer: CompanyViewer, id: number): Promise<CompanyDetailRow> {
  const row = await visibleCompanies(db, viewer).select(COLUMNS).where("companies.id", "=", id).executeTakeFirst();
  if (!row) throw notFound(T.notFound);
  return { ...row, boards: await boardsOf(db, id) };
}

/** GET /empresas/quadros: the enabled boards of a company the viewer may read (their own unless told). */
export async function companyBoards(db: Kysely<DB>, viewer: CompanyViewer, companyId = viewer.companyId) {
  const found = await visibleCompanies(db, viewer)
    .select("companies.id")
    .where("companies.id", "=", companyId)
    .executeTakeFirst();
  if (!found) throw notFound(T.notFound);
  return boardsOf(db, companyId);
}

/** GET /quadroPadrao: the default boards a company may be given (ids 1 to 8). */
export function defaultBoards(db: Kysely<DB>): Promise<Board[]> {
  return db.selectFrom("boards").select(["id", "label"]).where("is_default", "=", true).orderBy("id").execute();
}

/** Board ids must be default boards; anything else is a 400 on the field. */
async function assertDefaultBoards(db: Kysely<DB>, ids: number[]) {
  const known = new Set((await defaultBoards(db)).map((board) => board.id));
  if (!ids.length) throw new ApiError(400, T.boardsRequired, { quadroIds: [T.boardsRequired] });
  if (ids.some((id) => !known.has(id))) throw new ApiError(400, T.boardInvalid, { quadroIds: [T.boardInvalid] });
}

/** A unique index refused the write: the field the user typed the clashing value into, with its message. */
function uniqueClash(error: unknown): ApiError | null {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code !== "23505") return null;
  switch (constraint) {
    case "companies_cnpj_key":
      return new ApiError(409, T.cnpjTaken, { cnpj: [T.cnpjTaken] });
    case "users_email_key":
      return new ApiError(409, T.emailTaken, { "userAdmin.email": [T.emailTaken] });
    case "users_cpf_key":
      return new ApiError(409, T.cpfTaken, { "userAdmin.cpf": [T.cpfTaken] });
    default:
      return null;
  }
}

type NewCompany = CompanyInput & {
  quadroIds: number[];
  max_number_users?: number;
  late_tolerance_minutes?: number;
  userAdmin: CompanyAdminInput;
};

/**
 * POST /empresas: the company, its audit boards, its first administrator (roleId 2, company-wide) and that
 * administrator's master CPF (so they may register the company's branches), in ONE transaction: any refusal (a CNPJ,
 * e-mail or CPF already taken, caught by the unique indexes inside the transaction) leaves nothing behind. The
 * company is created active with max_number_users 50 unless told (spec 000 §9) and remembers who registered it.
 */
export async function createCompany(db: Kysely<DB>, viewer: CompanyViewer, input: NewCompany) {
  await assertDefaultBoards(db, input.quadroIds);
  const id = await db
    .transaction()
    .execute((trx) => insertCompany(trx, input, { roleId: 2, createdBy: viewer.userId }));
  return findCompany(db, viewer, id);
}

export const OWNER_EXISTS =
  "This database already has a main company: create-owner only sets up a new, empty database. " +
  "Sign in as its Administrador (P) to register other main companies (/empresa-principal).";

/**
 * `npm run create-owner` (api/db/create-owner-cli.ts): on a database with no company yet, the main company, its boards
 * and its Administrador (P), roleId 1 with the master CPF: the one account that can then register everything else
 * from the web. Refused once any company exists, so it cannot make a second owner behind the first one's back.
 */
export async function createFirstOwner(db: Kysely<DB>, input: NewCompany): Promise<{ companyId: number }> {
  await assertDefaultBoards(db, input.quadroIds);
  const companyId = await db.transaction().execute(async (trx) => {
    // Two runs at once: the second waits here, then finds the first one's company.
    await sql`lock table companies in share row exclusive mode`.execute(trx);
    const existing = await trx.selectFrom("companies").select("id").limit(1).executeTakeFirst();
    if (existing) throw new ApiError(409, OWNER_EXISTS);
    return insertCompany(trx, input, { roleId: 1, createdBy: null });
  });
  return { companyId };
}

async function insertCompany(
  trx: Transaction<DB>,
  input: NewCompany,
  admin: { roleId: 1 | 2; createdBy: number | null },
): Promise<number> {
  const { userAdmin, quadroIds, max_number_users, ...company } = input;
  try {
    const created = await trx
      .insertInto("companies")
      .values({
        ...company,
        ativo: true,
        max_number_users: max_number_users ?? NEW_COMPANY_MAX_USERS,
        created_by: admin.createdBy,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("company_boards")
      .values(quadroIds.map((board_id) => ({ company_id: created.id, board_id })))
      .execute();
    await trx
      .insertInto("users")
      .values({
        company_id: created.id,
        nome: userAdmin.nome,
        email: userAdmin.email,
        cpf: userAdmin.cpf,
        telefone: userAdmin.telefone,
        data_nascimento: userAdmin.dataNascimento,
        role_id: admin.roleId,
        password_hash: userAdmin.passwordHash,
      })
      .execute();
    await trx.insertInto("master_cpfs").values({ cpf: userAdmin.cpf, company_id: created.id }).execute();
    return created.id;
  } catch (error) {
    throw uniqueClash(error) ?? error;
  }
}

/**
 * PUT /empresas: every field, the status and the boards (replaced), in one transaction. The user limit may not go
 * below the users the company already has.
 */
export async function updateCompany(
  db: Kysely<DB>,
  viewer: CompanyViewer,
  id: number,
  input: CompanyInput & {
    quadroIds: number[];
    ativo: boolean;
    max_number_users: number;
    /** Absent: unchanged. */
    late_tolerance_minutes?: number;
  },
): Promise<CompanyDetailRow> {
  await findCompany(db, viewer, id);
  await assertDefaultBoards(db, input.quadroIds);
  const { quadroIds, ...company } = input;
  const count = await activeUserCount(db, id);
  if (company.max_number_users < count) {
    const message = T.maxUsersBelowCount(count);
    throw new ApiError(400, message, { max_number_users: [message] });
  }
  try {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("companies").set(company).where("id", "=", id).execute();
      await trx.deleteFrom("company_boards").where("company_id", "=", id).execute();
      await trx
        .insertInto("company_boards")
        .values(quadroIds.map((board_id) => ({ company_id: id, board_id })))
        .execute();
    });
  } catch (error) {
    throw uniqueClash(error) ?? error;
  }
  return findCompany(db, viewer, id);
}
