import { addDays, differenceInCalendarDays, subMonths } from "date-fns";

import { dayOf, isoDay, minutesOf, type DateRange } from "./schedule-expansion.ts";

/**
 * The client report's formulas (/relatorio-cliente, issue 24 part 3; docs/decisions/006-client-report.md): pure and
 * browser-safe. The API counts the same outcomes in SQL (api/services/reports/client.ts); the tests hold both to
 * these rules on hand-made rows and on rows made through the execution API.
 *
 * A scheduled cleaning is one booking row (one day and one slot: the Principal or one Revisão), active, of an active
 * agenda not removed, in the report's branch, on a day of the period up to today. Each has exactly one outcome.
 */

/** The company's default tolerance before a started cleaning counts as late (minutes); the company may set 0..240. */
export const DEFAULT_LATE_TOLERANCE_MINUTES = 15;
export const MAX_LATE_TOLERANCE_MINUTES = 240;
/** The incidents the report lists (newest first); the rest are counted ('e mais N ocorrências'). */
export const CLIENT_REPORT_INCIDENTS = 30;
/** Evidence photos per room (the newest of the period). */
export const CLIENT_REPORT_PHOTOS_PER_ROOM = 2;
/** Photos the PDF embeds at most (the page and the Excel list every sampled one). */
export const CLIENT_REPORT_PDF_PHOTOS = 24;

/** The business time zone's offset: America/Fortaleza is UTC-3 all year (no daylight saving since 2000). */
const FORTALEZA_OFFSET = "-03:00";

export type SlotStatus = "Andamento" | "Completo" | "Incompleto" | null;

/** One scheduled cleaning as the formulas need it. */
export type ClientSlot = {
  /** yyyy-MM-dd, the scheduled day */
  dataAgend: string;
  /** HH:mm, the slot's scheduled start */
  horaIni: string;
  status: SlotStatus;
  /** The performed start (an instant, ISO), set when the collaborator started the slot */
  startDate: string | Date | null;
};

/**
 * - noPrazo: 'Completo', started no later than the scheduled start plus the tolerance (or with no start recorded);
 * - atrasadas: 'Completo', started later than that;
 * - naoIniciadas: never started, on a day before today;
 * - incompletas: reported 'Incompleto' (with a reason), whatever the day;
 * - naoConcluidas: started ('Andamento') on a day before today and never closed;
 * - pendentes: today's, not closed yet (not started, or in progress).
 */
export type SlotOutcome = "noPrazo" | "atrasadas" | "naoIniciadas" | "incompletas" | "naoConcluidas" | "pendentes";

/** The scheduled start of a slot as an instant: the day and time in America/Fortaleza. */
export function scheduledStart(dataAgend: string, horaIni: string): Date {
  return new Date(`${dataAgend}T${horaIni.slice(0, 5)}:00${FORTALEZA_OFFSET}`);
}

/** Whether a performed start is late: strictly after the scheduled start plus `toleranceMinutes`. */
export function isLate(slot: Pick<ClientSlot, "dataAgend" | "horaIni" | "startDate">, toleranceMinutes: number) {
  if (slot.startDate === null) return false;
  const started = new Date(slot.startDate).getTime();
  const limit = scheduledStart(slot.dataAgend, slot.horaIni).getTime() + toleranceMinutes * 60_000;
  return started > limit;
}

/** A scheduled cleaning's one outcome (see SlotOutcome). `today` is today in Fortaleza (yyyy-MM-dd). */
export function slotOutcome(slot: ClientSlot, context: { today: string; toleranceMinutes: number }): SlotOutcome {
  switch (slot.status) {
    case "Completo":
      return isLate(slot, context.toleranceMinutes) ? "atrasadas" : "noPrazo";
    case "Incompleto":
      return "incompletas";
    case "Andamento":
      return slot.dataAgend < context.today ? "naoConcluidas" : "pendentes";
    default:
      return slot.dataAgend < context.today ? "naoIniciadas" : "pendentes";
  }
}

/** The counts of a group (the whole report, a room, a week): one per outcome, and the scheduled total. */
export type OutcomeCounts = Record<SlotOutcome, number> & { agendadas: number };

export const emptyCounts = (): OutcomeCounts => ({
  agendadas: 0,
  noPrazo: 0,
  atrasadas: 0,
  naoIniciadas: 0,
  incompletas: 0,
  naoConcluidas: 0,
  pendentes: 0,
});

const OUTCOMES: readonly SlotOutcome[] = [
  "noPrazo",
  "atrasadas",
  "naoIniciadas",
  "incompletas",
  "naoConcluidas",
  "pendentes",
];

/** The counts of hand-made slots (what the SQL counts per room and week). */
export function countSlots(slots: readonly ClientSlot[], context: { today: string; toleranceMinutes: number }) {
  const counts = emptyCounts();
  for (const slot of slots) {
    counts[slotOutcome(slot, context)] += 1;
    counts.agendadas += 1;
  }
  return counts;
}

/** The sum of groups' counts (the summary is the sum of the rooms; the rooms the sum of their weeks). */
export function sumCounts(groups: readonly OutcomeCounts[]): OutcomeCounts {
  const total = emptyCounts();
  for (const group of groups) {
    total.agendadas += group.agendadas;
    for (const outcome of OUTCOMES) total[outcome] += group[outcome];
  }
  return total;
}

/**
 * A share in percent with one decimal, rounded half up on the exact fraction (integer arithmetic: 1 of 8 is 12.5,
 * 1 of 16 is 6.3, 2 of 3 is 66.7); null when nothing was scheduled. Each share is rounded on its own, so the four
 * parts of a group may add up to 99.9 or 100.1.
 */
export function percent(part: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.floor((part * 2000 + total) / (2 * total)) / 10;
}

/** The figures a report shows of a group: the derived totals and the shares, all of `agendadas`. */
export type GroupFigures = OutcomeCounts & {
  concluidas: number;
  naoRealizadas: number;
  percentuais: {
    concluidas: number | null;
    noPrazo: number | null;
    atrasadas: number | null;
    naoRealizadas: number | null;
    pendentes: number | null;
  };
};

/**
 * - concluídas = no prazo + atrasadas ('Completo');
 * - não realizadas = não iniciadas + incompletas + não concluídas;
 * - agendadas = concluídas + não realizadas + pendentes;
 * each share of agendadas.
 */
export function groupFigures(counts: OutcomeCounts): GroupFigures {
  const concluidas = counts.noPrazo + counts.atrasadas;
  const naoRealizadas = counts.naoIniciadas + counts.incompletas + counts.naoConcluidas;
  const of = (part: number) => percent(part, counts.agendadas);
  return {
    ...counts,
    concluidas,
    naoRealizadas,
    percentuais: {
      concluidas: of(concluidas),
      noPrazo: of(counts.noPrazo),
      atrasadas: of(counts.atrasadas),
      naoRealizadas: of(naoRealizadas),
      pendentes: of(counts.pendentes),
    },
  };
}

/** '12,5 %' (pt-BR), '-' when nothing was scheduled. */
export function formatPercent(value: number | null) {
  return value === null
    ? "-"
    : `${value.toLocaleString("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;
}

// ---------------------------------------------------------------------------------------------------------------
// Weeks and the period

/** The Monday of a day's week (weeks run Monday to Sunday, ISO 8601). */
export function weekStart(day: string): string {
  const date = dayOf(day);
  const fromMonday = (date.getDay() + 6) % 7;
  return isoDay(addDays(date, -fromMonday));
}

/** The weeks a period touches, each clipped to the period: { inicio (the week's Monday or the period's start), fim }. */
export function periodWeeks(period: DateRange): { semana: string; inicio: string; fim: string }[] {
  const weeks: { semana: string; inicio: string; fim: string }[] = [];
  for (let monday = weekStart(period.from); monday <= period.to; monday = isoDay(addDays(dayOf(monday), 7))) {
    const sunday = isoDay(addDays(dayOf(monday), 6));
    weeks.push({
      semana: monday,
      inicio: monday < period.from ? period.from : monday,
      fim: sunday > period.to ? period.to : sunday,
    });
  }
  return weeks;
}

/** The last day the report counts: the period's end, or today when the period reaches it. */
export const countedUntil = (period: DateRange, today: string) => (period.to < today ? period.to : today);

/** The presets of the page: 'Semana passada' (Monday to Sunday before this week), 'Mês passado' (the last full month). */
export const CLIENT_PERIOD_PRESETS = {
  "semana-passada": "Semana passada",
  "mes-passado": "Mês passado",
} as const;
export type ClientPeriodPreset = keyof typeof CLIENT_PERIOD_PRESETS;

export function presetPeriod(preset: ClientPeriodPreset, today: string): DateRange {
  if (preset === "semana-passada") {
    const monday = isoDay(addDays(dayOf(weekStart(today)), -7));
    return { from: monday, to: isoDay(addDays(dayOf(monday), 6)) };
  }
  const lastMonth = subMonths(dayOf(today), 1);
  const first = new Date(lastMonth.getFullYear(), lastMonth.getMonth(), 1);
  const last = new Date(lastMonth.getFullYear(), lastMonth.getMonth() + 1, 0);
  return { from: isoDay(first), to: isoDay(last) };
}

/** The page's default period: the last complete month. */
export const defaultClientPeriod = (today: string) => presetPeriod("mes-passado", today);

/** Days in a period (both ends counted). */
export const periodDays = (period: DateRange) => differenceInCalendarDays(dayOf(period.to), dayOf(period.from)) + 1;

/** The slot's scheduled start in minutes of the day (the tables' sort). */
export const slotMinutes = (horaIni: string) => minutesOf(horaIni);

// ---------------------------------------------------------------------------------------------------------------
// Texts

export const CLIENT_REPORT_TEXTS = {
  title: "Relatório do cliente",
  tooltip:
    "Resumo das limpezas agendadas de uma filial no período: quantas foram concluídas no prazo, com atraso ou não " +
    "realizadas, por ambiente e por semana, as ocorrências com o motivo e fotos de evidência.",
  branchRequired: "Escolha uma filial.",
  chooseBranch: "Escolha a filial e o período do relatório.",
  empty: "Nenhuma limpeza agendada nesta filial no período.",
  incidentsEmpty: "Nenhuma ocorrência no período.",
  photosEmpty: "Nenhuma foto de evidência no período.",
  moreIncidents: (count: number) =>
    count === 1 ? "e mais 1 ocorrência no período." : `e mais ${count.toLocaleString("pt-BR")} ocorrências no período.`,
  toleranceLabel: "Tolerância de atraso (minutos)",
  toleranceHint:
    "Uma limpeza iniciada depois do horário agendado mais esta tolerância conta como 'com atraso' no Relatório do cliente.",
  toleranceInvalid: `Digite um número inteiro de 0 a ${MAX_LATE_TOLERANCE_MINUTES}`,
  pdfTitle: "Relatório do cliente",
} as const;

/** The outcome labels as the page, the PDF and the Excel file show them. */
export const OUTCOME_LABELS = {
  agendadas: "Agendadas",
  concluidas: "Concluídas",
  noPrazo: "No prazo",
  atrasadas: "Com atraso",
  naoRealizadas: "Não realizadas",
  naoIniciadas: "Não iniciadas",
  incompletas: "Incompletas",
  naoConcluidas: "Iniciadas e não concluídas",
  pendentes: "Pendentes (hoje)",
} as const;
