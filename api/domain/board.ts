import { format, getDate, getMonth, getYear } from "date-fns";
import { ptBR } from "date-fns/locale/pt-BR";

import { proofFlags } from "./field-proof.ts";
import {
  BUSINESS_TIME_ZONE,
  dayOf,
  minutesOf,
  parseBusinessDate,
  parseTime,
  type DateRange,
  type TimeSlot,
} from "./schedule-expansion.ts";

/**
 * The dashboard board (spec 001 §2.6, §2.7, §2.8, §4 'Schedule status on the board' and the detail's slot states, §8,
 * §9 card colours and 'Dashboard default period: today'; issue 13): which column a booking goes to, the schedule
 * detail's 'Horário' versus 'Realizado' rows, the period heading and the period the URL asks for. Pure and
 * browser-safe (date-fns with its pt-BR locale, @date-fns/tz; no I/O): the service feeds it rows, the pages draw
 * what it answers. Texts the spec does not give are marked 'ours' and listed in docs/scheduling.md.
 */

export const BOARD_TEXTS = {
  // §2.6 (the title's tooltip: the spec gives its meaning, the wording is ours)
  title: "Dashboard",
  titleTooltip:
    "Acompanhe aqui as métricas das atividades agendadas. Estes dados são integrados à apresentação de BI da empresa.",
  empty: "Não há registros",
  // §8: the toast's title and text ('Erro: Erro ao carregar dados, por favor atualize a página')
  loadFailedTitle: "Erro",
  loadFailed: "Erro ao carregar dados, por favor atualize a página",
  // ours: the two views, the date-interval inputs
  boardView: "Quadro",
  tableView: "Tabela",
  dataIni: "Data inicial",
  dataFim: "Data final",
  // §2.7
  environment: "Ambiente",
  sector: "Setor",
  category: "Categoria",
  weekdays: "Dias da semana",
  scheduled: "Horário",
  performed: "Realizado",
  notStarted: "A iniciar",
  inProgress: "Em andamento",
  extra: "Fez a mais",
  // ours: 'Realizado' when the records hold one end of the span or none (issue 27: never '--:-- - 09:14')
  startedAt: "Iniciado às",
  justifiedAt: "Justificado às",
  closedAt: "Encerrado às",
  noTimes: "Sem horário registrado",
  // ours: 'Mostrar mais' stops at a page of the API (500 cards)
  cardsCapped: "Cada coluna mostra no máximo 500 cartões: use a busca ou um período menor para ver os demais.",
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Columns and the status mapping

/** A booking's status as stored (bookings.status) and sent (Agendamento.status); null (or absent) is 'A fazer'. */
export const BOOKING_STATUSES = ["Andamento", "Completo", "Incompleto"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOARD_COLUMN_KEYS = ["toDo", "inProgress", "done", "incomplete"] as const;
export type BoardColumnKey = (typeof BOARD_COLUMN_KEYS)[number];

/** The bookings list's `status` filter (ours): one board column each, 'aFazer' being not started (status null). */
export const BOOKING_STATUS_FILTERS = ["aFazer", "Andamento", "Completo", "Incompleto"] as const;
export type BookingStatusFilter = (typeof BOOKING_STATUS_FILTERS)[number];
export const COLUMN_STATUS_FILTER: Record<BoardColumnKey, BookingStatusFilter> = {
  toDo: "aFazer",
  inProgress: "Andamento",
  done: "Completo",
  incomplete: "Incompleto",
};

export type BoardColumn = {
  key: BoardColumnKey;
  title: string;
  /** The card colour (spec 001 §9). */
  color: string;
  /** ours: the spec says each column has a tooltip, not what it says. */
  tooltip: string;
  /** The status that puts a booking here; null = no status. */
  status: BookingStatus | null;
};

/** The board's four columns in the order drawn (spec 001 §2.6, §9). */
export const BOARD_COLUMNS: readonly BoardColumn[] = [
  {
    key: "toDo",
    title: "A fazer",
    color: "#3399ff",
    tooltip: "Agendamentos do período que ainda não foram iniciados pelo colaborador.",
    status: null,
  },
  {
    key: "inProgress",
    title: "Fazendo",
    color: "#ffd700",
    tooltip: "Agendamentos iniciados pelo colaborador e ainda não finalizados.",
    status: "Andamento",
  },
  {
    key: "done",
    title: "Feito",
    color: "#00884A",
    tooltip: "Agendamentos finalizados com todas as tarefas realizadas.",
    status: "Completo",
  },
  {
    key: "incomplete",
    title: "Intercorrência",
    color: "#ffa500",
    tooltip: "Agendamentos finalizados com intercorrência: tarefas não realizadas, com a justificativa do colaborador.",
    status: "Incompleto",
  },
];

const COLUMN_BY_KEY = new Map(BOARD_COLUMNS.map((column) => [column.key, column]));

/** A column by its key. */
export function boardColumn(key: BoardColumnKey): BoardColumn {
  return COLUMN_BY_KEY.get(key)!;
}

const STATUS_BY_FOLDED = new Map<string, BookingStatus>(
  BOOKING_STATUSES.map((status) => [status.toLowerCase(), status]),
);

/**
 * A status as stored or sent: 'Andamento', 'Completo' or 'Incompleto' (any case, spaces around); null for anything
 * else, empty and absent included. The database accepts only the three (or null); an old row or another client
 * writing some other word is not a state the board knows, and shows as not started, as an empty one does.
 */
export function parseBookingStatus(value: unknown): BookingStatus | null {
  return typeof value === "string" ? (STATUS_BY_FOLDED.get(value.trim().toLowerCase()) ?? null) : null;
}

/**
 * The column a booking goes to (spec 001 §4): no status = 'A fazer', 'Andamento' = 'Fazendo', 'Completo' = 'Feito',
 * 'Incompleto' = 'Intercorrência'. The status alone decides: a booking row is one slot of one day, the execution
 * client writes its status as it starts and finishes it, and the board only shows (it never changes a status). Its
 * history supplies the times (`performedSpan`), not the column; a past booking never started stays 'A fazer'.
 */
export function boardColumnOf(status: string | null | undefined): BoardColumnKey {
  switch (parseBookingStatus(status)) {
    case "Andamento":
      return "inProgress";
    case "Completo":
      return "done";
    case "Incompleto":
      return "incomplete";
    case null:
      return "toDo";
  }
}

/**
 * A history entry of the schedule history modal is in progress when its booking's status is 'Andamento'
 * (spec 001 §2.8).
 */
export function isInProgress(status: string | null | undefined): boolean {
  return parseBookingStatus(status) === "Andamento";
}

// ---------------------------------------------------------------------------------------------------------------
// Performed times

/** An instant as the database or JSON gives it (timestamptz: a Date, or an ISO string with its offset). */
export type Instant = Date | string;

/** When a slot was done: its start and end instants, null when unknown (not started, not finished). */
export type PerformedSpan = { start: Instant | null; end: Instant | null };

/** Milliseconds of an instant, null when absent or not a date. */
export function instantMs(value: Instant | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const ms = value instanceof Date ? value.getTime() : new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

// One formatter, made once: a TZDate asks Intl for the offset on every operation (~40 µs a time of day against ~3 µs
// here), and the board formats two times per booking over thousands of them.
let timeFormat: Intl.DateTimeFormat | undefined;

/** An instant as the time of day in America/Fortaleza, 'HH:mm'; null when absent or not a date. */
export function businessTime(value: Instant | null | undefined): string | null {
  const ms = instantMs(value);
  if (ms === null) return null;
  timeFormat ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: BUSINESS_TIME_ZONE,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return timeFormat.format(ms);
}

/**
 * When a booking (one slot) was done, from what the database holds: the start is its start_date (the execution
 * client's 'start'), else its first history entry; the end, once the status says it finished ('Completo' or
 * 'Incompleto'), is its finished_at (migration 008), else its last history entry (a row closed before that column
 * existed). Not started (no status): both null; 'Andamento': the start only.
 */
export function performedSpan(booking: {
  status: string | null | undefined;
  startDate: Instant | null | undefined;
  finishedAt?: Instant | null | undefined;
  history: readonly { createdAt: Instant }[];
}): PerformedSpan {
  const status = parseBookingStatus(booking.status);
  if (status === null) return { start: null, end: null };
  let first: Instant | null = null;
  let last: Instant | null = null;
  for (const entry of booking.history) {
    const ms = instantMs(entry.createdAt);
    if (ms === null) continue;
    if (first === null || ms < instantMs(first)!) first = entry.createdAt;
    if (last === null || ms >= instantMs(last)!) last = entry.createdAt;
  }
  const start = instantMs(booking.startDate) !== null ? booking.startDate! : first;
  if (status === "Andamento") return { start, end: null };
  return { start, end: instantMs(booking.finishedAt) !== null ? booking.finishedAt! : last };
}

// ---------------------------------------------------------------------------------------------------------------
// The schedule detail's slots (§2.7)

/** What a planned slot shows in 'Realizado' (spec 001 §2.7, §4); 'Fez a mais' is a row without a planned slot. */
export type SlotState = "A iniciar" | "Em andamento" | "Completo" | "Incompleto" | "Fez a mais";

/** One planned slot of the agenda's day: its times ('HH:mm' or 'HH:mm:ss'), its status and when it was done. */
export type DetailSlot = TimeSlot & {
  status: string | null | undefined;
  performed: PerformedSpan;
  /** The field app's proof of the slot (docs/field-app.md 'Proof flags'); absent before it. */
  proof?: { viaQr: boolean | null; envioAtrasoS: number | null };
};

/** One line of the 'Horário' versus 'Realizado' table. */
export type DetailRow = {
  state: SlotState;
  /** The card colour of the state (an execution without a planned slot is done: 'Feito'). */
  column: BoardColumnKey;
  /** '08:00 - 09:00', or 'Fez a mais' when there is no planned slot. */
  scheduled: string;
  /** 'A iniciar', 'Em andamento' or the performed '08:05 - 08:52' (Fortaleza time). */
  performed: string;
  /** 'Sem leitura do QR', 'Enviado com atraso (…)': the slot's proof flags, none for most. */
  flags: string[];
};

/** A planned slot's state (spec 001 §4): not started 'A iniciar', 'Andamento' 'Em andamento', else its outcome. */
export function slotState(status: string | null | undefined): Exclude<SlotState, "Fez a mais"> {
  const parsed = parseBookingStatus(status);
  return parsed === null ? "A iniciar" : parsed === "Andamento" ? "Em andamento" : parsed;
}

const clock = (time: string) => parseTime(time) ?? time;

/** 'HH:mm - HH:mm', the way every time range is written here. */
export function timeRange(slot: TimeSlot): string {
  return `${clock(slot.horaIni)} - ${clock(slot.horaFim)}`;
}

/** '08:05 - 08:52'; with one end only, what it was ('Justificado às 09:14' for a slot closed with a reason). */
function performedRange(span: PerformedSpan, state?: SlotState): string {
  const start = businessTime(span.start);
  const end = businessTime(span.end);
  if (start && end) return `${start} - ${end}`;
  if (start) return `${BOARD_TEXTS.startedAt} ${start}`;
  if (end) return `${state === "Incompleto" ? BOARD_TEXTS.justifiedAt : BOARD_TEXTS.closedAt} ${end}`;
  return BOARD_TEXTS.noTimes;
}

const slotOrder = (a: TimeSlot, b: TimeSlot) =>
  minutesOf(clock(a.horaIni)) - minutesOf(clock(b.horaIni)) ||
  minutesOf(clock(a.horaFim)) - minutesOf(clock(b.horaFim));

/**
 * The schedule detail's table (spec 001 §2.7): the planned slots in the day's order, each against what was done
 * ('A iniciar', 'Em andamento', or the performed start and end), then the executions that had no planned slot
 * ('Fez a mais' in the 'Horário' column) in the order they started.
 */
export function scheduleDetailRows(slots: readonly DetailSlot[], extras: readonly PerformedSpan[] = []): DetailRow[] {
  const planned = [...slots].sort(slotOrder).map((slot): DetailRow => {
    const state = slotState(slot.status);
    return {
      state,
      column: boardColumnOf(slot.status),
      scheduled: timeRange(slot),
      performed:
        state === "A iniciar"
          ? BOARD_TEXTS.notStarted
          : state === "Em andamento"
            ? BOARD_TEXTS.inProgress
            : performedRange(slot.performed, state),
      flags: slot.proof ? proofFlags(slot.proof) : [],
    };
  });
  const unplanned = [...extras]
    .sort((a, b) => (instantMs(a.start) ?? Infinity) - (instantMs(b.start) ?? Infinity))
    .map((span): DetailRow => ({
      state: "Fez a mais",
      column: "done",
      scheduled: BOARD_TEXTS.extra,
      performed: performedRange(span),
      flags: [],
    }));
  return [...planned, ...unplanned];
}

// ---------------------------------------------------------------------------------------------------------------
// The period: what the URL asks for, and its heading

/**
 * The board's period from the URL's `dataIni` / `dataFim` ('yyyy-MM-dd', or 'dd/MM/yyyy' as a form may send them):
 * both absent or unreadable = today in Fortaleza (spec 001 §9 'Dashboard default period: today'; the caller passes
 * `businessToday()`); one of them = that day alone; a start after the end is read the other way round, so a link
 * never fails. The API refuses ranges longer than it answers without paging.
 */
export function boardPeriod(
  query: { dataIni?: string | null | undefined; dataFim?: string | null | undefined },
  today: string,
): DateRange {
  const from = query.dataIni ? parseBusinessDate(query.dataIni) : null;
  const to = query.dataFim ? parseBusinessDate(query.dataFim) : null;
  const start = from ?? to ?? today;
  const end = to ?? from ?? today;
  return start <= end ? { from: start, to: end } : { from: end, to: start };
}

/** The day of the month as written in a date: '1º' for the first (the Brazilian usage), else the number. */
const dayText = (date: Date) => (getDate(date) === 1 ? "1º" : String(getDate(date)));
const monthName = (date: Date) => format(date, "MMMM", { locale: ptBR });

/** A date in words: '15 de março de 2026', '1º de maio de 2026'. */
export function longDate(date: string): string {
  const day = dayOf(date);
  return `${dayText(day)} de ${monthName(day)} de ${getYear(day)}`;
}

/**
 * The period heading in its four forms (spec 001 §2.6), month names from date-fns' pt-BR locale (in lower case, as
 * Portuguese writes them):
 * - one day: '15 de março de 2026';
 * - a range within one month: '10 a 15 de março de 2026';
 * - across months of one year: '28 de fevereiro a 3 de março de 2026';
 * - across years: '30 de dezembro de 2025 a 2 de janeiro de 2026'.
 * A range given the other way round is read in order.
 */
export function periodHeading(period: DateRange): string {
  const [from, to] = period.from <= period.to ? [period.from, period.to] : [period.to, period.from];
  if (from === to) return longDate(from);
  const [start, end] = [dayOf(from), dayOf(to)];
  if (getYear(start) !== getYear(end)) return `${longDate(from)} a ${longDate(to)}`;
  if (getMonth(start) !== getMonth(end)) return `${dayText(start)} de ${monthName(start)} a ${longDate(to)}`;
  return `${dayText(start)} a ${longDate(to)}`;
}
