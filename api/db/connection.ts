import { mkdirSync } from "node:fs";
import path from "node:path";

import { PGlite, types } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";

import type { DB } from "./schema.ts";

/** One open database: the typed query builder plus a way to run multi-statement scripts (migrations). */
export type Database = {
  kind: "pglite" | "postgres";
  db: Kysely<DB>;
  execScript(script: string): Promise<void>;
  close(): Promise<void>;
};

// Business dates stay 'YYYY-MM-DD' text: parsing them into a local-time Date shifts them a day.
const keepAsText = (value: string) => value;

export type OpenOptions = { databaseUrl: string } | { dataDir: string } | { memory: true; loadDataDir?: Blob };

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ("databaseUrl" in options) return openPostgres(options.databaseUrl);
  return openPGlite(options);
}

async function openPGlite(options: { dataDir: string } | { memory: true; loadDataDir?: Blob }) {
  let dataDir: string | undefined;
  if ("dataDir" in options) {
    dataDir = path.join(options.dataDir, "pgdata");
    mkdirSync(dataDir, { recursive: true });
  }
  const pglite = await PGlite.create({
    dataDir,
    loadDataDir: "loadDataDir" in options ? options.loadDataDir : undefined,
    parsers: { [types.DATE]: keepAsText },
  });
  return {
    kind: "pglite" as const,
    db: new Kysely<DB>({ dialect: new PGliteDialect(pglite) }),
    execScript: async (script: string) => {
      await pglite.exec(script);
    },
    close: () => pglite.close(),
    pglite,
  };
}

async function openPostgres(databaseUrl: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === pg.types.builtins.DATE
          ? keepAsText
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // Fail fast with the server's own message when the URL is wrong.
  const client = await pool.connect();
  client.release();
  return {
    kind: "postgres",
    db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
    execScript: async (script: string) => {
      await pool.query(script);
    },
    close: () => pool.end(),
  };
}

/** For test set-up: a compressed copy of an embedded database's files. */
export async function dumpPGlite(database: Database): Promise<Blob> {
  const pglite = (database as Database & { pglite?: PGlite }).pglite;
  if (!pglite) throw new Error("dumpPGlite needs an embedded database");
  return pglite.dumpDataDir("gzip");
}
