/**
 * The old system's data (spec 001 §3 'Old-system dashboard row', 'Old environment row', 'Observation (old system)';
 * §4 'Old-system rows'; §9 cutoff; issue 24 part 4; docs/legacy-data.md): the import file's shape, its row checks and
 * the old-system status rule. Pure and browser-safe; reading the bytes is api/lib/csv.ts, writing is
 * api/services/legacy.ts.
 */
import { isBlankRow, normaliseHeaderCell, type CsvTable } from "./csv-import.ts";
import { slotTimes } from "./reports.ts";
import { businessToday } from "./schedule-expansion.ts";

/**
 * Bounds of one import file (the CLI reads it whole: bytes, the decoded text and the parsed cells are in memory at
 * once, ~10 times the file's size at the peak; 100,000 rows ≈ 30 MB of CSV, docs/performance.md 'Legacy import').
 * - LEGACY_MAX_BYTES: the file's size, checked before it is read.
 * - LEGACY_MAX_ROWS: data rows of one file; split larger exports (each part is all-or-nothing, re-runs are safe).
 */
export const LEGACY_MAX_BYTES = 128 * 1024 * 1024;
export const LEGACY_MAX_ROWS = 250_000;

/** The first day of the new system (§9 'Old-system data cutoff: August 2022'): old rows start before it. */
export const LEGACY_CUTOFF_DAY = "2022-08-01";

/** The old rows' local times (no offset written) are America/Fortaleza's: UTC-3, no DST since 2000. */
const FORTALEZA_OFFSET = "-03:00";

/** The instant the new system starts: old rows must start before it. */
export const LEGACY_CUTOFF = new Date(`${LEGACY_CUTOFF_DAY}T00:00:00${FORTALEZA_OFFSET}`);

/** The import file's columns, as §3 spells the old-system dashboard row. */
export const LEGACY_COLUMNS = [
  "ID",
  "AMBIENTE_ID",
  "AMBIENTE_NOME",
  "INICIO",
  "FIM",
  "IMAGEM",
  "PROCEDIMENTO_NOME",
  "HORA_INICIAL_PRINCIPAL_AMBIENTE",
  "HORA_FINAL_PRINCIPAL_AMBIENTE",
  "DATA_CRIACAO",
  "REVISAO_ID",
  "EMPRESA",
  "CATEGORIA",
  "SETOR",
  "ANDAR",
  "PROCEDIMENTOS",
  "REVISAO_INICIAL",
  "REVISAO_FINAL",
  "DATA_CRIACAO_HISTORICO",
  "DATA_FINALIZACAO_HISTORICO",
  "nome_users",
  "userId",
  "observacao",
] as const;
export type LegacyColumn = (typeof LEGACY_COLUMNS)[number];

/** Columns a row cannot do without. */
export const LEGACY_REQUIRED: readonly LegacyColumn[] = ["ID", "AMBIENTE_ID", "userId", "INICIO"];

/** The old environment row's names (§3) for the same fields, accepted in a header too. */
const ALIASES: Record<string, LegacyColumn> = {
  id_usuario: "userId",
  data_inicio: "INICIO",
  data_fim: "FIM",
  categoria_nome: "CATEGORIA",
  setor_nome: "SETOR",
  procedimento: "PROCEDIMENTO_NOME",
  nome_usuario: "nome_users",
};

/** The old environment row's personal columns: today's user row answers them, so a file's copy is ignored. */
const IGNORED = new Set(["cpf", "email_usuario", "telefone"]);

export const LEGACY_TEXTS = {
  empty: "O arquivo não tem nenhuma linha além do cabeçalho.",
  tooManyRows: (rows: number) => `O arquivo tem ${rows} linhas; o limite é de ${LEGACY_MAX_ROWS} por importação.`,
  tooLarge: `O arquivo é grande demais: o limite é de ${LEGACY_MAX_BYTES / 1024 / 1024} MB por importação.`,
  unknownColumn: (name: string) => `Cabeçalho: coluna desconhecida '${name}'.`,
  repeatedColumn: (name: string) => `Cabeçalho: a coluna '${name}' aparece mais de uma vez.`,
  missingColumns: (names: string[]) => `Cabeçalho: faltam as colunas ${names.map((name) => `'${name}'`).join(", ")}.`,
  required: (column: string) => `${column} é obrigatório`,
  notId: (column: string) => `${column} deve ser um número inteiro positivo`,
  notInstant: (column: string) => `${column} não é uma data válida (use dd/mm/aaaa hh:mm:ss ou aaaa-mm-dd hh:mm:ss)`,
  notTime: (column: string) => `${column} não é um horário válido (hh:mm ou hh:mm:ss)`,
  afterCutoff: "INICIO deve ser anterior a 01/08/2022 (dados do sistema anterior)",
  endBeforeStart: "FIM é anterior a INICIO",
  repeatedId: (id: number, line: number) => `ID ${id} repetido (já na linha ${line})`,
  environmentMissing: (id: number) => `ambiente ${id} não existe`,
  userMissing: (id: number) => `colaborador ${id} não existe`,
  userOtherCompany: (user: number, environment: number) =>
    `colaborador ${user} não é da empresa do ambiente ${environment}`,
  tooLong: (column: string) => `${column} tem mais de 2000 caracteres`,
  line: (line: number, messages: string[]) => `Linha ${line}: ${messages.join("; ")}.`,
} as const;

/** One checked row of the file, with its spreadsheet line (the header is line 1). */
export type LegacyRow = {
  line: number;
  legacyId: number;
  environmentId: number;
  userId: number;
  revisaoId: number | null;
  empresa: string | null;
  ambienteNome: string | null;
  categoria: string | null;
  setor: string | null;
  andar: string | null;
  procedimentoNome: string | null;
  procedimentos: string | null;
  nomeUsuario: string | null;
  inicio: Date;
  fim: Date | null;
  imagem: string | null;
  horaInicialPrincipal: string | null;
  horaFinalPrincipal: string | null;
  revisaoInicial: string | null;
  revisaoFinal: string | null;
  dataCriacao: Date | null;
  dataCriacaoHistorico: Date | null;
  dataFinalizacaoHistorico: Date | null;
  observacao: string | null;
};

const INT32_MAX = 2_147_483_647;
const MAX_TEXT = 2000;

const LOCAL =
  /^(?:(\d{4})-(\d{2})-(\d{2})|(\d{2})\/(\d{2})\/(\d{4}))(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An instant of the old files: ISO 8601 with an offset or Z (as the old API wrote them), or a local date and time in
 * America/Fortaleza, 'aaaa-mm-dd hh:mm[:ss]' or 'dd/mm/aaaa hh:mm[:ss]' (as Excel shows them); a date alone is its
 * midnight. Null when not a real instant.
 */
export function parseLegacyInstant(value: string): Date | null {
  const text = value.trim();
  if (WITH_OFFSET.test(text)) {
    const instant = new Date(text);
    return Number.isNaN(instant.getTime()) ? null : instant;
  }
  const match = LOCAL.exec(text);
  if (!match) return null;
  const [year, month, day] = match[1] ? [match[1], match[2], match[3]] : [match[6], match[5], match[4]];
  const [hour, minute, second] = [match[7] ?? "00", match[8] ?? "00", match[9] ?? "00"];
  const fraction = (match[10] ?? "0").padEnd(3, "0").slice(0, 3);
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (Number(year) < 1990) return null;
  // A real day: 31/02 would roll over into March. (Plain UTC arithmetic: an Intl formatter per cell costs more than
  // the rest of the row's checks, docs/performance.md 'Old-system import'.)
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCDate() !== Number(day) || calendar.getUTCMonth() !== Number(month) - 1) return null;
  const instant = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction}${FORTALEZA_OFFSET}`);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/** A time of day 'hh:mm' or 'hh:mm:ss' as 'hh:mm:ss'; null when not one. */
export function parseLegacyTime(value: string): string | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59 || Number(match[3] ?? 0) > 59) return null;
  return `${match[1].padStart(2, "0")}:${match[2]}:${match[3] ?? "00"}`;
}

/** Which column each header cell is (by §3's names, without case or accents, or the old environment row's names). */
function headerColumns(header: string[]): { columns: (LegacyColumn | null)[] } | { error: string } {
  const byName = new Map<string, LegacyColumn>(LEGACY_COLUMNS.map((column) => [normaliseHeaderCell(column), column]));
  for (const [alias, column] of Object.entries(ALIASES)) byName.set(alias, column);
  const columns: (LegacyColumn | null)[] = [];
  const seen = new Set<LegacyColumn>();
  for (const cell of header) {
    const name = normaliseHeaderCell(cell);
    if (name === "" || IGNORED.has(name)) {
      columns.push(null);
      continue;
    }
    const column = byName.get(name);
    if (!column) return { error: LEGACY_TEXTS.unknownColumn(cell.trim()) };
    if (seen.has(column)) return { error: LEGACY_TEXTS.repeatedColumn(column) };
    seen.add(column);
    columns.push(column);
  }
  const missing = LEGACY_REQUIRED.filter((column) => !seen.has(column));
  if (missing.length) return { error: LEGACY_TEXTS.missingColumns(missing) };
  return { columns };
}

/** One row's cells as a checked row, or its problems. */
function readRow(line: number, cells: Partial<Record<LegacyColumn, string>>): LegacyRow | string[] {
  const problems: string[] = [];
  const text = (column: LegacyColumn) => {
    const value = cells[column]?.trim() ?? "";
    if (value.length > MAX_TEXT) problems.push(LEGACY_TEXTS.tooLong(column));
    return value === "" ? null : value;
  };
  const id = (column: LegacyColumn, required: boolean) => {
    const value = text(column);
    if (value === null) {
      if (required) problems.push(LEGACY_TEXTS.required(column));
      return null;
    }
    const number = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!(number >= 1 && number <= INT32_MAX)) {
      problems.push(LEGACY_TEXTS.notId(column));
      return null;
    }
    return number;
  };
  const instant = (column: LegacyColumn, required = false) => {
    const value = text(column);
    if (value === null) {
      if (required) problems.push(LEGACY_TEXTS.required(column));
      return null;
    }
    const parsed = parseLegacyInstant(value);
    if (!parsed) problems.push(LEGACY_TEXTS.notInstant(column));
    return parsed;
  };
  const time = (column: LegacyColumn) => {
    const value = text(column);
    if (value === null) return null;
    const parsed = parseLegacyTime(value);
    if (!parsed) problems.push(LEGACY_TEXTS.notTime(column));
    return parsed;
  };

  const legacyId = id("ID", true);
  const environmentId = id("AMBIENTE_ID", true);
  const userId = id("userId", true);
  const inicio = instant("INICIO", true);
  const fim = instant("FIM");
  if (inicio && inicio >= LEGACY_CUTOFF) problems.push(LEGACY_TEXTS.afterCutoff);
  if (inicio && fim && fim < inicio) problems.push(LEGACY_TEXTS.endBeforeStart);
  const row = {
    line,
    revisaoId: id("REVISAO_ID", false),
    empresa: text("EMPRESA"),
    ambienteNome: text("AMBIENTE_NOME"),
    categoria: text("CATEGORIA"),
    setor: text("SETOR"),
    andar: text("ANDAR"),
    procedimentoNome: text("PROCEDIMENTO_NOME"),
    procedimentos: text("PROCEDIMENTOS"),
    nomeUsuario: text("nome_users"),
    fim,
    imagem: text("IMAGEM"),
    horaInicialPrincipal: time("HORA_INICIAL_PRINCIPAL_AMBIENTE"),
    horaFinalPrincipal: time("HORA_FINAL_PRINCIPAL_AMBIENTE"),
    revisaoInicial: time("REVISAO_INICIAL"),
    revisaoFinal: time("REVISAO_FINAL"),
    dataCriacao: instant("DATA_CRIACAO"),
    dataCriacaoHistorico: instant("DATA_CRIACAO_HISTORICO"),
    dataFinalizacaoHistorico: instant("DATA_FINALIZACAO_HISTORICO"),
    observacao: text("observacao"),
  };
  if (problems.length || legacyId === null || environmentId === null || userId === null || inicio === null) {
    return problems;
  }
  return { ...row, legacyId, environmentId, userId, inicio };
}

/**
 * The rows of an import file (parsed by api/lib/csv.ts): the header names the columns (any order; §3's names, case
 * and accents aside, or the old environment row's; cpf, email_usuario and telefone are ignored), every row is
 * checked on its own (ids, instants before the cutoff, times, FIM not before INICIO). Answers the rows, or every
 * problem, each naming its line ('Linha 7: ...'). An ID once per company is checked by the import (the company is the
 * room's).
 */
export function readLegacyTable(table: CsvTable): { rows: LegacyRow[] } | { errors: string[] } {
  const header = headerColumns(table.header);
  if ("error" in header) return { errors: [header.error] };
  const dataRows = table.rows.filter((cells) => !isBlankRow(cells)).length;
  if (dataRows === 0) return { errors: [LEGACY_TEXTS.empty] };
  if (dataRows > LEGACY_MAX_ROWS) return { errors: [LEGACY_TEXTS.tooManyRows(dataRows)] };
  const first = (table.headerLine ?? 1) + 1;
  const rows: LegacyRow[] = [];
  const errors: string[] = [];
  table.rows.forEach((cells, index) => {
    if (isBlankRow(cells)) return;
    const line = first + index;
    const named: Partial<Record<LegacyColumn, string>> = {};
    header.columns.forEach((column, position) => {
      if (column) named[column] = cells[position] ?? "";
    });
    const row = readRow(line, named);
    if (Array.isArray(row)) {
      errors.push(LEGACY_TEXTS.line(line, row));
      return;
    }
    rows.push(row);
  });
  return errors.length ? { errors } : { rows };
}

/** The old-system status of a row (§4 'Old-system rows'). */
export type LegacyStatus = "Completo" | "Incompleto";

export type LegacyStatusRow = {
  environmentId: number;
  userId: number;
  inicio: string | Date;
  observacao?: string | null;
};
export type LegacyObservationKey = {
  environmentId: number | null;
  userId: number | null;
  createdAt: string | Date;
  observacao?: string | null;
};

/**
 * §4: an old row is 'Incompleto' if an observation exists (matching it), else 'Completo'. An observation matches a row
 * when it is the row's own (its observacao is set) or was written for the same room by the same collaborator on the
 * same day (America/Fortaleza), as the old screens paired the `obs` list with the `data` list. An observation without
 * a room or a collaborator matches no row; a blank one is no observation.
 */
export function legacyStatus(row: LegacyStatusRow, observations: readonly LegacyObservationKey[]): LegacyStatus {
  if (row.observacao?.trim()) return "Incompleto";
  const day = businessToday(new Date(row.inicio));
  const matches = observations.some(
    (observation) =>
      observation.environmentId === row.environmentId &&
      observation.userId === row.userId &&
      (observation.observacao === undefined || Boolean(observation.observacao?.trim())) &&
      businessToday(new Date(observation.createdAt)) === day,
  );
  return matches ? "Incompleto" : "Completo";
}

/**
 * An old row shown as a report slot (the collaborator's 'Detalhes do Histórico' and the reports' files): a row with a
 * `REVISAO_ID` was a revision, its scheduled times the revision's, else the main cleaning's ('hh:mm', '-' when the old
 * system kept none); the three times of §2.10 from its `INICIO` and `FIM` as a new slot's.
 */
export function legacySlot(row: {
  revisaoId: number | null;
  horaInicialPrincipal: string | null;
  horaFinalPrincipal: string | null;
  revisaoInicial: string | null;
  revisaoFinal: string | null;
  inicio: Date;
  fim: Date | null;
}) {
  const revision = row.revisaoId !== null;
  const [ini, fim] = revision
    ? [row.revisaoInicial, row.revisaoFinal]
    : [row.horaInicialPrincipal, row.horaFinalPrincipal];
  const horaIni = ini?.slice(0, 5) ?? "-";
  const horaFim = fim?.slice(0, 5) ?? "-";
  return {
    tipo: revision ? ("Revisão" as const) : ("Principal" as const),
    data: businessToday(row.inicio),
    horaIni,
    horaFim,
    times: slotTimes({ horaIni, horaFim, start: row.inicio, end: row.fim }),
  };
}
