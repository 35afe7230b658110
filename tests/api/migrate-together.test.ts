/**
 * Several instances started at once against one new PostgreSQL database (README 'Operations'): one applies
 * every migration, the others wait for its advisory lock and apply nothing, and none fails. Runs where a PostgreSQL
 * server is named (DATABASE_URL, as CI's second API run, or FAULTS_DATABASE_URL).
 */
import { sql } from "kysely";
import { afterAll, describe, expect, test } from "vitest";

import { openDatabase } from "../../api/db/connection.ts";
import { listMigrations, migrate } from "../../api/db/migrate.ts";
import { withAdmin } from "../support/db.ts";

const ADMIN_URL = process.env.FAULTS_DATABASE_URL ?? process.env.DATABASE_URL;
const NAME = `migrate_together_${process.pid}`;

const admin = (statement: string) => withAdmin(ADMIN_URL!, (client) => client.query(statement));

afterAll(async () => {
  if (ADMIN_URL) await admin(`drop database if exists ${NAME} with (force)`);
});

describe.skipIf(!ADMIN_URL)("migrations started together", () => {
  test("four servers migrate one new database: each file applied once, nobody fails", async () => {
    await admin(`drop database if exists ${NAME} with (force)`);
    await admin(`create database ${NAME}`);
    const url = new URL(ADMIN_URL!);
    url.pathname = `/${NAME}`;
    // A pool of one connection (DATABASE_POOL_SIZE=1): the lock's connection runs the scripts too.
    const servers = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ databaseUrl: url.href, poolSize: 1 })));
    try {
      const applied = await Promise.all(servers.map((server) => migrate(server)));
      const names = listMigrations().map((migration) => migration.name);
      expect(applied.flat().sort()).toEqual(names);
      expect(applied.filter((list) => list.length > 0)).toHaveLength(1);
      const { rows } = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(
        servers[0].db,
      );
      expect(rows.map((row) => row.name)).toEqual(names);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  }, 60_000);
});
