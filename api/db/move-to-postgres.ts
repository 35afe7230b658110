/**
 * Moves DATA_DIR's embedded database into an empty PostgreSQL database (docs/moving-to-postgresql.md): the dump of
 * embedded-dump.ts (taken here when no process has the directory open, else by the running server over its control
 * socket), applied in one transaction with the sequences checked and the row counts compared before the commit. A
 * failure or a difference leaves the target empty. Uploads are files and stay where they are.
 */
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";

import pg from "pg";

import { extractBackup } from "./backup-archive.ts";
import { openDatabase } from "./connection.ts";
import { askControlSocket, type BackupAnswer } from "./control-socket.ts";
import { dumpEmbeddedDatabase } from "./embedded-dump.ts";
import { dataDirState, openElsewhereMessage, OpsRefusal } from "./ops-support.ts";
import {
  compareCounts,
  countsMatch,
  countTables,
  quoteIdent,
  type CountComparison,
  type RunQuery,
  type TableCounts,
} from "./table-counts.ts";

export type MoveResult = {
  comparison: CountComparison;
  /** false: the counts differed, the transaction was rolled back and the target is empty again. */
  moved: boolean;
  /** The pid of the server that made the dump, when one was running (it keeps serving the embedded database). */
  serverPid: number | null;
  /** Sequences set forward to their column's largest value (pg_dump's setval normally leaves none). */
  sequencesFixed: string[];
  ms: number;
};

type Dump = { script: string; tables: TableCounts };

export async function moveToPostgres(options: { dataDir: string; databaseUrl: string }): Promise<MoveResult> {
  const began = performance.now();
  const client = new pg.Client({ connectionString: options.databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new OpsRefusal(`Could not connect to the target PostgreSQL: ${(error as Error).message}`);
  }
  try {
    const run: RunQuery = async (text) => (await client.query(text)).rows;
    await refuseNonEmpty(run);
    const { dump, serverPid } = await takeDump(options.dataDir);
    await client.query("begin");
    try {
      await client.query(dump.script);
      const sequencesFixed = await fixSequences(run);
      const comparison = compareCounts(dump.tables, await countTables(run));
      const moved = countsMatch(comparison);
      await client.query(moved ? "commit" : "rollback");
      // Fresh statistics for the planner now rather than at autovacuum's first pass.
      if (moved) await client.query("analyze");
      return { comparison, moved, serverPid, sequencesFixed, ms: performance.now() - began };
    } catch (error) {
      await client.query("rollback").catch(() => {});
      throw new OpsRefusal(`The dump could not be applied; the target was left empty: ${(error as Error).message}`);
    }
  } finally {
    await client.end();
  }
}

async function refuseNonEmpty(run: RunQuery) {
  const rows = await run(
    `select n.nspname || '.' || c.relname as name from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      order by 1 limit 6`,
  );
  if (!rows.length) return;
  const names = rows.slice(0, 5).map((row) => String(row.name));
  throw new OpsRefusal(
    `The target database is not empty (${names.join(", ")}${rows.length > 5 ? ", ..." : ""}): nothing was written. ` +
      "Move into a new, empty database, e.g. `createdb -h HOST -U USER limpeza`, and pass its URL.",
  );
}

/** The dump from the server that has DATA_DIR open, else from the directory itself. */
async function takeDump(dataDir: string): Promise<{ dump: Dump; serverPid: number | null }> {
  const state = await dataDirState(dataDir);
  if (state.kind === "open elsewhere") throw new OpsRefusal(openElsewhereMessage(dataDir));
  if (state.kind === "no database") throw new OpsRefusal(`There is no embedded database in ${dataDir}/pgdata.`);
  if (state.kind === "stopped") {
    const database = await openDatabase({ dataDir });
    try {
      return { dump: await dumpEmbeddedDatabase(database), serverPid: null };
    } finally {
      await database.close();
    }
  }
  // Under DATA_DIR, which both processes see: the server's /tmp may be its own (systemd PrivateTmp, a container).
  const scratch = await mkdtemp(path.join(dataDir, ".limpeza-move-"));
  try {
    const answer = await askControlSocket(dataDir, "POST", "/backup", { out: scratch, uploads: false });
    if (!answer || answer.status !== 200) {
      throw new OpsRefusal(
        `The running server could not dump the database: ${String(answer?.body.error ?? "no answer")}`,
      );
    }
    const archive = await extractBackup((answer.body as BackupAnswer).file, path.join(scratch, "archive"));
    return { dump: { script: archive.script, tables: archive.manifest.tables }, serverPid: state.pid };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Every sequence owned by a column (serial, identity) at least at that column's largest value, so the next insert
 * does not collide. pg_dump's setval already restores them: this is the check, and the repair if one was missed.
 */
async function fixSequences(run: RunQuery) {
  const owned = (await run(
    `select seq.oid::regclass::text as seq, tbl.oid::regclass::text as tbl, a.attname as col
       from pg_catalog.pg_depend d
       join pg_catalog.pg_class seq on seq.oid = d.objid and seq.relkind = 'S'
       join pg_catalog.pg_class tbl on tbl.oid = d.refobjid
       join pg_catalog.pg_attribute a on a.attrelid = tbl.oid and a.attnum = d.refobjsubid
      where d.classid = 'pg_catalog.pg_class'::regclass and d.refclassid = 'pg_catalog.pg_class'::regclass
        and d.deptype in ('a', 'i')`,
  )) as { seq: string; tbl: string; col: string }[];
  const fixed: string[] = [];
  for (const { seq, tbl, col } of owned) {
    const [row] = (await run(
      `select (select max(${quoteIdent(col)}) from ${tbl})::text as max, last_value::text, is_called from ${seq}`,
    )) as { max: string | null; last_value: string; is_called: boolean }[];
    if (row!.max === null) continue;
    const max = BigInt(row!.max);
    const last = BigInt(row!.last_value);
    if (max > last || (max === last && !row!.is_called)) {
      await run(`select pg_catalog.setval('${seq.replace(/'/g, "''")}', ${max}, true)`);
      fixed.push(seq);
    }
  }
  return fixed;
}
