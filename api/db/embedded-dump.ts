/**
 * A plain SQL dump of the embedded database (PGlite), taken inside the process that has it open: pg_dump compiled
 * to WASM (@electric-sql/pglite-tools) talks to the same PGlite instance over its wire protocol.
 */
import type { PGlite } from "@electric-sql/pglite";
import { pgDump } from "@electric-sql/pglite-tools/pg_dump";

import type { Database } from "./connection.ts";
import { countTables, runOn, type TableCounts } from "./table-counts.ts";

export type EmbeddedDump = {
  /** The SQL script (pg_dump --no-owner --no-privileges, and the --inserts pglite-tools always adds), loadable by PostgreSQL 15 and later. */
  script: string;
  /** Rows per table when the dump was taken (the same snapshot: nothing else ran meanwhile). */
  tables: TableCounts;
  /** schema_migrations, in order. */
  migrations: string[];
  /** `server_version` of the dumped database. */
  serverVersion: string;
  /** How long every other query of the process waited. */
  blockedMs: number;
};

/** Settings pg_dump changes for its session, which is the application's only one here. */
type Settings = Map<string, string>;

/**
 * Dumps while holding Kysely's only PGlite connection: kysely-pglite-dialect queues every other query and transaction
 * of the process behind it, so no application transaction is half done while pg_dump's own transaction reads. pg_dump
 * runs synchronously (pg.execProtocolRawSync) where the instance runs: in this thread the event loop waits too, for
 * the whole dump; with PGLITE_WORKER the worker thread does (api/db/pglite-worker.ts).
 */
export async function dumpEmbeddedDatabase(database: Database): Promise<EmbeddedDump> {
  const { embedded } = database;
  if (database.kind !== "pglite" || !embedded) throw new Error("Only the embedded database (PGlite) is dumped here");
  dumping.add(database);
  try {
    return await dumpHolding(database, embedded);
  } finally {
    dumping.delete(database);
  }
}

/** The databases a dump holds right now. */
const dumping = new WeakSet<Database>();

/**
 * Whether a dump holds this database: it answers (to pg_dump), only not to anyone else until the dump ends, so the
 * readiness check says ready rather than time out (docs/backups.md 'How long the server waits').
 */
export function dumpInProgress(database: Database) {
  return dumping.has(database);
}

function dumpHolding(database: Database, embedded: NonNullable<Database["embedded"]>) {
  return database.db.connection().execute(async (connection) => {
    const began = performance.now();
    const run = runOn(connection);
    const tables = await countTables(run);
    const migrations = (await run("select name from schema_migrations order by name")).map((row) => String(row.name));
    const serverVersion = String((await run("show server_version"))[0]!.server_version);
    const script = portableScript(await embedded.pgDump(["--no-owner", "--no-privileges"]));
    return { script, tables, migrations, serverVersion, blockedMs: performance.now() - began };
  });
}

/**
 * pg_dump on the instance itself, wherever it runs (this thread or the worker's), its session then restored:
 * `forgetPrepared` makes the statements client forget what pglite-tools' DEALLOCATE ALL dropped.
 */
export async function runPgDump(pglite: PGlite, args: string[], forgetPrepared: () => Promise<void>) {
  const settings = await sessionSettings(pglite);
  let dump: File;
  try {
    dump = await pgDump({ pg: pglite, args });
  } finally {
    await restoreSession(pglite, settings, forgetPrepared);
  }
  return dump.text();
}

async function sessionSettings(pglite: PGlite): Promise<Settings> {
  const { rows } = await pglite.query<{ name: string; setting: string }>(
    "select name, setting from pg_settings where context in ('user', 'superuser') and name not like 'transaction\\_%'",
  );
  return new Map(rows.map((row) => [row.name, row.setting]));
}

/**
 * pg_dump leaves the session as a separate process's would be at its exit: its read-only repeatable-read transaction
 * open, its settings changed (restrict_nonsystem_relation_kind would refuse the application's views), and pglite-tools
 * runs DEALLOCATE ALL, which drops the prepared statements of api/db/pglite-statements.ts. All three are undone here.
 */
async function restoreSession(pglite: PGlite, before: Settings, forgetPrepared: () => Promise<void>) {
  await pglite.exec("rollback");
  const after = await sessionSettings(pglite);
  const changed = [...before].filter(([name, value]) => after.get(name) !== value);
  const resets = changed.map(([name, value]) => `select set_config(${literal(name)}, ${literal(value)}, false);`);
  if (resets.length) await pglite.exec(resets.join("\n"));
  await forgetPrepared();
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * pg_dump 17 writes `SET transaction_timeout = 0;`, a setting PostgreSQL 15 and 16 refuse ('unrecognized
 * configuration parameter'); nothing else in its output is new. The line only turns off a timeout no one set.
 */
export function portableScript(script: string) {
  return script.replace(/^SET transaction_timeout = 0;\n/m, "");
}
