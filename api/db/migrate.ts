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

/** The session lock migrations run under, on PostgreSQL and PGlite alike (any fixed number, ours alone). */
const MIGRATION_LOCK = 4242;

/**
 * Applies what schema_migrations does not list yet. Several servers may start at once against one PostgreSQL: each
 * takes one session-level advisory lock first, so one migrates while the others wait, then read the list anew and find
 * everything applied (reading it before the lock would let a waiting server apply a file a second time).
 */
export async function migrate(database: Database): Promise<string[]> {
  const done: string[] = [];
  await database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      // On PostgreSQL the scripts run on the locked connection itself (a pool of one has no other; a query without
      // parameters goes as a simple query, so a script may hold several statements); PGlite's execScript is its own.
      const run = (script: string) =>
        database.kind === "postgres"
          ? sql
              .raw(script)
              .execute(connection)
              .then(() => {})
          : database.execScript(script);
      await run(
        "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
      );
      const applied = new Set(
        (await sql<{ name: string }>`select name from schema_migrations`.execute(connection)).rows.map(
          (row) => row.name,
        ),
      );
      for (const migration of listMigrations()) {
        if (applied.has(migration.name)) continue;
        await run(
          `begin;
           ${migration.script}
           ;
           insert into schema_migrations (name) values ('${migration.name.replace(/'/g, "''")}');
           commit;`,
        );
        done.push(migration.name);
      }
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
  // PGlite never gathers statistics on its own (no autovacuum): without them the planner guesses and a page of a
  // large list can take 100 times longer. Cheap on an empty database, and harmless on PostgreSQL.
  if (done.length) await database.execScript("analyze");
  return done;
}
