import { addDays, differenceInCalendarDays } from "date-fns";

import { MAX_BOOKING_ROWS } from "./limits.ts";
import { dayOf, isoDay, minutesOf, parseBusinessDate, type DateRange } from "./schedule-expansion.ts";

/**
 * The history reports' rules (spec 001 §4 'Collaborator history day status', 'Environment report statuses', §5
 * 'Reports', §9 times; issue 23; docs/reports.md): pure and browser-safe, so the report services apply them to one
 * page of rows and the tests check them case by case.
 *
 * One rule decides a group of tasks, whatever the report: a collaborator's day (every task of the day's slots) and an
 * environment's slot (the tasks of one scheduled slot) are both groups. A task is one procedure of the room in one
 * scheduled slot: 'Completo' when an execution of that procedure was recorded in that slot, else 'Não Realizado'.
 */

export const REPORT_TEXTS = {
  // §5 'Reports': the toast's title and text
  invalidTitle: "Filtro inválido",
  invalidPeriod: "Intervalo de datas inválidos, favor verificar",
  // §8: a report's load failure
  loadFailed: "Erro ao carregar dados, por favor atualize a página",
  // §2.9
  collaboratorsTitle: "Colaboradores",
  collaboratorsTooltip: "Histórico das atividades de cada colaborador no período escolhido.",
  collaboratorsEmpty: "Nenhum colaborador tem agendamentos no período.",
  legacyTooltip: "Marque apenas para obter dados da versão anterior do sistema, registrados antes de agosto de 2022.",
  collaboratorDetailsTitle: "Detalhes do Colaborador",
  collaboratorHistoryEmpty: "Dados não encontrados para o colaborador atual",
  dayDetailTitle: "Detalhes do Histórico",
  revisionsEmpty: "Histórico de revisões vazio",
  // §2.10
  environmentsTitle: "Ambientes",
  environmentsTooltip: "Visão detalhada do histórico das atividades realizadas pelos ASGs, filtrada por ambiente.",
  environmentsEmpty: "Não existe um histórico de ambientes para o intervalo de datas atual",
  environmentHistoryTitle: "Histórico do Ambiente",
  // §9
  pdfTitle: "Relatório de Agendamentos",
  // ours: a period longer than a year is cut (the page says so); the API refuses it
  periodCut: (to: string) => `O período foi limitado a um ano, até ${to.split("-").reverse().join("/")}.`,
  periodTooLong: "O período de um relatório pode ter no máximo um ano.",
  searchFieldsInvalid: "Campos de busca inválidos",
  chunkSizeInvalid: `Tamanho de bloco inválido: de 1 a ${MAX_BOOKING_ROWS} horários`,
} as const;

export type TaskStatus = "Completo" | "Não Realizado";
export type GroupStatus = "Completo" | "Não Realizado" | "Incompleto" | "A iniciar" | "Cancelado";

/**
 * The status of a group of tasks (§4):
 * - some task not done and some done: 'Incompleto';
 * - no task done: 'A iniciar' when the group's day is today, else 'Não Realizado';
 * - every task done: 'Completo', or 'Cancelado' when an execution of the group carries an observation (the original
 *   used the observation to say why a cleaning was called off).
 * A group without tasks (a room with no procedures) counts as done.
 */
export function groupStatus(
  tasks: readonly TaskStatus[],
  context: { observation: boolean; today: boolean },
): GroupStatus {
  const done = tasks.filter((status) => status === "Completo").length;
  if (done < tasks.length) return done > 0 ? "Incompleto" : context.today ? "A iniciar" : "Não Realizado";
  return context.observation ? "Cancelado" : "Completo";
}

/** One execution (history row) as the matching needs it. */
export type Execution = { id: number; procedureId: number; observacao: string | null };

/** A procedure of the room in one scheduled slot, and the execution that did it, if any. */
export type SlotTask<E extends Execution> = { procedureId: number; status: TaskStatus; execution: E | null };

/**
 * The tasks of one scheduled slot: each of the room's procedures, matched with the slot's first execution of that
 * procedure ('Completo') or none ('Não Realizado'). Executions left over (a procedure the room no longer has, a
 * second execution of the same procedure) are 'Extra' (§4 'Leftover entries are typed Extra and Completo'; the
 * collaborator report's 'unmatched entries are revisions Completo' is the same rows).
 */
export function slotTasks<E extends Execution>(
  procedureIds: readonly number[],
  executions: readonly E[],
): { tasks: SlotTask<E>[]; extras: E[] } {
  const unmatched = [...executions];
  const tasks = procedureIds.map((procedureId): SlotTask<E> => {
    const at = unmatched.findIndex((execution) => execution.procedureId === procedureId);
    if (at === -1) return { procedureId, status: "Não Realizado", execution: null };
    const [execution] = unmatched.splice(at, 1);
    return { procedureId, status: "Completo", execution };
  });
  return { tasks, extras: unmatched };
}

/** Whether a group's executions carry an observation (text other than blanks). */
export const hasObservation = (executions: readonly { observacao: string | null }[]) =>
  executions.some((execution) => (execution.observacao ?? "").trim() !== "");

/**
 * The type of a cleaning: the first slot of the day is 'Principal', the others 'Revisão'; leftovers 'Extra', and so is
 * a corrective cleaning made for an incident (its agenda's incident_id, issue 28).
 */
export type CleaningType = "Principal" | "Revisão" | "Extra";
export const cleaningType = (slot: number, incidentId: number | null = null): CleaningType =>
  incidentId !== null ? "Extra" : slot === 0 ? "Principal" : "Revisão";

// ---------------------------------------------------------------------------------------------------------------
// Times (§9)

/** Time per item is capped at 24 hours (§9: 86,400,000 ms). */
export const MAX_ITEM_MS = 86_400_000;

type Instant = Date | string | null | undefined;
const msOf = (value: Instant) => {
  if (value === null || value === undefined || value === "") return null;
  const ms = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isNaN(ms) ? null : ms;
};

/** The time between two instants, capped at 24 h; null when either is missing or the end is before the start. */
export function elapsedMs(start: Instant, end: Instant): number | null {
  const [from, to] = [msOf(start), msOf(end)];
  if (from === null || to === null || to < from) return null;
  return Math.min(to - from, MAX_ITEM_MS);
}

/** A slot's scheduled length from its 'HH:mm' times (the estimated time); a slot past midnight is not one of ours. */
export function scheduledMs(horaIni: string, horaFim: string): number | null {
  const minutes = minutesOf(horaFim) - minutesOf(horaIni);
  return Number.isFinite(minutes) && minutes >= 0 ? Math.min(minutes * 60_000, MAX_ITEM_MS) : null;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** 'hh:mm:ss' (hours past 24 are not possible: the cap); ' - ' when missing. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return " - ";
  const seconds = Math.floor(Math.min(Math.abs(ms), MAX_ITEM_MS) / 1000);
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/**
 * The optimised time (§9 'Difference shown as + hh:mm:ss or - hh:mm:ss (actual minus scheduled), and ' - ' when a
 * time is missing'): '+ 00:05:00' took five minutes longer than scheduled, '- 00:10:00' ten minutes less.
 */
export function formatDifference(actualMs: number | null, scheduled: number | null): string {
  if (actualMs === null || scheduled === null) return " - ";
  const difference = actualMs - scheduled;
  return `${difference < 0 ? "-" : "+"} ${formatDuration(difference)}`;
}

/** The three times of a slot (§2.10): execution (performed), estimated (scheduled) and optimised (their difference). */
export function slotTimes(slot: { horaIni: string; horaFim: string; start: Instant; end: Instant }) {
  const execution = elapsedMs(slot.start, slot.end);
  const estimated = scheduledMs(slot.horaIni, slot.horaFim);
  return {
    execution: formatDuration(execution),
    estimated: formatDuration(estimated),
    optimised: formatDifference(execution, estimated),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The period (§5 'Reports')

/** Days a report may cover (ours): one year, as the agendas' validity. */
export const MAX_REPORT_DAYS = 366;

export type ReportPeriod =
  { ok: true; period: DateRange; cut: boolean } | { ok: false; title: string; message: string };

/**
 * A report's period from its URL (`inicio`, `fim`): both absent is today (§9 'default period: today'); one alone is
 * that day; a malformed date, a date after today or an end before the start is refused with the §5 toast ('Filtro
 * inválido' / 'Intervalo de datas inválidos, favor verificar'), and the page keeps its last valid view; longer than a
 * year is cut to a year from the start, and the page says so.
 */
export function reportPeriod(query: { inicio?: string | null; fim?: string | null }, today: string): ReportPeriod {
  const refused = { ok: false as const, title: REPORT_TEXTS.invalidTitle, message: REPORT_TEXTS.invalidPeriod };
  const given = (value: string | null | undefined) => (value ?? "").trim();
  const [fromText, toText] = [given(query.inicio), given(query.fim)];
  const from = fromText ? parseBusinessDate(fromText) : null;
  const to = toText ? parseBusinessDate(toText) : null;
  if ((fromText && !from) || (toText && !to)) return refused;
  const start = from ?? to ?? today;
  const end = to ?? from ?? today;
  if (start > today || end > today || end < start) return refused;
  if (differenceInCalendarDays(dayOf(end), dayOf(start)) < MAX_REPORT_DAYS) {
    return { ok: true, period: { from: start, to: end }, cut: false };
  }
  return { ok: true, period: { from: start, to: isoDay(addDays(dayOf(start), MAX_REPORT_DAYS - 1)) }, cut: true };
}

// ---------------------------------------------------------------------------------------------------------------
// A booking as the reports read it: its slot, the room's procedures and the executions recorded in it

/** One execution with what the reports show of it. */
export type ReportExecution = Execution & {
  procedure: string;
  /** When it was done (the phone's instant for the field app's records). */
  createdAt: string;
  /** When the server received it (null before the field app); docs/field-app.md 'Proof flags'. */
  receivedAt?: string | null;
  image: string | null;
  ocorrencia: string | null;
};

/** What the field app recorded about how a slot was done (docs/field-app.md 'Proof flags'); absent or null before it. */
export type SlotProof = {
  /** Started with the room's current QR value; null: not started through the field app. */
  viaQr?: boolean | null;
  /** The longest wait of a late record of the slot on the phone, in seconds; null: none was late. */
  envioAtrasoS?: number | null;
  startReceivedAt?: string | null;
  finishReceivedAt?: string | null;
};

/** One booking (a day's slot) with the room's procedures and the slot's executions. */
export type ReportBooking = SlotProof & {
  id: number;
  dataAgend: string;
  slot: number;
  /** Set on a corrective cleaning (its agenda's incident): typed 'Extra'. */
  incidentId?: number | null;
  horaIni: string;
  horaFim: string;
  startDate: string | null;
  finishedAt: string | null;
  justificativa: string | null;
  procedures: { id: number; name: string }[];
  executions: ReportExecution[];
};

/** One line of a slot: a procedure of the room (done or not) or a leftover execution ('Extra'). */
export type ReportTask = {
  procedureId: number;
  procedure: string;
  type: CleaningType;
  /** The line's own status: 'Completo', else 'A iniciar' today and 'Não Realizado' before (§4's task rule). */
  status: GroupStatus;
  execution: ReportExecution | null;
};

/** A slot with its tasks, its group status (§4) and its three times (§2.10, §9). */
export type ReportSlot = SlotProof & {
  bookingId: number;
  type: CleaningType;
  horaIni: string;
  horaFim: string;
  startDate: string | null;
  finishedAt: string | null;
  justificativa: string | null;
  status: GroupStatus;
  times: ReturnType<typeof slotTimes>;
  tasks: ReportTask[];
};

/** A booking's slot as the reports show it: each procedure matched with its execution, leftovers as 'Extra'. */
export function reportSlot(booking: ReportBooking, today: string): ReportSlot {
  const { tasks, extras } = slotTasks(
    booking.procedures.map((procedure) => procedure.id),
    booking.executions,
  );
  const isToday = booking.dataAgend === today;
  const names = new Map(booking.procedures.map((procedure) => [procedure.id, procedure.name]));
  const type = cleaningType(booking.slot, booking.incidentId ?? null);
  // A line's own status: done, or not done ('A iniciar' while the day lasts); 'Cancelado' belongs to a group only.
  const notDone: GroupStatus = isToday ? "A iniciar" : "Não Realizado";
  const lines: ReportTask[] = [
    ...tasks.map((task) => ({
      procedureId: task.procedureId,
      procedure: names.get(task.procedureId) ?? "",
      type,
      status: task.status === "Completo" ? ("Completo" as const) : notDone,
      execution: task.execution,
    })),
    ...extras.map((execution) => ({
      procedureId: execution.procedureId,
      procedure: execution.procedure,
      type: "Extra" as const,
      status: "Completo" as const,
      execution,
    })),
  ];
  return {
    bookingId: booking.id,
    type,
    horaIni: booking.horaIni,
    horaFim: booking.horaFim,
    startDate: booking.startDate,
    finishedAt: booking.finishedAt,
    justificativa: booking.justificativa,
    viaQr: booking.viaQr ?? null,
    envioAtrasoS: booking.envioAtrasoS ?? null,
    startReceivedAt: booking.startReceivedAt ?? null,
    finishReceivedAt: booking.finishReceivedAt ?? null,
    status: groupStatus(
      tasks.map((task) => task.status),
      { observation: hasObservation(booking.executions), today: isToday },
    ),
    times: slotTimes({
      horaIni: booking.horaIni,
      horaFim: booking.horaFim,
      start: booking.startDate,
      end: booking.finishedAt,
    }),
    tasks: lines,
  };
}

/**
 * A collaborator's day in one room (§4 'Collaborator history day status'): the group rule over every task of the
 * day's slots; leftovers do not change it (they are done work beyond the asked).
 */
export function dayStatus(bookings: readonly ReportBooking[], today: string): GroupStatus {
  const tasks = bookings.flatMap(
    (booking) =>
      slotTasks(
        booking.procedures.map((procedure) => procedure.id),
        booking.executions,
      ).tasks,
  );
  return groupStatus(
    tasks.map((task) => task.status),
    {
      observation: bookings.some((booking) => hasObservation(booking.executions)),
      today: bookings.some((booking) => booking.dataAgend === today),
    },
  );
}
