import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { sql } from "kysely";

import type { Database } from "./connection.ts";

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Numbered SQL files (001_name.sql ...), applied in order, each in its own transaction, recorded in schema_migrations. */
export function listMigrations() {
  return readdirSync(migrationsDir)
    .filter((file) => /^\d{3}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      name: file.replace(/\.sql$/, ""),
      script: readFileSync(path.join(migrationsDir, file), "utf8"),
    }));
}

export async function migrate(database: Database): Promise<string[]> {
  await database.execScript(
    "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
  );
  const applied = new Set(
    (await sql<{ name: string }>`select name from schema_migrations`.execute(database.db)).rows.map((row) => row.name),
  );
  const done: string[] = [];
  for (const migration of listMigrations()) {
    if (applied.has(migration.name)) continue;
    // Several servers may start at once against one PostgreSQL: the advisory lock lets one migrate at a time,
    // and the insert's primary key stops a second run of the same file.
    await database.execScript(
      `begin;
       select pg_advisory_xact_lock(4242);
       ${migration.script}
       ;
       insert into schema_migrations (name) values ('${migration.name.replace(/'/g, "''")}');
       commit;`,
    );
    done.push(migration.name);
  }
  // PGlite never gathers statistics on its own (no autovacuum): without them the planner guesses and a page of a
  // large list can take 100 times longer. Cheap on an empty database, and harmless on PostgreSQL.
  if (done.length) await database.execScript("analyze");
  return done;
}
