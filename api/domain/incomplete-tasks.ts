import { reportPeriod, type ReportPeriod } from "./reports.ts";

/**
 * The incomplete tasks report (spec 001 §2.11, §2.15, §5; issue 24 §1; docs/incomplete-tasks.md): pure and
 * browser-safe. An incomplete task is a procedure of the room that was not recorded in a slot the collaborator closed
 * as 'Incompleto' (the execution API's 'report incomplete', with its reason): the activities not done, with their
 * justification.
 */

export const INCOMPLETE_TEXTS = {
  title: "Tarefas Incompletas",
  tooltip:
    "Histórico das atividades não realizadas pelos ASGs: as tarefas incompletas e suas justificativas, filtradas por procedimento (tarefa).",
  empty: "Nenhuma tarefa incompleta no período.",
  procedureTitle: "Histórico do Procedimento",
  procedureEmpty: "Nenhuma tarefa incompleta deste procedimento no período.",
  roomTitle: (room: string) => `Tarefas Incompletas de ${room}`,
  roomEmpty: "Nenhuma tarefa incompleta neste ambiente no período.",
  /** The spec's spelling (§2.11), kept: it is what the users of the old system read. */
  incompleteMark: "IMCOMPLETO",
  completeMark: "COMPLETO",
  avatarTitle: "Foto do colaborador",
  procedureMissing: "Informe o procedimento (tarefa).",
} as const;

/** 'Filtrar por' of the incomplete tasks (§2.15): single-select; 'Intervalo de datas' searches by the dates alone. */
export const INCOMPLETE_FILTERS = [
  { key: "colaborador", label: "Colaborador" },
  { key: "ambiente", label: "Ambiente" },
  { key: "tarefa", label: "Tarefa" },
  { key: "datas", label: "Intervalo de datas" },
] as const;
export type IncompleteFilter = (typeof INCOMPLETE_FILTERS)[number]["key"];
export const INCOMPLETE_SEARCH_FIELDS = ["colaborador", "ambiente", "tarefa"] as const;
export type IncompleteSearchField = (typeof INCOMPLETE_SEARCH_FIELDS)[number];
export const DEFAULT_INCOMPLETE_FILTER: IncompleteFilter = "tarefa";

/** The chosen filter of the URL: one of the four, 'Tarefa' when absent or unknown. */
export function incompleteFilter(value: string | null | undefined): IncompleteFilter {
  return INCOMPLETE_FILTERS.some((filter) => filter.key === value) ? (value as IncompleteFilter) : "tarefa";
}

/** §5: a date is taken only when it is 10 characters long and does not start with 0 (the original's check). */
const usable = (value: string | null | undefined) => {
  const text = (value ?? "").trim();
  return text.length === 10 && !text.startsWith("0") ? text : null;
};

/**
 * The period of the incomplete tasks (§5 'Incomplete tasks'): without two usable dates, the first day of the current
 * month to today; with them, the report's rule (no date after today: 'Filtro inválido'; the end not before the
 * start; at most a year). A date that is 10 characters long but not a date is refused like the other reports'.
 */
export function incompletePeriod(query: { inicio?: string | null; fim?: string | null }, today: string): ReportPeriod {
  const [inicio, fim] = [usable(query.inicio), usable(query.fim)];
  if (inicio && fim) return reportPeriod({ inicio, fim }, today);
  return { ok: true, period: { from: `${today.slice(0, 8)}01`, to: today }, cut: false };
}
