/**
 * Row counts per table, the check of every backup, restore and move (docs/backups.md): the archive's manifest keeps
 * the counts of the dump, and the database made from it must have the same.
 */
import { sql, type Kysely } from "kysely";

import type { DB } from "./schema.ts";

/** Runs one SQL text and gives its rows: a pg client's `query`, or a Kysely database's or connection's (below). */
export type RunQuery = (text: string) => Promise<Record<string, unknown>[]>;

export const runOn =
  (db: Kysely<DB>): RunQuery =>
  async (text) =>
    (await sql.raw(text).execute(db)).rows as Record<string, unknown>[];

export type TableCounts = Record<string, number>;

/**
 * Every table of the application's schemas with its number of rows, by name (schema-qualified outside `public`).
 * Names come from the catalogue, not from the search path, which a dump script leaves empty.
 */
export async function countTables(run: RunQuery): Promise<TableCounts> {
  const tables = (await run(
    `select schemaname, tablename from pg_catalog.pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') and schemaname not like 'pg\\_%'
      order by schemaname, tablename`,
  )) as { schemaname: string; tablename: string }[];
  if (!tables.length) return {};
  const parts = tables.map(
    ({ schemaname, tablename }, index) =>
      `select ${index} as i, count(*)::int as n from ${quoteIdent(schemaname)}.${quoteIdent(tablename)}`,
  );
  const rows = (await run(parts.join(" union all "))) as { i: number; n: number }[];
  const counts: TableCounts = {};
  for (const row of rows.sort((a, b) => Number(a.i) - Number(b.i))) {
    const { schemaname, tablename } = tables[Number(row.i)]!;
    counts[schemaname === "public" ? tablename : `${schemaname}.${tablename}`] = Number(row.n);
  }
  return counts;
}

export type CountComparison = { table: string; expected: number | null; found: number | null }[];

/** Tables of both sides, with the rows each has; `null` where one side has no such table. */
export function compareCounts(expected: TableCounts, found: TableCounts): CountComparison {
  const tables = [...new Set([...Object.keys(expected), ...Object.keys(found)])].sort();
  return tables.map((table) => ({ table, expected: expected[table] ?? null, found: found[table] ?? null }));
}

export const countsMatch = (comparison: CountComparison) => comparison.every((row) => row.expected === row.found);

/** The comparison as a text table for the command line, mismatches marked. */
export function formatComparison(comparison: CountComparison, headings: [string, string]) {
  const width = Math.max(5, ...comparison.map((row) => row.table.length));
  const cell = (value: number | null) => (value === null ? "-" : String(value)).padStart(10);
  const lines = [`${"table".padEnd(width)} ${headings[0].padStart(10)} ${headings[1].padStart(10)}`];
  for (const row of comparison) {
    const mark = row.expected === row.found ? "" : "  <- differs";
    lines.push(`${row.table.padEnd(width)} ${cell(row.expected)} ${cell(row.found)}${mark}`);
  }
  return lines.join("\n");
}

export function quoteIdent(name: string) {
  return `"${name.replace(/"/g, '""')}"`;
}
