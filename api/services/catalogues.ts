import { sql, type Kysely, type Selectable } from "kysely";

import {
  assertBranchInScope,
  assertIdsInScope,
  resolveBranchFilter,
  type BranchQuery,
  type Scope,
} from "../auth/scope.ts";
import type { DB, Sectors } from "../db/schema.ts";
import { trimErrors, validateCatalogueCsv, type CatalogueRow } from "../domain/catalogue-csv.ts";
import { ALREADY_PRESENT, catalogueTexts, INVALID_LIST, type CatalogueDefinition } from "../domain/catalogues.ts";
import { decodeCsvBytes, parseCsv } from "../lib/csv.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import {
  withPageTotal,
  CHUNK_SIZE,
  decodeCursor,
  encodeCursor,
  foldSearch,
  foldText,
  listVersionOf,
  pageOf,
  cappedRows,
  onePage,
  sqlInt,
  type ListQuery,
} from "../lib/list-query.ts";

/**
 * The four catalogues of spec 000 §7 'Reference data' (sectors, risks, procedures, categories): rules and SQL, one
 * implementation for the four tables. Callers (the HTTP routes, the demo seed, tests) pass the database and the
 * caller's scope; every id is looked up within that scope, and a miss is 404. Reads: anyone in scope. Whether the
 * caller may write is the route's permission check, not this module's.
 */

/** An item as the answers need it: colour null except for risks, the branch's name as `empresa`. */
export type CatalogueItemRow = { id: number; name: string; color: string | null; branch_id: number; empresa: string };

/** What a list is narrowed to: the contract's scope query (companyId / filialId / filialClientId) and ids. */
export type CatalogueListFilter = BranchQuery & { ids?: number[] };

/** One keyset chunk: the rows and the cursor of the next chunk (null when this one was the last). */
export type CatalogueChunkRows = { rows: CatalogueItemRow[]; next: string | null };

const SORTS = { nome: "item.name", empresa: "branch.nome", cor: "item.color" } as const;
const isSort = (value: string): value is keyof typeof SORTS => Object.hasOwn(SORTS, value);

/** The columns the four catalogue tables share (risks add a colour, read by itemColumns). */
type SharedItemColumns = Selectable<Sectors>;

/**
 * The live items of one catalogue with their branch, the table aliased `item`. Kysely cannot alias a union of table
 * names (`${"sectors" | "risks"} as item` makes a union of query builders), so the table is a typed expression.
 */
function fromItems(db: Kysely<DB>, c: CatalogueDefinition) {
  return db
    .selectFrom(sql<SharedItemColumns>`${sql.table(c.table)}`.as("item"))
    .innerJoin("branches as branch", "branch.id", "item.branch_id")
    .where("item.deleted_at", "is", null);
}

/** The columns of an item answer; colour is read only for risks. */
function itemColumns(c: CatalogueDefinition) {
  return [
    "item.id",
    "item.name",
    "item.branch_id",
    "branch.nome as empresa",
    sql<string | null>`${sql.raw(c.hasColor ? "item.color" : "null")}`.as("color"),
  ] as const;
}

function selectItems(db: Kysely<DB>, c: CatalogueDefinition) {
  return fromItems(db, c).select(itemColumns(c));
}

const notFoundItem = (c: CatalogueDefinition) => notFound(catalogueTexts(c.kind).notFound);

function duplicateName(c: CatalogueDefinition) {
  const { duplicateDescription } = catalogueTexts(c.kind);
  return new ApiError(409, duplicateDescription, { name: [duplicateDescription] });
}

/** A unique-index violation means another request created the same name first: same answer as the check. */
function isUniqueViolation(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}

/**
 * Runs a transaction that checks names and then inserts; when a concurrent request committed the same name in
 * between, the insert hits the unique index and the work runs again, now seeing that request's rows, so the caller
 * gets the answer it would have had in sequence (not a 500). Inside a caller's transaction (the seed) the work
 * simply runs there: that transaction is the caller's to retry.
 */
async function withNameRetry<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** Risks must carry their colour (the column is not null); the other catalogues have none. */
function colorOf(c: CatalogueDefinition, color: string | null | undefined) {
  if (!color) throw new Error(`a ${c.singular} without a colour`);
  return color.toLowerCase();
}

/** Inserts items of one branch; risks through their own insert, as only they have a colour. */
function insertItems(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  branchId: number,
  items: { name: string; color?: string | null }[],
) {
  const table = c.table;
  if (table === "risks") {
    return db
      .insertInto(table)
      .values(
        items.map((item) => ({
          name: item.name,
          company_id: scope.companyId,
          branch_id: branchId,
          color: colorOf(c, item.color),
        })),
      )
      .returning(["id", "name"])
      .execute();
  }
  return db
    .insertInto(table)
    .values(items.map((item) => ({ name: item.name, company_id: scope.companyId, branch_id: branchId })))
    .returning(["id", "name"])
    .execute();
}

async function assertNameFree(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  branchId: number,
  name: string,
  exceptId?: number,
) {
  const clash = await db
    .selectFrom(c.table)
    .select("id")
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .where(sql`lower(name)`, "=", name.toLowerCase())
    .$if(exceptId !== undefined, (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  if (clash) throw duplicateName(c);
}

/** Names already live in a branch, keyed by lower case. */
async function namesIn(db: Kysely<DB>, c: CatalogueDefinition, branchId: number) {
  const rows = await db
    .selectFrom(c.table)
    .select(["name", sql<string>`lower(name)`.as("key")])
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .execute();
  return new Map(rows.map((row) => [row.key, row.name]));
}

/** One item in the caller's scope (its main company, and its branch for branch-level users), or 404. */
export async function findCatalogueItem(db: Kysely<DB>, c: CatalogueDefinition, scope: Scope, id: number) {
  let query = selectItems(db, c).where("item.id", "=", id).where("item.company_id", "=", scope.companyId);
  if (scope.level !== "company") query = query.where("item.branch_id", "=", scope.branchId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFoundItem(c);
  return row;
}

/** The list's sort keys: the folded columns of migration 003 (a colour is lower-case hex already, folded anyway). */
function sortKeyOf(c: CatalogueDefinition, sort: string | undefined) {
  const key = sort !== undefined && isSort(sort) ? sort : "nome";
  if (key === "empresa") return { key: sql<string>`branch.nome_folded`, needsBranch: true };
  if (key === "cor" && c.hasColor) return { key: foldText("item.color"), needsBranch: false };
  return { key: sql<string>`item.name_folded`, needsBranch: false };
}

/**
 * The list every read shares (docs/performance.md 'The list query pattern'): the scope query checked against the
 * scope (404 outside it), the ids (each the caller's, else 404), the search and the sort key. The search is a LIKE on the folded name, or the
 * item's branch among the branches whose folded name matches (a sub-select over the company's few branches, so the
 * items are not joined to their branch to be filtered). No function runs per row.
 */
async function filteredItems(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  filter: CatalogueListFilter,
  query: Pick<ListQuery, "q" | "sort" | "dir">,
) {
  const branches = await resolveBranchFilter(db, scope, filter);
  await assertIdsInScope(db, scope, c.table, filter.ids ?? [], catalogueTexts(c.kind).notFound);
  const search = query.q?.trim() ? foldSearch(query.q) : null;
  const scoped = db
    .selectFrom(sql<SharedItemColumns>`${sql.table(c.table)}`.as("item"))
    .where("item.company_id", "=", branches.companyId)
    .where("item.deleted_at", "is", null)
    .$if(branches.branchId !== undefined, (qb) => qb.where("item.branch_id", "=", branches.branchId!))
    .$if(filter.ids !== undefined, (qb) => qb.where("item.id", "in", filter.ids!))
    .$if(search !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb("item.name_folded", "like", search!),
          eb(
            "item.branch_id",
            "in",
            eb
              .selectFrom("branches")
              .select("branches.id")
              .where("branches.company_id", "=", branches.companyId)
              .where("branches.nome_folded", "like", search!),
          ),
        ]),
      ),
    );
  const { key: sortKey, needsBranch } = sortKeyOf(c, query.sort);
  const direction = query.dir === "desc" ? "desc" : "asc";
  // The cache key of the total: the scope and the folded search (ids lists are not cached).
  const totalKey =
    filter.ids === undefined ? `${c.table}|${branches.companyId}|${branches.branchId ?? ""}|${search ?? ""}` : null;
  return { scoped, sortKey, needsBranch, direction, companyId: branches.companyId, totalKey } as const;
}

/** Every item of the list (at most MAX_UNPAGED_ROWS, else 400), sorted (by name unless told): the contract's plain array, and 'ids' look-ups. */
export async function listCatalogueItems(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  filter: CatalogueListFilter,
  query: Pick<ListQuery, "q" | "sort" | "dir"> = {},
): Promise<CatalogueItemRow[]> {
  const { scoped, sortKey, direction } = await filteredItems(db, c, scope, filter, query);
  return cappedRows(
    scoped
      .innerJoin("branches as branch", "branch.id", "item.branch_id")
      .select(itemColumns(c))
      .orderBy(sortKey, direction)
      .orderBy("item.id", direction),
  );
}

/**
 * One page of the list and the total (size 0, 'Todos': the first MAX_PAGE_ROWS rows on one page). The page is a deferred join: the ids of the
 * page are found in the scope + sort + id index (skipping `offset` index entries, not joined rows), then only those
 * 20 rows are read and joined to their branch. The total comes from the count cache (list-query.ts withPageTotal).
 */
export async function pageCatalogueItems(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  filter: CatalogueListFilter,
  query: ListQuery,
) {
  const { scoped, sortKey, needsBranch, direction, companyId, totalKey } = await filteredItems(
    db,
    c,
    scope,
    filter,
    query,
  );
  const { page, size, limit, offset } = pageOf(query);
  const pageIds = scoped
    .$if(needsBranch, (qb) => qb.innerJoin("branches as branch", "branch.id", "item.branch_id"))
    .select(["item.id", sortKey.as("sort_key")])
    .orderBy(sortKey, direction)
    .orderBy("item.id", direction)
    .$call(onePage({ limit, offset }));
  const rows = await db
    .selectFrom(pageIds.as("page"))
    .innerJoin(sql<SharedItemColumns>`${sql.table(c.table)}`.as("item"), "item.id", "page.id")
    .innerJoin("branches as branch", "branch.id", "item.branch_id")
    .select([...itemColumns(c), listVersionOf(companyId).as("list_version")])
    .orderBy("page.sort_key", direction)
    .orderBy("page.id", direction)
    .execute();
  const count = async () =>
    Number((await scoped.select(sql<string>`count(*)`.as("total")).executeTakeFirstOrThrow()).total);
  return { ...(await withPageTotal(db, rows, { key: totalKey, companyId }, count)), page, size };
}

/**
 * One keyset chunk of the list, for streamed exports: the rows after the cursor (after = '' is the start) in the
 * list's order, at most `size`, no count. The cursor is the last row's sort key and id; the next chunk starts
 * past it with a row comparison, so each chunk costs the same however deep into the list it is.
 */
export async function chunkCatalogueItems(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  filter: CatalogueListFilter,
  query: Pick<ListQuery, "q" | "sort" | "dir"> & { after: string; size?: number },
): Promise<CatalogueChunkRows> {
  const size = query.size ?? CHUNK_SIZE.default;
  const cursor = query.after === "" ? null : decodeCursor(query.after);
  const { scoped, sortKey, direction } = await filteredItems(db, c, scope, filter, query);
  const rows = await scoped
    .innerJoin("branches as branch", "branch.id", "item.branch_id")
    .select([...itemColumns(c), sortKey.as("sort_key")])
    .$if(cursor !== null, (qb) =>
      qb.where(
        sql<boolean>`(${sortKey}, item.id) ${sql.raw(direction === "desc" ? "<" : ">")} (${cursor!.key}, ${cursor!.id})`,
      ),
    )
    .orderBy(sortKey, direction)
    .orderBy("item.id", direction)
    .limit(sqlInt(size))
    .execute();
  const last = rows.at(-1);
  return {
    rows: rows.map(({ sort_key: _key, ...row }) => row),
    next: last && rows.length === size ? encodeCursor({ key: last.sort_key, id: last.id }) : null,
  };
}

/** A new item in a branch of the scope (active only); the name must be free in that branch. */
export async function createCatalogueItem(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  item: { name: string; branchId: number; color?: string | null },
) {
  await assertBranchInScope(db, scope, item.branchId, { active: true });
  await assertNameFree(db, c, item.branchId, item.name);
  try {
    const [{ id }] = await insertItems(db, c, scope, item.branchId, [{ name: item.name, color: item.color }]);
    await noteWrites(db, c.table, 1);
    return findCatalogueItem(db, c, scope, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(c);
    throw error;
  }
}

/**
 * A new name (and colour, for risks) for an item in scope. `branchId`, when given and different from the item's,
 * must be a branch of the scope: the contract sends it, but an item stays in its branch.
 */
export async function renameCatalogueItem(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  id: number,
  change: { name: string; branchId?: number; color?: string | null },
) {
  const item = await findCatalogueItem(db, c, scope, id);
  if (change.branchId !== undefined && change.branchId !== item.branch_id)
    await assertBranchInScope(db, scope, change.branchId);
  await assertNameFree(db, c, item.branch_id, change.name, id);
  try {
    const table = c.table;
    if (table === "risks") {
      await db
        .updateTable(table)
        .set({ name: change.name, color: colorOf(c, change.color) })
        .where("id", "=", id)
        .execute();
    } else {
      await db.updateTable(table).set({ name: change.name }).where("id", "=", id).execute();
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(c);
    throw error;
  }
  return findCatalogueItem(db, c, scope, id);
}

/** Soft delete of an item in scope. */
export async function removeCatalogueItem(db: Kysely<DB>, c: CatalogueDefinition, scope: Scope, id: number) {
  await findCatalogueItem(db, c, scope, id);
  await db.updateTable(c.table).set({ deleted_at: new Date() }).where("id", "=", id).execute();
  await noteWrites(db, c.table, 1);
}

/**
 * Copies items of the main company into one active branch of the scope, in one transaction, skipping names the
 * branch already has (and names repeated among the sources). Nothing to copy is a 400.
 */
export async function duplicateCatalogueItems(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  request: { ids: number[]; branchId: number },
): Promise<{ created: CatalogueItemRow[]; skipped: number }> {
  const { ids, branchId } = request;
  if (!ids.length) throw new ApiError(400, INVALID_LIST);
  await assertBranchInScope(db, scope, branchId, { active: true });
  const sources = await selectItems(db, c)
    .where("item.company_id", "=", scope.companyId)
    .where("item.id", "in", ids)
    .execute();
  if (sources.length !== new Set(ids).size) throw notFoundItem(c);
  const inserted = await withNameRetry(db, async (trx) => {
    const present = await namesIn(trx, c, branchId);
    const missing = new Map<string, CatalogueItemRow>();
    for (const source of sources) {
      const key = source.name.toLowerCase();
      if (!present.has(key) && !missing.has(key)) missing.set(key, source);
    }
    if (!missing.size) throw new ApiError(400, ALREADY_PRESENT);
    return insertItems(trx, c, scope, branchId, [...missing.values()]);
  });
  await noteWrites(db, c.table, inserted.length);
  const created = await selectItems(db, c)
    .where(
      "item.id",
      "in",
      inserted.map((row) => row.id),
    )
    .orderBy("item.name")
    .execute();
  return { created, skipped: sources.length - created.length };
}

/**
 * Adds checked rows to one active branch of the scope, all or none: a name the branch already has fails the whole
 * batch with the rows' line numbers. Inserted in chunks that keep each statement's parameters far below
 * PostgreSQL's limit of 65,535. Answers the new rows' ids and names.
 */
export async function importCatalogueRows(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  branchId: number,
  rows: CatalogueRow[],
) {
  await assertBranchInScope(db, scope, branchId, { active: true });
  return insertImported(db, c, scope, branchId, rows);
}

/**
 * Statistics after writes (docs/performance.md 'Statistics'). PGlite has no autovacuum, so it never gathers them
 * on its own, and a planner without them picks plans 100 times slower on a large list. A bulk write (an import, a
 * duplicate of many items) analyses its table before answering; single writes are counted and every
 * ANALYZE_EVERY of them analyse the table in the background. On PostgreSQL autovacuum does the same; the extra
 * ANALYZE of a table costs a few milliseconds (it samples at most 30,000 rows).
 */
const ANALYZE_EVERY = 500;
const BULK_WRITE = 1000;
const writesSinceAnalyze = new WeakMap<object, Map<string, number>>();

async function noteWrites(db: Kysely<DB>, table: string, count: number) {
  let tables = writesSinceAnalyze.get(db);
  if (!tables) writesSinceAnalyze.set(db, (tables = new Map()));
  const pending = (tables.get(table) ?? 0) + count;
  if (count < BULK_WRITE && pending < ANALYZE_EVERY) {
    tables.set(table, pending);
    return;
  }
  tables.set(table, 0);
  const analyze = sql`analyze ${sql.table(table)}`.execute(db);
  if (count >= BULK_WRITE) await analyze;
  else analyze.catch(() => tables.set(table, ANALYZE_EVERY)); // tried again on the next write
}

async function insertImported(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  branchId: number,
  rows: CatalogueRow[],
) {
  const created = await insertImportedRows(db, c, scope, branchId, rows);
  await noteWrites(db, c.table, created.length);
  return created;
}

function insertImportedRows(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  branchId: number,
  rows: CatalogueRow[],
) {
  return withNameRetry(db, async (trx) => {
    const existing = await namesIn(trx, c, branchId);
    const clashes = rows
      .filter((row) => existing.has(row.name.toLowerCase()))
      .map(
        (row) =>
          `Linha ${row.line}: já existe ${c.feminine ? "uma" : "um"} ${c.singular} '${existing.get(row.name.toLowerCase())}' nesta filial.`,
      );
    if (clashes.length) throw new ApiError(400, trimErrors(clashes).join("\n"), { [c.csvField]: trimErrors(clashes) });
    const created: { id: number; name: string }[] = [];
    for (let start = 0; start < rows.length; start += 1000) {
      created.push(...(await insertItems(trx, c, scope, branchId, rows.slice(start, start + 1000))));
    }
    return created;
  });
}

/**
 * A CSV upload's bytes into one branch (spec 000 §8): decoded (UTF-8 or Windows-1252), parsed, checked against the
 * template (every problem with its line), then imported all or none. Answers how many items were created.
 */
export async function importCatalogueCsv(
  db: Kysely<DB>,
  c: CatalogueDefinition,
  scope: Scope,
  branchId: number,
  bytes: Uint8Array,
) {
  await assertBranchInScope(db, scope, branchId, { active: true });
  const table = parseCsv(decodeCsvBytes(bytes));
  if ("error" in table) throw new ApiError(400, table.error, { [c.csvField]: [table.error] });
  const checked = validateCatalogueCsv(c.kind, table);
  if ("errors" in checked) throw new ApiError(400, checked.errors.join("\n"), { [c.csvField]: checked.errors });
  return (await insertImported(db, c, scope, branchId, checked.rows)).length;
}
