/**
 * `npm run db:types`: writes api/db/schema.ts (the Kysely row types) from the migrations.
 *
 * The migrations run on a throw-away in-memory PGlite (the same engine as the default server, no server needed)
 * and kysely-codegen's PostgreSQL introspector reads its catalogue. With DATABASE_URL set, a scratch database is
 * created on that server instead, migrated, read and dropped, to check the types against real PostgreSQL.
 *
 * Mapping choices, to fit what connection.ts returns: `date` stays 'YYYY-MM-DD' text (dateParser string),
 * timestamptz is a Date, snake_case names as in SQL (no camel-case plugin). Check constraints that are really
 * enumerations become unions through `overrides`. The output is formatted with the project's Prettier settings.
 * `npm run db:types -- --verify` only checks that schema.ts is up to date (exit code 1 when not).
 */
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { generate, PostgresDialect } from "kysely-codegen";
import pg from "pg";
import * as prettier from "prettier";

import { openDatabase, type Database } from "./connection.ts";
import { migrate } from "./migrate.ts";

const outFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "schema.ts");

/** Column types a check constraint narrows; kysely-codegen cannot read them from the catalogue. */
const overrides = {
  columns: {
    "bookings.status": `"Andamento" | "Completo" | "Incompleto" | null`,
    "sessions.kind": `"painel" | "campo"`,
    "periodicities.type": `"sem" | "12X"`,
    "incidents.status": `"aberta" | "em_atendimento" | "resolvida" | "descartada"`,
    "incident_kinds.prova": `"foto" | "nota" | "ambos"`,
    "incident_alerts.tipo": `"aberta" | "atrasada"`,
    "incident_events.tipo": `"aberta" | "relato_repetido" | "atribuida" | "prazo_alterado" | "corretiva" | "em_atendimento" | "resolvida" | "descartada" | "alerta_enviado"`,
    "inspection_answers.resposta": `"conforme" | "nao_conforme" | "nao_se_aplica"`,
  },
};

async function withScratchDatabase(work: (database: Database) => Promise<void>) {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({ memory: true });
    try {
      await work(database);
    } finally {
      await database.close();
    }
    return;
  }
  const name = `db_types_${process.pid}_${randomBytes(3).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    try {
      await work(database);
    } finally {
      await database.close();
    }
  } finally {
    await admin(`drop database if exists "${name}" with (force)`);
  }
}

const verify = process.argv.includes("--verify");
await withScratchDatabase(async (database) => {
  await migrate(database);
  const generated = await generate({
    db: database.db,
    dialect: new PostgresDialect({ dateParser: "string" }),
    excludePattern: "schema_migrations",
    overrides,
    outFile: null,
  });
  const output = await prettier.format(generated, {
    ...(await prettier.resolveConfig(outFile)),
    filepath: outFile,
  });
  const relative = path.relative(process.cwd(), outFile);
  if (!verify) {
    writeFileSync(outFile, output);
    console.log(`${relative} written`);
  } else if (readFileSync(outFile, "utf8") !== output) {
    console.error(`${relative} is out of date: run npm run db:types`);
    process.exitCode = 1;
  } else {
    console.log(`${relative} is up to date`);
  }
});
