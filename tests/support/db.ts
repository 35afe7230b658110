/**
 * The API tests' databases (DESIGN.md 'Data', STYLE.md 9: a real database, migrated once, copied per file).
 *
 * This module is the api project's globalSetup (setup/teardown below, run once per `vitest run`) and the
 * per-file opener (openTestDatabase):
 * - PGlite (default): one in-memory instance is migrated and seeded with the demo data (without the demo
 *   simulator's agendas and history: tests count from none, and it would add ~20 s), dumped to
 *   tests/.tmp/ (kept between runs while the API code is unchanged), and every test file loads its own in-memory
 *   instance from that dump (creating instances from scratch costs ~5 s each, loading a dump ~1 s).
 * - PostgreSQL (DATABASE_URL set): a template database is migrated and seeded, and every test file gets its own
 *   database made with CREATE DATABASE ... TEMPLATE, dropped when the file is done.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";

import { pgliteWorkerSetting } from "../../api/config.ts";
import { dumpPGlite, openDatabase, type Database } from "../../api/db/connection.ts";
import { migrate } from "../../api/db/migrate.ts";
import { seedDemo } from "../../api/db/seed.ts";

export type TestDatabaseSource =
  { kind: "pglite"; dumpFile: string } | { kind: "postgres"; adminUrl: string; template: string; prefix: string };

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: TestDatabaseSource;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const tmpDir = path.join(root, "tests", ".tmp");
/** Databases of one run are named vitest_<pid>_...; leftovers of a crashed run are recognised by a dead pid. */
const RUN_PREFIX = `vitest_${process.pid}_`;

let source: TestDatabaseSource | undefined;

export async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  source = databaseUrl ? await prepareTemplate(databaseUrl) : await prepareDump();
  project.provide("testDatabase", source);
}

export async function teardown() {
  // The PGlite dump stays for the next run (see prepareDump).
  if (!source || source.kind === "pglite") return;
  const { adminUrl, prefix } = source;
  await withAdmin(adminUrl, async (client) => {
    // The template and any per-file database a crashed worker did not drop.
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, $1)",
      [prefix],
    );
    for (const row of rows) await client.query(`drop database if exists ${quoteIdent(row.datname)} with (force)`);
  });
}

/**
 * The dump depends only on the API's code (migrations, seed, password hashing) and PGlite's version, so it is kept
 * in tests/.tmp under a hash of those and made again when any of them changes (TEST_DB_CACHE=false: always).
 */
async function prepareDump(): Promise<TestDatabaseSource> {
  mkdirSync(tmpDir, { recursive: true });
  const dumpFile = path.join(tmpDir, `api-seed-${dumpKey()}.tar.gz`);
  if (process.env.TEST_DB_CACHE !== "false" && existsSync(dumpFile)) return { kind: "pglite", dumpFile };

  const database = await openDatabase({ memory: true });
  try {
    await migrate(database);
    await seedDemo(database, { history: false });
    const dump = await dumpPGlite(database);
    // Written under a temporary name and renamed, so a parallel run never reads half a file.
    const partial = `${dumpFile}.${process.pid}.partial`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, dumpFile);
  } finally {
    await database.close();
  }
  // Dumps of older code, unless so recent that another run may still be reading one.
  for (const old of readdirSync(tmpDir)) {
    const file = path.join(tmpDir, old);
    if (/^api-seed-.*\.tar\.gz$/.test(old) && file !== dumpFile && Date.now() - statSync(file).mtimeMs > 10 * 60_000) {
      rmSync(file, { force: true });
    }
  }
  return { kind: "pglite", dumpFile };
}

function dumpKey() {
  const hash = createHash("sha256");
  const apiDir = path.join(root, "api");
  const files = (readdirSync(apiDir, { recursive: true }) as string[])
    .filter((file) => /\.(ts|sql)$/.test(file))
    .sort();
  for (const file of files) hash.update(file).update(readFileSync(path.join(apiDir, file)));
  hash.update(readFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "package.json")));
  return hash.digest("hex").slice(0, 16);
}

async function prepareTemplate(adminUrl: string): Promise<TestDatabaseSource> {
  const template = `${RUN_PREFIX}template`;
  await withAdmin(adminUrl, async (client) => {
    await dropLeftovers(client);
    await client.query(`drop database if exists ${quoteIdent(template)} with (force)`);
    await client.query(`create database ${quoteIdent(template)}`);
  });
  const database = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, template) });
  try {
    await migrate(database);
    await seedDemo(database, { history: false });
  } finally {
    // CREATE DATABASE ... TEMPLATE refuses while anyone is connected to the template.
    await database.close();
  }
  return { kind: "postgres", adminUrl, template, prefix: RUN_PREFIX };
}

/** Databases left by runs that died before their teardown (their process no longer exists). */
async function dropLeftovers(client: pg.Client) {
  const { rows } = await client.query<{ datname: string }>(
    "select datname from pg_database where datname ~ '^vitest_[0-9]+_'",
  );
  for (const { datname } of rows) {
    const pid = Number(datname.split("_")[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    await client.query(`drop database if exists ${quoteIdent(datname)} with (force)`);
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type TestDatabase = Database & { name: string };

/** A database of the test file's own, with the migrated demo data; close() discards it. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const from = inject("testDatabase");
  if (!from) throw new Error("openTestDatabase needs the api project's globalSetup (tests/support/db.ts)");
  if (from.kind === "pglite") {
    const blob = new Blob([readFileSync(from.dumpFile)], { type: "application/x-gzip" });
    // In this thread unless PGLITE_WORKER is set: the API's answers do not depend on where PGlite runs, and the thread
    // costs a message each way per statement (~25 % of this suite's time). The worker has its own tests
    // (pglite-worker.test.ts), and every whole server the suite starts runs the default, the worker
    // (docs/performance.md 'PGlite in a worker thread').
    const worker = process.env.PGLITE_WORKER ? pgliteWorkerSetting() : false;
    const database = await openDatabase({ memory: true, loadDataDir: blob, worker });
    return Object.assign(database, { name: "pglite (memory)" });
  }
  const name = `${from.prefix}${process.pid}_${randomBytes(4).toString("hex")}`;
  await withAdmin(from.adminUrl, (client) => createFromTemplate(client, name, from.template));
  const database = await openDatabase({ databaseUrl: databaseUrlFor(from.adminUrl, name) });
  const close = database.close;
  return Object.assign(database, {
    name,
    close: async () => {
      await close();
      await withAdmin(from.adminUrl, (client) =>
        client.query(`drop database if exists ${quoteIdent(name)} with (force)`),
      );
    },
  });
}

/**
 * The suite's migrated demo database written into DATA_DIR/pgdata, for a whole server started on it (~2 s instead of
 * ~8 s to create and migrate one). Answers false on a PostgreSQL run, where there is no PGlite dump.
 */
export async function writeTestDatabase(dataDir: string): Promise<boolean> {
  const from = inject("testDatabase");
  if (from?.kind !== "pglite") return false;
  const loadDataDir = new Blob([readFileSync(from.dumpFile)], { type: "application/x-gzip" });
  const pglite = await PGlite.create({ dataDir: path.join(dataDir, "pgdata"), loadDataDir });
  await pglite.close();
  return true;
}

/** Copies of one template made at the same moment can collide on the template's lock: retry briefly. */
async function createFromTemplate(client: pg.Client, name: string, template: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`create database ${quoteIdent(name)} template ${quoteIdent(template)}`);
      return;
    } catch (error) {
      const busy = /being accessed by other users/.test(String((error as Error).message));
      if (!busy || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** One short admin connection to a PostgreSQL server (create and drop test databases). */
export async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrlFor(adminUrl: string, name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function quoteIdent(name: string) {
  return `"${name.replace(/"/g, '""')}"`;
}
