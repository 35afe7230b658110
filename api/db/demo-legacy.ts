/**
 * The demo's old-system rows (issue 24 part 4; docs/legacy-data.md 'Demo data'): a few hundred rows of the demo
 * company dated February to July 2022 (before the §9 cutoff), about one in eight with an observation, written as an
 * old-system CSV file and imported by the import service (api/services/legacy.ts), as `npm run import:legacy` would.
 * Deterministic: a seeded PRNG over the demo's rooms and collaborators in id order.
 */
import type { Kysely } from "kysely";

import { importLegacyFile, type LegacyImportResult } from "../services/legacy.ts";

import { DEMO_COMPANY } from "./demo-simulator.ts";
import type { DB } from "./schema.ts";

export const DEMO_LEGACY_ROWS = 360;
/** The first old row's ID: the old system's ids, far from anything the demo's own serials reach. */
const FIRST_ID = 900_001;

const NOTES = [
  "Sala trancada, sem acesso",
  "Faltou material de limpeza",
  "Piso molhado por vazamento, limpeza parcial",
  "Paciente em atendimento, voltar depois",
];

/** A small PRNG (mulberry32): the same rows on every machine. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (value: number) => String(value).padStart(2, "0");

/** One old row as the file holds it (the columns of LEGACY_COLUMNS this generator fills). */
export type LegacyCsvRow = {
  id: number;
  environmentId: number;
  userId: number;
  /** Local date and time in Fortaleza: 'dd/MM/yyyy HH:mm:ss'. */
  inicio: string;
  fim: string;
  procedimento: string;
  horaIni: string;
  horaFim: string;
  observacao: string;
};

const CSV_HEADER = [
  "ID",
  "AMBIENTE_ID",
  "userId",
  "INICIO",
  "FIM",
  "PROCEDIMENTO_NOME",
  "HORA_INICIAL_PRINCIPAL_AMBIENTE",
  "HORA_FINAL_PRINCIPAL_AMBIENTE",
  "observacao",
];

/** Rows as an old-system CSV file (';' as pt-BR Excel saves it; names are left blank: the import reads today's). */
export function legacyCsv(rows: readonly LegacyCsvRow[], delimiter = ";"): string {
  const quote = (value: string) =>
    value.includes(delimiter) || value.includes('"') ? `"${value.replaceAll('"', '""')}"` : value;
  const lines = [CSV_HEADER.join(delimiter)];
  for (const row of rows) {
    lines.push(
      [
        row.id,
        row.environmentId,
        row.userId,
        row.inicio,
        row.fim,
        row.procedimento,
        row.horaIni,
        row.horaFim,
        row.observacao,
      ]
        .map((value) => quote(String(value)))
        .join(delimiter),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * `count` old rows over the given rooms (each with its branch's collaborators and its procedures), one every few
 * hours from 1 February 2022, never past 31 July 2022.
 */
export function legacyDemoRows(
  rooms: readonly { id: number; users: readonly number[]; procedures: readonly string[] }[],
  count: number,
  firstId = FIRST_ID,
  seed = 2022,
): LegacyCsvRow[] {
  const random = prng(seed);
  const usable = rooms.filter((room) => room.users.length && room.procedures.length);
  if (!usable.length) return [];
  const rows: LegacyCsvRow[] = [];
  const start = Date.UTC(2022, 1, 1);
  const span = Date.UTC(2022, 6, 31) - start; // days 1 Feb .. 30 Jul
  for (let index = 0; index < count; index++) {
    const room = usable[Math.floor(random() * usable.length)];
    const day = new Date(start + Math.floor((index / count) * (span / 86_400_000)) * 86_400_000);
    const hour = 6 + Math.floor(random() * 12);
    const minute = Math.floor(random() * 4) * 15;
    const length = 10 + Math.floor(random() * 30);
    const date = `${pad(day.getUTCDate())}/${pad(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`;
    const endMinutes = hour * 60 + minute + length;
    rows.push({
      id: firstId + index,
      environmentId: room.id,
      userId: room.users[Math.floor(random() * room.users.length)],
      inicio: `${date} ${pad(hour)}:${pad(minute)}:00`,
      fim: `${date} ${pad(Math.floor(endMinutes / 60))}:${pad(endMinutes % 60)}:00`,
      procedimento: room.procedures[Math.floor(random() * room.procedures.length)],
      horaIni: `${pad(hour)}:00`,
      horaFim: `${pad(hour + 1)}:00`,
      observacao: random() < 0.125 ? NOTES[Math.floor(random() * NOTES.length)] : "",
    });
  }
  return rows;
}

/** The demo company's rooms with their branch's field staff and their procedures' names, in id order. */
export async function demoLegacyRooms(db: Kysely<DB>, companyName = DEMO_COMPANY) {
  const company = await db
    .selectFrom("companies")
    .select("id")
    .where("nome", "=", companyName)
    .executeTakeFirstOrThrow();
  const environments = await db
    .selectFrom("environments")
    .select(["id", "branch_id"])
    .where("company_id", "=", company.id)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
  const staff = await db
    .selectFrom("users")
    .select(["id", "branch_id"])
    .where("company_id", "=", company.id)
    .where("role_id", "=", 5)
    .orderBy("id")
    .execute();
  const procedures = await db
    .selectFrom("environment_procedures as ep")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .innerJoin("environments as e", "e.id", "ep.environment_id")
    .select(["ep.environment_id", "p.name"])
    .where("e.company_id", "=", company.id)
    .orderBy("ep.environment_id")
    .orderBy("p.id")
    .execute();
  return environments.map((environment) => ({
    id: environment.id,
    users: staff.filter((user) => user.branch_id === environment.branch_id).map((user) => user.id),
    procedures: procedures.filter((row) => row.environment_id === environment.id).map((row) => row.name),
  }));
}

/** Seeds the demo's old rows through the import service (nothing twice: a second run imports no row). */
export async function seedLegacyDemo(db: Kysely<DB>): Promise<LegacyImportResult> {
  const rows = legacyDemoRows(await demoLegacyRooms(db), DEMO_LEGACY_ROWS);
  return importLegacyFile(db, new TextEncoder().encode(legacyCsv(rows)));
}
