/**
 * `npm run check:rollups [-- --rebuild COMPANY_ID]`: compares the bookings roll-up (booking_days, migration 021) with
 * the rows and prints each difference (docs/operations.md 'The bookings roll-up'); exit 1 when there is any. With
 * --rebuild it first writes that company's roll-up again from its rows. The database the configuration names, as
 * `npm run import:legacy` opens it: DATABASE_URL when set (servers may keep running), else PGlite under DATA_DIR
 * (refused while a server has it open).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  rebuildRollup,
  rollupDifferences,
  ROLLUP_FIGURES,
  type RollupDifference,
  type RollupFigures,
} from "../services/rollups.ts";

import { openDatabase } from "./connection.ts";
import { migrate } from "./migrate.ts";
import { loadToolConfig, OpsRefusal, parseToolArgs, refuseLiveEmbeddedDatabase, runTool } from "./ops-support.ts";

const USAGE = `Uso: npm run check:rollups [-- --rebuild ID_DA_EMPRESA]

Compara o resumo diário dos agendamentos (booking_days) com os agendamentos e lista cada diferença (saída 1 se houver).
--rebuild ID_DA_EMPRESA refaz o resumo dessa empresa a partir dos agendamentos e compara de novo.`;

/** At most this many lines of differences; the count is always printed whole. */
const SHOWN = 100;

const figures = (side: RollupFigures) => ROLLUP_FIGURES.map((name) => `${name} ${side[name]}`).join(", ");

/** One difference as an operator reads it: the key, then what the roll-up holds against what the rows say. */
export function describeDifference({ key, stored, expected }: RollupDifference): string {
  const where =
    `empresa ${key.companyId}, filial ${key.branchId}, dia ${key.dia}, colaborador ${key.userId}, ` +
    `ambiente ${key.environmentId}, agenda ${key.agendaId}`;
  if (!stored) return `${where}: falta no resumo (agendamentos: ${figures(expected!)})`;
  if (!expected) return `${where}: sobra no resumo, sem agendamento ativo (resumo: ${figures(stored)})`;
  const differing = ROLLUP_FIGURES.filter((name) => stored[name] !== expected[name]);
  return `${where}: ${differing.map((name) => `${name} ${stored[name]} no resumo, ${expected[name]} nos agendamentos`).join("; ")}`;
}

async function main(): Promise<number> {
  const { values } = parseToolArgs(USAGE, { rebuild: { type: "string" } });
  const rebuild = values.rebuild === undefined ? undefined : Number(values.rebuild);
  if (rebuild !== undefined && !(Number.isInteger(rebuild) && rebuild > 0))
    throw new OpsRefusal(`--rebuild espera o id (número) de uma empresa.\n${USAGE}`);
  const config = loadToolConfig();
  await refuseLiveEmbeddedDatabase(config, "npm run check:rollups");
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
  );
  try {
    await migrate(database);
    if (rebuild !== undefined) {
      const rows = await rebuildRollup(database.db, rebuild);
      console.log(`Resumo da empresa ${rebuild} refeito: ${rows} linha(s).`);
    }
    const differences = await rollupDifferences(database.db);
    if (!differences.length) {
      console.log("Nenhuma diferença.");
      return 0;
    }
    for (const difference of differences.slice(0, SHOWN)) console.log(describeDifference(difference));
    if (differences.length > SHOWN) console.log(`… e mais ${differences.length - SHOWN}.`);
    const companies = [...new Set(differences.map((difference) => difference.key.companyId))];
    console.log(
      `${differences.length} diferença(s), empresa(s) ${companies.join(", ")}. ` +
        `Para refazer: npm run check:rollups -- --rebuild ${companies[0]}`,
    );
    return 1;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runTool(main);
