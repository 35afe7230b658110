/**
 * `npm run import:legacy -- FILE.csv`: imports the old system's rows (docs/legacy-data.md) into the database the
 * configuration names, as `npm run seed` does (DATABASE_URL when set, else PGlite under DATA_DIR). The file is checked
 * whole first and written in one transaction: any bad row and nothing is written. Running it again writes nothing
 * twice (rows are keyed by the old row's ID per company).
 */
import { readFileSync, statSync } from "node:fs";

import { loadConfig } from "../config.ts";
import { LEGACY_MAX_BYTES, LEGACY_TEXTS } from "../domain/legacy.ts";
import { importLegacyFile, LegacyImportError } from "../services/legacy.ts";

import { openDatabase } from "./connection.ts";
import { migrate } from "./migrate.ts";
import { refuseLiveEmbeddedDatabase } from "./ops-support.ts";

const file = process.argv.slice(2).find((argument) => argument !== "--");
if (!file) {
  console.error("Uso: npm run import:legacy -- ARQUIVO.csv");
  process.exit(2);
}
let size: number;
try {
  size = statSync(file).size;
} catch (error) {
  console.error(`Não foi possível ler ${file}: ${(error as Error).message}`);
  process.exit(2);
}
if (size > LEGACY_MAX_BYTES) {
  console.error(LEGACY_TEXTS.tooLarge);
  process.exit(1);
}

const config = loadConfig();
await refuseLiveEmbeddedDatabase(config, "npm run import:legacy").catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const database = await openDatabase(
  config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
);
let failed = false;
try {
  await migrate(database);
  const began = performance.now();
  const cpu = process.cpuUsage();
  const result = await importLegacyFile(database.db, new Uint8Array(readFileSync(file)));
  const seconds = (performance.now() - began) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(
    `${result.rows} linha(s) no arquivo: ${result.inserted} nova(s), ${result.existing} já importada(s) antes, ` +
      `${result.observations} observação(ões) nova(s), em ${seconds.toFixed(1)} s ` +
      `(CPU ${((used.user + used.system) / 1e6).toFixed(1)} s).`,
  );
} catch (error) {
  if (!(error instanceof LegacyImportError)) throw error;
  console.error("Nada foi importado:");
  for (const message of error.errors) console.error(`  ${message}`);
  failed = true;
} finally {
  await database.close();
}
// Explicitly: PGlite's shutdown resets process.exitCode.
process.exit(failed ? 1 : 0);
