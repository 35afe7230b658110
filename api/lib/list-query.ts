import { z } from "@hono/zod-openapi";
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from "kysely";

import type { DB } from "../db/schema.ts";
import {
  MAX_BOOKING_ROWS,
  MAX_PAGE_ROWS,
  MAX_SEARCH_LENGTH,
  MAX_SORT_LENGTH,
  MAX_UNPAGED_ROWS,
} from "../domain/limits.ts";

import { ApiError } from "./errors.ts";
import "./zod-setup.ts";

/**
 * Query parameters every paged list accepts (the web app keeps them in the page URL):
 * q (case- and accent-insensitive search), sort + dir, page (from 1) and size (20, 40, 80, 160; 0 = all).
 */
export const PAGE_SIZES = [20, 40, 80, 160, 0] as const;
export const SIZE_INVALID = "Tamanho de página inválido";

export const ListQuery = z.object({
  q: z.string().max(MAX_SEARCH_LENGTH).optional(),
  sort: z.string().max(MAX_SORT_LENGTH).optional(),
  dir: z.enum(["asc", "desc"]).optional(),
  page: z.coerce.number().int().min(1).optional(),
  size: z.coerce
    .number()
    .int()
    .refine((value) => (PAGE_SIZES as readonly number[]).includes(value), SIZE_INVALID)
    .optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export function isPaged(query: ListQuery) {
  return (
    query.q !== undefined ||
    query.sort !== undefined ||
    query.dir !== undefined ||
    query.page !== undefined ||
    query.size !== undefined
  );
}

/**
 * No answer holds an unbounded list (api/domain/limits.ts): past the caps, 400 with the way to page; the keyset chunks
 * of the exports stream any length, 5,000 rows at a time.
 */
export { MAX_BOOKING_ROWS, MAX_PAGE_ROWS, MAX_UNPAGED_ROWS };

const count = (value: number) => value.toLocaleString("pt-BR");
export const TOO_MANY_ROWS = `A consulta passa de ${count(MAX_BOOKING_ROWS)} linhas: peça por páginas (limit e page, até ${count(MAX_BOOKING_ROWS)} por página) ou um período menor.`;
export const TOO_MANY_ITEMS = `A lista passa de ${count(MAX_UNPAGED_ROWS)} itens: peça por páginas (page e size) ou use a busca (q).`;

function withinCap<Row>(rows: Row[], max: number, message: string): Row[] {
  if (rows.length > max) throw new ApiError(400, message);
  return rows;
}

/**
 * Every row of an unpaged query, at most `max` (MAX_UNPAGED_ROWS unless told); one more is read to know there are
 * more, which is a 400 with `message`.
 */
export async function cappedRows<Row>(
  query: { limit(value: RawBuilder<number>): { execute(): Promise<Row[]> } },
  max: number = MAX_UNPAGED_ROWS,
  message: string = TOO_MANY_ITEMS,
): Promise<Row[]> {
  return withinCap(await query.limit(sqlInt(max + 1)).execute(), max, message);
}

export function pageOf(query: ListQuery) {
  const size = query.size ?? 20;
  const page = query.page ?? 1;
  return { size, page, limit: size === 0 ? MAX_PAGE_ROWS : size, offset: size === 0 ? 0 : (page - 1) * size };
}

/**
 * A page's LIMIT or OFFSET written into the SQL text instead of sent as a parameter. On PGlite every statement is
 * prepared (api/db/pglite-statements.ts) and PostgreSQL may plan it once for any parameter values: with the limit
 * as a parameter that generic plan cannot know the page is 20 rows, and the list query's was twice as slow as
 * planning each call (2.0 against 1.1 ms); with it in the text the generic plan reads the index in order and stops
 * (0.62 ms). Only integers: the value is checked, never a string.
 */
export function sqlInt(value: number) {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`sqlInt: not a row count: ${value}`);
  return sql.lit(value) as RawBuilder<number>;
}

/** One page of a select, `pageOf`'s bounds written into the SQL text (sqlInt). Use with `$call`: `.$call(onePage(pageOf(query)))`. */
export function onePage({ limit, offset }: { limit: number; offset: number }) {
  return <QB extends { limit(value: RawBuilder<number>): QB; offset(value: RawBuilder<number>): QB }>(qb: QB) =>
    qb.limit(sqlInt(limit)).offset(sqlInt(offset));
}

/**
 * The bounds of a list whose contract pages by `limit` and `page` (history, bookings). Without `limit` it reads
 * MAX_BOOKING_ROWS + 1 rows: pass the answer through `limitPageRows`.
 */
export function limitPageBounds({ limit, page }: { limit?: number | null; page?: number | null }) {
  if (limit === undefined || limit === null) return { limit: MAX_BOOKING_ROWS + 1, offset: 0 };
  return { limit, offset: ((page ?? 1) - 1) * limit };
}

/** The rows a `limitPageBounds` query read: a page as it is; unpaged, 400 past MAX_BOOKING_ROWS. */
export function limitPageRows<Row>(rows: Row[], { limit }: { limit?: number | null }): Row[] {
  return limit === undefined || limit === null ? withinCap(rows, MAX_BOOKING_ROWS, TOO_MANY_ROWS) : rows;
}

const ACCENTED = "áàâãäéèêëíìîïóòôõöúùûüçñ";
const PLAIN = "aaaaaeeeeiiiiooooouuuucn";

/**
 * Lower-case and without accents, so 'Área' sorts with 'area' and before 'Banheiro' (pt-BR order on any server).
 * The two strings are inlined as literals so the expression matches the sort indexes of migration 002.
 */
export function foldText(expression: RawBuilder<unknown> | string) {
  const column = typeof expression === "string" ? sql.ref(expression) : expression;
  return sql<string>`translate(lower(${column}), ${sql.lit(ACCENTED)}, ${sql.lit(PLAIN)})`;
}

export function foldSearch(term: string) {
  const folded = term
    .trim()
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
  return `%${folded.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * A list that also answers keyset chunks (streamed exports): `after` is an opaque cursor, the base64url of the last
 * row's sort key and id as JSON; '' asks for the first chunk. With `after`, `size` is the chunk's row count
 * (1 to 5000, 1000 unless told) and `page` is ignored. Use with `.superRefine(checkListSize)`.
 */
export const CHUNK_SIZE = { default: 1000, max: 5000 } as const;
export const CHUNK_SIZE_INVALID = `Tamanho de bloco inválido: de 1 a ${CHUNK_SIZE.max} linhas`;

export const ChunkableListQuery = ListQuery.extend({
  size: z.coerce
    .number()
    .int()
    .optional()
    .openapi({ description: "Page size: 20, 40, 80, 160 or 0 (all); with after, the chunk size: 1 to 5000" }),
  after: z
    .string()
    .max(2000)
    .optional()
    .openapi({
      description:
        "Keyset chunks: '' for the first chunk, then the previous answer's next. The answer is then " +
        "{ items, next } (next null after the last chunk), in the same order as the list, without a total.",
    }),
});

export function checkListSize(query: { size?: number; after?: string }, ctx: z.RefinementCtx) {
  if (query.size === undefined) return;
  if (query.after === undefined) {
    if (!(PAGE_SIZES as readonly number[]).includes(query.size))
      ctx.addIssue({ code: "custom", path: ["size"], message: SIZE_INVALID });
  } else if (query.size < 1 || query.size > CHUNK_SIZE.max) {
    ctx.addIssue({ code: "custom", path: ["size"], message: CHUNK_SIZE_INVALID });
  }
}

export const CURSOR_INVALID = "Cursor inválido: recomece a leitura do início (after vazio).";

export type Cursor = { key: string; id: number };

export function encodeCursor(cursor: Cursor) {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id]), "utf8").toString("base64url");
}

/** The cursor an answer gave; anything else is a 400 (never a database error). */
export function decodeCursor(after: string): Cursor {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(after)) throw new Error("not base64url");
    value = JSON.parse(Buffer.from(after, "base64url").toString("utf8"));
  } catch {
    throw new ApiError(400, CURSOR_INVALID, { after: [CURSOR_INVALID] });
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== "string" ||
    !Number.isSafeInteger(value[1]) ||
    value[1] < 0
  ) {
    throw new ApiError(400, CURSOR_INVALID, { after: [CURSOR_INVALID] });
  }
  return { key: value[0], id: value[1] };
}

/**
 * List totals, cached per database, scope and search (docs/performance.md 'Counts'). A count scans every row of the
 * scope that matches, so it is the dearest part of a page; the cache keeps each total with the company's list
 * version (table list_versions, moved by triggers on every statement that writes a listed table of the company,
 * migration 003) and uses it only while that version is still current. Exact on every server and instance: a write
 * anywhere, through any code, makes the next request count again.
 */
type CachedTotal = { version: string; total: number };
const totalsByDatabase = new WeakMap<object, Map<string, CachedTotal>>();
/** Entries kept per database; the oldest go first (a Map iterates in insertion order). */
const MAX_CACHED_TOTALS = 2000;

export async function cachedTotal(
  database: object,
  key: string,
  version: string | null,
  count: () => Promise<number>,
): Promise<number> {
  let totals = totalsByDatabase.get(database);
  if (!totals) totalsByDatabase.set(database, (totals = new Map()));
  const cached = totals.get(key);
  if (version !== null && cached?.version === version) return cached.total;
  const total = await count();
  if (version === null) return total;
  totals.delete(key);
  totals.set(key, { version, total });
  if (totals.size > MAX_CACHED_TOTALS) totals.delete(totals.keys().next().value!);
  return total;
}

/** The company's list version as text (int8), the expression a list query selects beside its rows. */
export function listVersionOf(companyId: number) {
  return sql<string>`coalesce((select lv.version::text from list_versions lv where lv.company_id = ${companyId}), '0')`;
}

/**
 * A page's rows and the list's total through the count cache. Each row carries `list_version`, the company's list
 * version selected beside it (listVersionOf), so rows and version come from one snapshot; the rows come back without
 * it. An empty page carries none, and the version is then read alone (a primary-key look-up). A null key (an ids
 * look-up) counts every time.
 */
export async function withPageTotal<Row extends { list_version: string }>(
  db: Kysely<DB>,
  rows: Row[],
  cache: { key: string | null; companyId: number },
  count: () => Promise<number>,
): Promise<{ rows: Omit<Row, "list_version">[]; total: number }> {
  const items = rows.map(({ list_version: _version, ...row }) => row);
  if (cache.key === null) return { rows: items, total: await count() };
  const version =
    rows[0]?.list_version ??
    (await db.selectNoFrom(listVersionOf(cache.companyId).as("list_version")).executeTakeFirstOrThrow()).list_version;
  return { rows: items, total: await cachedTotal(db, cache.key, version, count) };
}

/**
 * The total of a page read with `count(*) over ()` as `total_rows`: the first row's; none on the first page is 0; a
 * page past the end read no row to carry it, so `rows` (the query without its page) is counted once more.
 */
export async function pageTotal(
  db: Kysely<DB>,
  page: readonly { total_rows: string | number }[],
  offset: number,
  rows: () => SelectQueryBuilder<DB, never, object>,
) {
  if (page.length) return Number(page[0].total_rows);
  if (offset === 0) return 0;
  const { total } = await db
    .selectFrom(rows().as("counted"))
    .select(sql<string>`count(*)`.as("total"))
    .executeTakeFirstOrThrow();
  return Number(total);
}
