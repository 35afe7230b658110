/**
 * The activity reports' rules (spec 001 §2.12, §4 'Activity report'; issue 24 part 2; docs/activity-reports.md): pure
 * and browser-safe. An activity is one booking row (a day's slot); its history rows are the procedures executed in it.
 */

export const ACTIVITY_TEXTS = {
  // §2.12
  activitiesTitle: "Atividades",
  imagesTitle: "Imagens de tarefas",
  tooltip: "Agendamentos do período com as atividades realizadas em cada um, suas fotos e horários.",
  empty: "Não existe um histórico de tarefas para o intervalo de datas atual.",
  activitiesDetailTitle: "Detalhes do Agendamento",
  imagesDetailTitle: "Detalhes",
  done: "Feito",
  pending: "Pendente",
  filterInvalid: "Filtro de atividades inválido",
} as const;

/** The activity filter's values and labels (§2.12), in the select's order. */
export const ACTIVITY_FILTERS = [
  { value: "todos", label: "Mostrar todas atividades" },
  { value: "feitas", label: "Apenas atividades feitas" },
  { value: "pendentes", label: "Atividades pendentes" },
  { value: "imagens", label: "Imagens de tarefas executadas" },
] as const;
export type ActivityFilter = (typeof ACTIVITY_FILTERS)[number]["value"];
export const ACTIVITY_FILTER_VALUES = ACTIVITY_FILTERS.map((filter) => filter.value) as [
  ActivityFilter,
  ...ActivityFilter[],
];

/** What the rules read of an activity: how many history rows it has, and how many of them carry a photo. */
export type ActivityCounts = { historico: number; fotos: number };

/** §4: an agendamento is 'Feito' when its Historic is non-empty, otherwise 'Pendente'. */
export const activityDone = (activity: ActivityCounts) => activity.historico > 0;

export const activityStatus = (activity: ActivityCounts): "Feito" | "Pendente" =>
  activityDone(activity) ? ACTIVITY_TEXTS.done : ACTIVITY_TEXTS.pending;

/**
 * Whether an activity belongs to a filter's view: todos every one; feitas the done; pendentes the others; imagens the
 * done with at least one photo. The API's SQL says the same (tests/api/report-activities.test.ts checks each row of
 * each filter against this).
 */
export function activityMatches(filter: ActivityFilter, activity: ActivityCounts) {
  switch (filter) {
    case "todos":
      return true;
    case "feitas":
      return activityDone(activity);
    case "pendentes":
      return !activityDone(activity);
    case "imagens":
      return activityDone(activity) && activity.fotos > 0;
  }
}

/** One history row of an activity, as recorded (instants in ISO 8601, UTC). */
export type ActivityExecution = { id: number; createdAt: string };

/**
 * The performed start and end of each execution of a slot (ours, docs/activity-reports.md; the execution client
 * records only when a procedure was done): the first starts when the slot was started (its start_date; null when it
 * never was), each later one when the one before it was recorded; each ends when it was recorded. In recorded order.
 */
export function performedTimes<E extends ActivityExecution>(
  slotStart: string | null,
  executions: readonly E[],
): (E & { inicio: string | null; fim: string })[] {
  const ordered = [...executions].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
  return ordered.map((execution, index) => ({
    ...execution,
    inicio: index === 0 ? slotStart : ordered[index - 1].createdAt,
    fim: execution.createdAt,
  }));
}
