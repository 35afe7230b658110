import { randomBytes } from "node:crypto";

import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from "kysely";

import {
  assertBranchInScope,
  assertIdsInScope,
  resolveBranchFilter,
  type BranchQuery,
  type Scope,
} from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { normaliseCatalogueName } from "../domain/catalogues.ts";
import {
  ENVIRONMENT_TEXTS as T,
  environmentSortOf,
  parseSearchFields,
  procedureListIssues,
  type EnvironmentSearchField,
  type EnvironmentSort,
} from "../domain/environments.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import {
  withPageTotal,
  CHUNK_SIZE,
  decodeCursor,
  encodeCursor,
  foldSearch,
  listVersionOf,
  pageOf,
  cappedRows,
  onePage,
  sqlInt,
  type ListQuery,
} from "../lib/list-query.ts";

/**
 * Environments (ambientes) of spec 000 §7 'Environments': rules and SQL, called by the HTTP routes, the demo seed
 * and tests with the caller's scope. An environment belongs to a branch (the contract's companyId, as for the
 * catalogues: docs/environments.md); its category, sector, risks and procedures must be live items of that same
 * branch. Ids outside the scope are 404. Whether the caller may write is the route's permission check.
 */

export type EnvironmentRisk = { id: number; name: string; color: string };
export type EnvironmentProcedure = { id: number; name: string; mandatory: boolean };

/** An environment as every answer needs it: its branch, category and sector names, its live risks and procedures. */
export type EnvironmentRow = {
  id: number;
  name: string;
  andar: string;
  branch_id: number;
  empresa: string;
  category_id: number;
  categoria: string;
  sector_id: number;
  setor: string;
  imagem: string | null;
  hora_inicial: string | null;
  hora_final: string | null;
  qtd_limpeza_dia: number | null;
  /** The value the printed QR code carries (docs/qr-codes.md 'What the code holds'). */
  qr_codigo: string;
  qr_emitido_em: Date | null;
  risks: EnvironmentRisk[];
  procedures: EnvironmentProcedure[];
};

/** What a list is narrowed to: the contract's scope query (companyId / filialId / filialClientId) and ids. */
export type EnvironmentListFilter = BranchQuery & { ids?: number[] };
export type EnvironmentListQuery = Pick<ListQuery, "q" | "sort" | "dir"> & { fields?: string | readonly string[] };

/** The fields of a create or an edit (the ids as the form's payload names them). */
export type EnvironmentInput = {
  name: string;
  andar: string;
  categoriaId: number;
  setorId: number;
  riscos: number[];
  procedures: number[];
  proceduresNotMandatory: number[];
};

type Env = ExpressionBuilder<DB & { env: DB["environments"] }, "env">;

/** Risks and procedures of the row `env`, aggregated in the row's own query (no query per row). */
const risksOf = sql<EnvironmentRisk[]>`coalesce((
  select json_agg(json_build_object('id', r.id, 'name', r.name, 'color', r.color) order by r.name_folded, r.id)
  from environment_risks er join risks r on r.id = er.risk_id
  where er.environment_id = env.id and r.deleted_at is null), '[]'::json)`;
const proceduresOf = sql<EnvironmentProcedure[]>`coalesce((
  select json_agg(json_build_object('id', p.id, 'name', p.name, 'mandatory', ep.mandatory)
    order by ep.mandatory desc, p.name_folded, p.id)
  from environment_procedures ep join procedures p on p.id = ep.procedure_id
  where ep.environment_id = env.id and p.deleted_at is null), '[]'::json)`;

/** The live environments with their branch, category and sector, aliased env, branch, cat, sec. */
function fromEnvironments(db: Kysely<DB>) {
  return db
    .selectFrom("environments as env")
    .innerJoin("branches as branch", "branch.id", "env.branch_id")
    .innerJoin("categories as cat", "cat.id", "env.category_id")
    .innerJoin("sectors as sec", "sec.id", "env.sector_id")
    .where("env.deleted_at", "is", null);
}

const environmentColumns = [
  "env.id",
  "env.name",
  "env.andar",
  "env.branch_id",
  "branch.nome as empresa",
  "env.category_id",
  "cat.name as categoria",
  "env.sector_id",
  "sec.name as setor",
  "env.imagem",
  "env.hora_inicial",
  "env.hora_final",
  "env.qtd_limpeza_dia",
  "env.qr_codigo",
  "env.qr_emitido_em",
  risksOf.as("risks"),
  proceduresOf.as("procedures"),
] as const;

function selectEnvironments(db: Kysely<DB>) {
  return fromEnvironments(db).select(environmentColumns);
}

/** One environment in the caller's scope (its main company, and its branch for branch-level users), or 404. */
export async function findEnvironment(db: Kysely<DB>, scope: Scope, id: number): Promise<EnvironmentRow> {
  const row = await selectEnvironments(db)
    .where("env.id", "=", id)
    .where("env.company_id", "=", scope.companyId)
    .$if(scope.level !== "company", (qb) => qb.where("env.branch_id", "=", (scope as { branchId: number }).branchId))
    .executeTakeFirst();
  if (!row) throw notFound(T.notFound);
  return row;
}

/** These environments, if in scope (the others are simply absent), in list order: the bulk QR export's look-up. */
export function findEnvironmentsByIds(db: Kysely<DB>, scope: Scope, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return listEnvironments(db, scope, { ids });
}

/**
 * The public room page (/info/ambiente/{id}, spec 001 §2.14): only what a stranger holding the QR code may see, the
 * environment's and its branch's names. No scope: the id is the QR code's content. Null when absent or removed.
 */
export async function findPublicEnvironment(db: Kysely<DB>, id: number) {
  const row = await db
    .selectFrom("environments as env")
    .innerJoin("branches as branch", "branch.id", "env.branch_id")
    .select(["env.id", "env.name", "branch.nome as empresa"])
    .where("env.id", "=", id)
    .where("env.deleted_at", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// Lists (docs/performance.md 'The list query pattern')

/**
 * The search of the 'Filtrar por' fields: a LIKE on the folded columns of migration 004 for the environment's own
 * name and floor; for the branch, category and sector, the row's id among that company's live items whose folded
 * name matches (a sub-select over a few rows, not a join of every row); for risks and procedures, the row among the
 * environments linked to a matching live item.
 */
function searchCondition(eb: Env, field: EnvironmentSearchField, companyId: number, search: string) {
  switch (field) {
    case "ambiente":
      return eb("env.name_folded", "like", search);
    case "andar":
      return eb("env.andar_folded", "like", search);
    case "empresa":
      return eb(
        "env.branch_id",
        "in",
        eb
          .selectFrom("branches")
          .select("branches.id")
          .where("branches.company_id", "=", companyId)
          .where("branches.nome_folded", "like", search),
      );
    case "categoria":
      return eb(
        "env.category_id",
        "in",
        eb
          .selectFrom("categories")
          .select("categories.id")
          .where("categories.company_id", "=", companyId)
          .where("categories.deleted_at", "is", null)
          .where("categories.name_folded", "like", search),
      );
    case "setor":
      return eb(
        "env.sector_id",
        "in",
        eb
          .selectFrom("sectors")
          .select("sectors.id")
          .where("sectors.company_id", "=", companyId)
          .where("sectors.deleted_at", "is", null)
          .where("sectors.name_folded", "like", search),
      );
    case "risco":
      return eb(
        "env.id",
        "in",
        eb
          .selectFrom("environment_risks as er")
          .innerJoin("risks as r", "r.id", "er.risk_id")
          .select("er.environment_id")
          .where("r.company_id", "=", companyId)
          .where("r.deleted_at", "is", null)
          .where("r.name_folded", "like", search),
      );
    case "procedimento":
      return eb(
        "env.id",
        "in",
        eb
          .selectFrom("environment_procedures as ep")
          .innerJoin("procedures as p", "p.id", "ep.procedure_id")
          .select("ep.environment_id")
          .where("p.company_id", "=", companyId)
          .where("p.deleted_at", "is", null)
          .where("p.name_folded", "like", search),
      );
  }
}

/** A list column's names folded and joined as the column shows them: the sort key of the list-valued columns. */
const joinedRisks = sql<string>`coalesce((
  select string_agg(r.name_folded, ', ' order by r.name_folded) from environment_risks er
  join risks r on r.id = er.risk_id where er.environment_id = env.id and r.deleted_at is null), '') collate "C"`;
const joinedProcedures = (mandatory: boolean) => sql<string>`coalesce((
  select string_agg(p.name_folded, ', ' order by p.name_folded) from environment_procedures ep
  join procedures p on p.id = ep.procedure_id
  where ep.environment_id = env.id and ep.mandatory = ${sql.lit(mandatory)} and p.deleted_at is null), '') collate "C"`;

/**
 * The sort key of a column: the folded columns the database keeps (the environment's name and floor, the branch's,
 * category's and sector's names, read through a join) or, for the list-valued columns, their joined folded names.
 */
function sortKeyOf(sort: EnvironmentSort): { key: RawBuilder<string>; join?: "branch" | "cat" | "sec" } {
  switch (sort) {
    case "empresa":
      return { key: sql<string>`branch.nome_folded`, join: "branch" };
    case "categoria":
      return { key: sql<string>`cat.name_folded`, join: "cat" };
    case "setor":
      return { key: sql<string>`sec.name_folded`, join: "sec" };
    case "andar":
      return { key: sql<string>`env.andar_folded` };
    case "riscos":
      return { key: joinedRisks };
    case "obrigatorios":
      return { key: joinedProcedures(true) };
    case "opcionais":
      return { key: joinedProcedures(false) };
    case "ambiente":
      return { key: sql<string>`env.name_folded` };
  }
}

/**
 * What every list read shares: the scope query checked against the scope (404 outside it), ids (each the caller's,
 * else 404), the search over the
 * chosen fields, the sort key and the key of the cached total.
 */
async function filteredEnvironments(
  db: Kysely<DB>,
  scope: Scope,
  filter: EnvironmentListFilter,
  query: EnvironmentListQuery,
) {
  const branches = await resolveBranchFilter(db, scope, filter);
  await assertIdsInScope(db, scope, "environments", filter.ids ?? [], T.notFound);
  const search = query.q?.trim() ? foldSearch(query.q) : null;
  const fields = parseSearchFields(query.fields);
  const scoped = db
    .selectFrom("environments as env")
    .where("env.company_id", "=", branches.companyId)
    .where("env.deleted_at", "is", null)
    .$if(branches.branchId !== undefined, (qb) => qb.where("env.branch_id", "=", branches.branchId!))
    .$if(filter.ids !== undefined, (qb) => qb.where("env.id", "in", filter.ids!.length ? filter.ids! : [-1]))
    .$if(search !== null, (qb) =>
      qb.where((eb) =>
        eb.or(fields.map((field) => searchCondition(eb, field, branches.companyId, search!) as Expression<SqlBool>)),
      ),
    );
  const { key: sortKey, join } = sortKeyOf(environmentSortOf(query.sort));
  const direction = query.dir === "desc" ? "desc" : "asc";
  const totalKey =
    filter.ids === undefined
      ? `environments|${branches.companyId}|${branches.branchId ?? ""}|${search === null ? "" : fields.join(",")}|${search ?? ""}`
      : null;
  return { scoped, sortKey, join, direction, companyId: branches.companyId, totalKey } as const;
}

type Scoped = Awaited<ReturnType<typeof filteredEnvironments>>["scoped"];

/** The joins a sort key reads (only the one it needs, so a page by name stays an index scan). */
function withSortJoin(qb: Scoped, join: "branch" | "cat" | "sec" | undefined) {
  if (join === "branch") return qb.innerJoin("branches as branch", "branch.id", "env.branch_id");
  if (join === "cat") return qb.innerJoin("categories as cat", "cat.id", "env.category_id");
  if (join === "sec") return qb.innerJoin("sectors as sec", "sec.id", "env.sector_id");
  return qb;
}

/** Every environment of the list, sorted (by name unless told): the contract's plain array and the ids look-up. */
export async function listEnvironments(
  db: Kysely<DB>,
  scope: Scope,
  filter: EnvironmentListFilter,
  query: EnvironmentListQuery = {},
): Promise<EnvironmentRow[]> {
  const { scoped, sortKey, join, direction } = await filteredEnvironments(db, scope, filter, query);
  const ids = withSortJoin(scoped, join)
    .select(["env.id", sortKey.as("sort_key")])
    .orderBy(sortKey, direction)
    .orderBy("env.id", direction);
  return cappedRows(
    db
      .selectFrom(ids.as("page"))
      .innerJoin("environments as env", "env.id", "page.id")
      .innerJoin("branches as branch", "branch.id", "env.branch_id")
      .innerJoin("categories as cat", "cat.id", "env.category_id")
      .innerJoin("sectors as sec", "sec.id", "env.sector_id")
      .select(environmentColumns)
      .orderBy("page.sort_key", direction)
      .orderBy("page.id", direction),
  );
}

/**
 * One page and the total (size 0, 'Todos': the first MAX_PAGE_ROWS rows on one page). A deferred join: the page's ids are found with the scope +
 * sort + id index (or the one join the sort needs), then only those rows are read with their names, risks and
 * procedures. The total comes from the count cache, valid while the company's list version is unchanged.
 */
export async function pageEnvironments(
  db: Kysely<DB>,
  scope: Scope,
  filter: EnvironmentListFilter,
  query: EnvironmentListQuery & Pick<ListQuery, "page" | "size">,
) {
  const { scoped, sortKey, join, direction, companyId, totalKey } = await filteredEnvironments(
    db,
    scope,
    filter,
    query,
  );
  const { page, size, limit, offset } = pageOf(query);
  const pageIds = withSortJoin(scoped, join)
    .select(["env.id", sortKey.as("sort_key")])
    .orderBy(sortKey, direction)
    .orderBy("env.id", direction)
    .$call(onePage({ limit, offset }));
  const rows = await db
    .selectFrom(pageIds.as("page"))
    .innerJoin("environments as env", "env.id", "page.id")
    .innerJoin("branches as branch", "branch.id", "env.branch_id")
    .innerJoin("categories as cat", "cat.id", "env.category_id")
    .innerJoin("sectors as sec", "sec.id", "env.sector_id")
    .select([...environmentColumns, listVersionOf(companyId).as("list_version")])
    .orderBy("page.sort_key", direction)
    .orderBy("page.id", direction)
    .execute();
  const count = async () =>
    Number((await scoped.select(sql<string>`count(*)`.as("total")).executeTakeFirstOrThrow()).total);
  return { ...(await withPageTotal(db, rows, { key: totalKey, companyId }, count)), page, size };
}

/**
 * One keyset chunk of the list for streamed exports: the rows after the cursor ('' = the start) in the list's order,
 * at most `size`, no count. The cursor is the last row's sort key and id.
 */
export async function chunkEnvironments(
  db: Kysely<DB>,
  scope: Scope,
  filter: EnvironmentListFilter,
  query: EnvironmentListQuery & { after: string; size?: number },
): Promise<{ rows: EnvironmentRow[]; next: string | null }> {
  const size = query.size ?? CHUNK_SIZE.default;
  const cursor = query.after === "" ? null : decodeCursor(query.after);
  const { scoped, sortKey, join, direction } = await filteredEnvironments(db, scope, filter, query);
  const chunkIds = withSortJoin(scoped, join)
    .select(["env.id", sortKey.as("sort_key")])
    .$if(cursor !== null, (qb) =>
      qb.where(
        sql<boolean>`(${sortKey}, env.id) ${sql.raw(direction === "desc" ? "<" : ">")} (${cursor!.key}, ${cursor!.id})`,
      ),
    )
    .orderBy(sortKey, direction)
    .orderBy("env.id", direction)
    .limit(sqlInt(size));
  const rows = await db
    .selectFrom(chunkIds.as("page"))
    .innerJoin("environments as env", "env.id", "page.id")
    .innerJoin("branches as branch", "branch.id", "env.branch_id")
    .innerJoin("categories as cat", "cat.id", "env.category_id")
    .innerJoin("sectors as sec", "sec.id", "env.sector_id")
    .select([...environmentColumns, "page.sort_key"])
    .orderBy("page.sort_key", direction)
    .orderBy("page.id", direction)
    .execute();
  const last = rows.at(-1);
  return {
    rows: rows.map(({ sort_key: _key, ...row }) => row),
    next: last && rows.length === size ? encodeCursor({ key: last.sort_key, id: last.id }) : null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The register form's options

/** The live categories, procedures, sectors and risks of one branch in scope, by name: GET environments/form. */
export async function environmentFormOptions(db: Kysely<DB>, scope: Scope, branchId: number) {
  await assertBranchInScope(db, scope, branchId);
  const items = <Table extends "categories" | "procedures" | "sectors">(table: Table) =>
    cappedRows(
      db
        .selectFrom(table as "categories")
        .select(["id", "name", "branch_id"])
        .where("branch_id", "=", branchId)
        .where("deleted_at", "is", null)
        .orderBy("name_folded")
        .orderBy("id"),
    );
  const [categories, procedures, sectors, risks] = await Promise.all([
    items("categories"),
    items("procedures"),
    items("sectors"),
    cappedRows(
      db
        .selectFrom("risks")
        .select(["id", "name", "color", "branch_id"])
        .where("branch_id", "=", branchId)
        .where("deleted_at", "is", null)
        .orderBy("name_folded")
        .orderBy("id"),
    ),
  ]);
  return { categories, procedures, sectors, risks };
}

// ---------------------------------------------------------------------------------------------------------------
// Writes

function duplicateName() {
  return new ApiError(409, T.duplicateDescription, { name: [T.duplicateDescription] });
}

function isUniqueViolation(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}

/**
 * One transaction for the checks and the writes. When a concurrent request committed the same name in between, the
 * insert hits the unique index and the work runs again, now seeing that row, so the caller gets the duplicate-name
 * answer (not a 500). Inside a caller's transaction (the seed) the work runs there.
 */
async function inTransaction<R>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= 3) throw duplicateName();
    }
  }
}

const unique = (ids: readonly number[]) => [...new Set(ids)];

/** The input as stored: names normalised, ids each once; the rules of spec 000 §5 checked for every caller. */
function checkedInput(input: EnvironmentInput): EnvironmentInput {
  const value = {
    ...input,
    name: normaliseCatalogueName(input.name),
    andar: normaliseCatalogueName(input.andar),
    riscos: unique(input.riscos),
    procedures: unique(input.procedures),
    proceduresNotMandatory: unique(input.proceduresNotMandatory),
  };
  const fieldErrors: Record<string, string[]> = {};
  if (!value.name) fieldErrors.name = [T.nameRequired];
  if (!value.andar) fieldErrors.andar = [T.andarRequired];
  if (!value.riscos.length) fieldErrors.riscos = [T.risksRequired];
  for (const issue of procedureListIssues(value)) fieldErrors[issue.path[0]] = [issue.message];
  const first = Object.values(fieldErrors)[0];
  if (first) throw new ApiError(400, first[0], fieldErrors);
  return value;
}

async function assertNameFree(db: Kysely<DB>, branchId: number, name: string, exceptId?: number) {
  const clash = await db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .where(sql`lower(name)`, "=", name.toLowerCase())
    .$if(exceptId !== undefined, (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  if (clash) throw duplicateName();
}

/**
 * The category, sector, risks and procedures must be live items of the environment's branch. Anything else (another
 * branch's, another tenant's, a removed one, an id that does not exist) is 404 naming the field, and nothing is
 * written.
 */
async function assertItemsOfBranch(db: Kysely<DB>, branchId: number, input: EnvironmentInput) {
  const found = async (table: "categories" | "sectors" | "risks" | "procedures", ids: number[]) => {
    if (!ids.length) return true;
    const rows = await db
      .selectFrom(table as "categories")
      .select("id")
      .where("branch_id", "=", branchId)
      .where("deleted_at", "is", null)
      .where("id", "in", ids)
      .execute();
    return rows.length === ids.length;
  };
  const checks = [
    ["categoriaId", "categories", [input.categoriaId], T.categoryNotFound],
    ["setorId", "sectors", [input.setorId], T.sectorNotFound],
    ["riscos", "risks", input.riscos, T.riskNotFound],
    ["procedures", "procedures", input.procedures, T.procedureNotFound],
    ["proceduresNotMandatory", "procedures", input.proceduresNotMandatory, T.procedureNotFound],
  ] as const;
  for (const [field, table, ids, message] of checks) {
    if (!(await found(table, [...ids]))) throw new ApiError(404, message, { [field]: [message] });
  }
}

async function writeLinks(db: Kysely<DB>, environmentId: number, input: EnvironmentInput) {
  await db
    .insertInto("environment_risks")
    .values(input.riscos.map((risk_id) => ({ environment_id: environmentId, risk_id })))
    .execute();
  const procedures = [
    ...input.procedures.map((procedure_id) => ({ environment_id: environmentId, procedure_id, mandatory: true })),
    ...input.proceduresNotMandatory.map((procedure_id) => ({
      environment_id: environmentId,
      procedure_id,
      mandatory: false,
    })),
  ];
  await db.insertInto("environment_procedures").values(procedures).execute();
}

/** A new environment in an active branch of the scope (the contract's companyId), all in one transaction. */
export async function createEnvironment(
  db: Kysely<DB>,
  scope: Scope,
  request: EnvironmentInput & { branchId: number },
): Promise<EnvironmentRow> {
  const input = checkedInput(request);
  const id = await inTransaction(db, async (trx) => {
    await assertBranchInScope(trx, scope, request.branchId, { active: true });
    await assertItemsOfBranch(trx, request.branchId, input);
    await assertNameFree(trx, request.branchId, input.name);
    const { id } = await trx
      .insertInto("environments")
      .values({
        company_id: scope.companyId,
        branch_id: request.branchId,
        name: input.name,
        andar: input.andar,
        category_id: input.categoriaId,
        sector_id: input.setorId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await writeLinks(trx, id, input);
    return id;
  });
  return findEnvironment(db, scope, id);
}

/**
 * New name, floor, category, sector, risks and procedures for an environment in scope. It stays in its branch (the
 * edit form has no company); the name must be free among the branch's other environments.
 */
export async function updateEnvironment(
  db: Kysely<DB>,
  scope: Scope,
  id: number,
  request: EnvironmentInput,
): Promise<EnvironmentRow> {
  const input = checkedInput(request);
  await inTransaction(db, async (trx) => {
    const environment = await findEnvironment(trx, scope, id);
    await assertItemsOfBranch(trx, environment.branch_id, input);
    await assertNameFree(trx, environment.branch_id, input.name, id);
    await trx
      .updateTable("environments")
      .set({ name: input.name, andar: input.andar, category_id: input.categoriaId, sector_id: input.setorId })
      .where("id", "=", id)
      .execute();
    await trx.deleteFrom("environment_risks").where("environment_id", "=", id).execute();
    await trx.deleteFrom("environment_procedures").where("environment_id", "=", id).execute();
    await writeLinks(trx, id, input);
  });
  return findEnvironment(db, scope, id);
}

/**
 * 'Gerar novo QR code' (docs/qr-codes.md 'Reissuing a code'): a new random value (16 hex digits) for the room's QR
 * code; the current one becomes the previous (the field page then says the printed code was replaced, and a slot
 * started with it is not proof of presence). The printed code keeps opening the room page: only its value is retired.
 */
export async function reissueEnvironmentQr(db: Kysely<DB>, scope: Scope, id: number): Promise<EnvironmentRow> {
  await inTransaction(db, async (trx) => {
    await findEnvironment(trx, scope, id);
    // In one UPDATE every right-hand side reads the row as it was: the previous value is the current one.
    await trx
      .updateTable("environments")
      .set((eb) => ({
        qr_codigo_anterior: eb.ref("qr_codigo"),
        qr_codigo: randomBytes(8).toString("hex"),
        qr_emitido_em: new Date(),
      }))
      .where("id", "=", id)
      .execute();
  });
  return findEnvironment(db, scope, id);
}

/**
 * Whether an environment has history (the delete refusal of spec 000 §8): a booking (agendamento) of any of its
 * agendas, a live agenda (it keeps making bookings), or the old system's rows or notes. See docs/environments.md.
 */
export async function environmentHasHistory(db: Kysely<DB>, id: number) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .or([
          eb.exists(
            eb
              .selectFrom("agendas as a")
              .select(sql`1`.as("one"))
              .where("a.environment_id", "=", id)
              .where((inner) =>
                inner.or([
                  inner("a.deleted_at", "is", null),
                  inner.exists(
                    inner
                      .selectFrom("bookings as b")
                      .select(sql`1`.as("one"))
                      .whereRef("b.agenda_id", "=", "a.id"),
                  ),
                ]),
              ),
          ),
          eb.exists(
            eb
              .selectFrom("legacy_observations as o")
              .select(sql`1`.as("one"))
              .where("o.environment_id", "=", id),
          ),
          eb.exists(
            eb
              .selectFrom("legacy_history as lh")
              .select(sql`1`.as("one"))
              .where("lh.environment_id", "=", id),
          ),
        ])
        .as("has_history"),
    ])
    .executeTakeFirstOrThrow();
  return Boolean(row.has_history);
}

/** Soft delete of an environment in scope; refused (409, the spec's text) when it has history. */
export async function removeEnvironment(db: Kysely<DB>, scope: Scope, id: number) {
  await inTransaction(db, async (trx) => {
    await findEnvironment(trx, scope, id);
    // Locked before the check: an agenda being created for it (its foreign key takes a key-share lock) is either
    // committed before the check sees the agendas, or waits until this delete is done.
    await trx.selectFrom("environments").select("id").where("id", "=", id).forUpdate().execute();
    if (await environmentHasHistory(trx, id)) throw new ApiError(409, T.hasHistory);
    await trx.updateTable("environments").set({ deleted_at: new Date() }).where("id", "=", id).execute();
  });
}
