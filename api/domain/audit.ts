import { differenceInCalendarDays } from "date-fns";

import { percent } from "./inspections.ts";
import { MAX_ITEM_MS } from "./reports.ts";
import { dayOf } from "./schedule-expansion.ts";

/**
 * The audit dashboard's rules (spec 001 §2.13, §5 'Audit dashboard filter', §8, §9; issue 25; docs/audit-dashboard.md):
 * the nine boards (the spec's eight, and ours: the inspections' mean score, issue 29), their limits, and each chart's
 * description (type, labels, values, colours, pt-BR title and summary) built from its SQL aggregate
 * (api/services/audit.ts). One description, two renderers: chart.js in the browser, the same chart.js configuration
 * drawn as SVG on the server (no JS and the PDF).
 */

export const AUDIT_TEXTS = {
  title: "Auditoria",
  tooltip:
    "Gráficos para análise estratégica da limpeza: filtre o período, as filiais, os colaboradores e os ambientes.",
  noData: "Sem dados",
  noFilter: "Selecione algum filtro",
  noFilterDetail: "Favor selecionar pelo menos um filtro",
  noDataFiltered: "Não há dados com esse filtro",
  nothingToExport: "Não há dados para exportar",
  pdfTitle: "Resumo",
  loadFailed: "Erro ao carregar dados, por favor atualize a página",
  invalidPeriod: "Intervalo de datas inválidos, favor verificar",
  tooManyDays: "Escolha um período de até 366 dias.",
  tooManyChoices: "Escolha no máximo 50 itens em cada filtro.",
} as const;

/**
 * The boards (quadros) in order: title and Excel sheet name. 1 to 8 are the spec's (§2.13, §9); 9 is ours (issue 29,
 * docs/inspections.md): the inspections' mean score per week.
 */
export const AUDIT_BOARDS = [
  { id: 1, title: "Ambientes", sheet: "Ambientes" },
  { id: 2, title: "Atividades em aberto por funcionário", sheet: "Atv em aberto por func" },
  { id: 3, title: "Atividades em aberto por CNPJ", sheet: "Atv em aberto por CNPJ" },
  { id: 4, title: "Atividades que demandam mais tempo", sheet: "Atv que demandam mais tempo" },
  { id: 5, title: "Tempo médio das atividades", sheet: "Tempo médio das atv" },
  { id: 6, title: "Tempo Previsto x Realizado", sheet: "Previsto X Realizado" },
  { id: 7, title: "Utilização do App", sheet: "Utilizacao do App" },
  { id: 8, title: "Resumo das Atividades", sheet: "Resumo das Atividades" },
  { id: 9, title: "Inspeções: pontuação média", sheet: "Inspeções" },
] as const;
export type BoardId = (typeof AUDIT_BOARDS)[number]["id"];

/** The board drawn from inspections rather than from the scheduled slots. */
export const INSPECTION_BOARD = 9 satisfies BoardId;
/**
 * Boards a company chooses on purpose: offered on the company forms like every default board, but a new company's form
 * leaves them unticked (the spec's eight start ticked). Inspections are a feature a company may not use at all, and an
 * always-empty chart would only say 'Sem dados'.
 */
export const OPT_IN_BOARDS: readonly BoardId[] = [INSPECTION_BOARD];

/** §9: top 10 for most boards, top 8 for planned versus actual. */
export const TOP = 10;
export const TOP_PLANNED = 8;
/** Branches on 'Atividades em aberto por CNPJ' (the spec sets none; a company has a few; this bounds the answer). */
export const TOP_BRANCHES = 20;
/**
 * §9: one item's time counts at most 24 hours. Migration 023 writes the same cap in SQL (slot_ms_real,
 * slot_ms_previsto: the roll-up the dashboard reads); tests/api/audit.test.ts checks a capped slot with this constant.
 */
export const ITEM_CAP_MS = MAX_ITEM_MS;
/** The longest period one request aggregates (a year and a day), and the most ids one filter takes. */
export const AUDIT_MAX_DAYS = 366;
/** The most weeks the inspection chart answers: a period of AUDIT_MAX_DAYS touches at most 54 (a bound, not a cut). */
export const AUDIT_MAX_WEEKS = 60;
export const AUDIT_MAX_CHOICES = 50;
/** §9: the font size starts at 11 and moves by 1; kept between these (ours). */
export const FONT_DEFAULT = 11;
export const FONT_MIN = 8;
export const FONT_MAX = 20;

/** An activity (a scheduled slot) as the dashboard counts it (§4 statuses; 'Em andamento' is the board's 'Fazendo'). */
export const AUDIT_STATUSES = ["Completo", "Em andamento", "Incompleto", "A iniciar", "Não Realizado"] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];
/** Open: anything not 'Completo'. */
export const OPEN_STATUSES = ["Em andamento", "Incompleto", "A iniciar", "Não Realizado"] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];

/**
 * Colours readable by colour-blind users (Okabe and Ito's palette, then two greys), one per slice or series; each
 * status keeps its colour on every chart. Values are written on the chart and in the table, so colour is never the
 * only cue.
 */
export const PALETTE = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#D55E00",
  "#F0E442",
  "#000000",
  "#999999",
  "#666666",
] as const;
export const STATUS_COLOURS: Record<AuditStatus, string> = {
  Completo: "#009E73",
  "Em andamento": "#F0E442",
  Incompleto: "#E69F00",
  "A iniciar": "#56B4E9",
  "Não Realizado": "#D55E00",
};

/** A room of a chart: its name and its branch's (rooms of two branches may share a name). */
type Room = { id: number; nome: string; filial: string };

/**
 * The rooms' labels: the name, and the branch after it when another room of the chart has the same name ('UTI
 * adulto · Filial Aldeota'), so two rooms never read as one.
 */
export function roomLabels(rooms: readonly Room[]) {
  const seen = new Map<string, number>();
  for (const room of rooms) seen.set(room.nome, (seen.get(room.nome) ?? 0) + 1);
  return rooms.map((room) => ((seen.get(room.nome) ?? 0) > 1 ? `${room.nome} · ${room.filial}` : room.nome));
}

/** The aggregates of one period and filter, one per board (api/services/audit.ts). Times in milliseconds. */
export type AuditAggregates = {
  1: { status: AuditStatus; count: number }[];
  2: { id: number; nome: string; count: number }[];
  3: { id: number; nome: string; cnpj: string; counts: Record<OpenStatus, number> }[];
  4: (Room & { ms: number })[];
  5: (Room & { ms: number; count: number })[];
  6: (Room & { plannedMs: number; actualMs: number })[];
  7: { id: number; nome: string; scheduled: number; started: number }[];
  8: { id: number; nome: string; done: number; notDone: number }[];
  /**
   * The weeks with inspections, in order: `semana` the Monday (yyyy-MM-dd, America/Fortaleza), `media` the mean of
   * the week's scores (percent, one decimal, half up), `inspecoes` how many, `soma` their scores summed (one decimal),
   * so the period's mean is exact and not a mean of rounded means.
   */
  9: { semana: string; media: number; inspecoes: number; soma: number }[];
};

/** A chart as both renderers draw it and the table under it reads it. */
export type ChartDescription = {
  board: BoardId;
  title: string;
  sheet: string;
  type: "doughnut" | "bar";
  /** Bars stacked (one bar per label, a segment per dataset) rather than grouped. */
  stacked: boolean;
  /**
   * What the numbers are: counts, hours or minutes (one decimal), a percentage (two decimals) or an inspection score
   * ('nota': a percentage with one decimal, as the inspections write it).
   */
  unit: "atividades" | "horas" | "minutos" | "%" | "nota";
  labels: string[];
  /** A doughnut has one dataset with a colour per label; bars a colour per dataset. */
  datasets: { label: string; data: number[]; colours: string[] }[];
  /** The chart in one pt-BR sentence (the figure's caption, the PDF's text, screen readers). */
  summary: string;
  empty: boolean;
};

/** §9: '1 atividade', '3 atividades' (and 0 atividades). */
export const activities = (count: number) =>
  `${count.toLocaleString("pt-BR")} ${count === 1 ? "atividade" : "atividades"}`;

/** §9: the usage percentage with two decimals (a share of 0 scheduled is 0). */
export const percentage = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

/** Hours with one decimal, as the time charts show them. */
export const hours = (ms: number) => Math.round(ms / 360_000) / 10;
/** Minutes with one decimal: an average cleaning lasts minutes, not hours. */
export const minutes = (ms: number) => Math.round(ms / 6_000) / 10;

const hoursText = (value: number) => `${value.toLocaleString("pt-BR", { maximumFractionDigits: 1 })} h`;
const minutesText = (value: number) => `${value.toLocaleString("pt-BR", { maximumFractionDigits: 1 })} min`;
const percentText = (value: number) =>
  `${value.toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`;

/** A value as the chart labels and the tables write it. */
export function valueText(unit: ChartDescription["unit"], value: number) {
  if (unit === "horas") return hoursText(value);
  if (unit === "minutos") return minutesText(value);
  if (unit === "%") return percentText(value);
  if (unit === "nota") return percent(value);
  return activities(value);
}

/**
 * The mean of scores summed to `sum` (percent, one decimal) over `count` inspections: one decimal, half up, in integer
 * tenths (the rule of the inspections' own means, SQL's round(Σ nota ÷ n, 1)); 0 for none.
 */
export function meanScore(sum: number, count: number) {
  if (count <= 0) return 0;
  const tenths = Math.round(sum * 10);
  return Math.floor((2 * tenths + count) / (2 * count)) / 10;
}

/** A week as the inspection chart names it: 'Semana de 02/11' (the Monday). */
export const weekLabel = (monday: string) => `Semana de ${monday.slice(8, 10)}/${monday.slice(5, 7)}`;
const inspectionsText = (count: number) => `${count.toLocaleString("pt-BR")} ${count === 1 ? "inspeção" : "inspeções"}`;

const board = (id: BoardId) => AUDIT_BOARDS[id - 1];
const palette = (count: number) => Array.from({ length: count }, (_, index) => PALETTE[index % PALETTE.length]);
const top = (labels: string[], values: number[], unit: ChartDescription["unit"]) =>
  labels
    .slice(0, 3)
    .map((label, index) => `${label} (${valueText(unit, values[index])})`)
    .join(", ");

function describe(
  id: BoardId,
  shape: Pick<ChartDescription, "type" | "stacked" | "unit" | "labels" | "datasets">,
  summary: string,
): ChartDescription {
  // Nothing to show is no group at all; a group whose value is 0 (a collaborator who used the app for none of their
  // slots) is a fact the chart shows.
  const empty = shape.labels.length === 0;
  return {
    board: id,
    title: board(id).title,
    sheet: board(id).sheet,
    ...shape,
    summary: empty ? AUDIT_TEXTS.noData : summary,
    empty,
  };
}

/** Each board's chart from its aggregate. */
export const CHARTS: { [K in BoardId]: (rows: AuditAggregates[K]) => ChartDescription } = {
  1: (rows) => {
    const shown = AUDIT_STATUSES.map((status) => ({
      status,
      count: rows.find((row) => row.status === status)?.count ?? 0,
    })).filter((row) => row.count > 0);
    const total = shown.reduce((sum, row) => sum + row.count, 0);
    return describe(
      1,
      {
        type: "doughnut",
        stacked: false,
        unit: "atividades",
        labels: shown.map((row) => row.status),
        datasets: [
          {
            label: "Atividades",
            data: shown.map((row) => row.count),
            colours: shown.map((row) => STATUS_COLOURS[row.status]),
          },
        ],
      },
      `${activities(total)} no período: ${shown.map((row) => `${row.status} ${row.count}`).join(", ")}.`,
    );
  },
  2: (rows) => {
    const shown = rows.slice(0, TOP);
    const labels = shown.map((row) => row.nome);
    const data = shown.map((row) => row.count);
    return describe(
      2,
      {
        type: "doughnut",
        stacked: false,
        unit: "atividades",
        labels,
        datasets: [{ label: "Atividades em aberto", data, colours: palette(labels.length) }],
      },
      `Mais atividades em aberto: ${top(labels, data, "atividades")}.`,
    );
  },
  3: (rows) => {
    const shown = rows.slice(0, TOP_BRANCHES);
    const labels = shown.map((row) => row.nome);
    const total = shown.reduce((sum, row) => sum + OPEN_STATUSES.reduce((part, s) => part + row.counts[s], 0), 0);
    return describe(
      3,
      {
        type: "bar",
        stacked: true,
        unit: "atividades",
        labels,
        datasets: OPEN_STATUSES.map((status) => ({
          label: status,
          data: shown.map((row) => row.counts[status]),
          colours: [STATUS_COLOURS[status]],
        })),
      },
      `${activities(total)} em aberto em ${shown.length} ${shown.length === 1 ? "filial" : "filiais"}.`,
    );
  },
  4: (rows) => {
    const shown = rows.slice(0, TOP);
    const labels = roomLabels(shown);
    const data = shown.map((row) => hours(row.ms));
    return describe(
      4,
      {
        type: "doughnut",
        stacked: false,
        unit: "horas",
        labels,
        datasets: [{ label: "Horas de execução", data, colours: palette(labels.length) }],
      },
      `Ambientes com mais horas de execução: ${top(labels, data, "horas")}.`,
    );
  },
  5: (rows) => {
    const shown = rows.slice(0, TOP);
    const labels = roomLabels(shown);
    const data = shown.map((row) => minutes(row.ms));
    return describe(
      5,
      {
        type: "doughnut",
        stacked: false,
        unit: "minutos",
        labels,
        datasets: [{ label: "Tempo médio (minutos)", data, colours: palette(labels.length) }],
      },
      `Maior tempo médio de execução: ${top(labels, data, "minutos")}.`,
    );
  },
  6: (rows) => {
    const shown = rows.slice(0, TOP_PLANNED);
    const labels = roomLabels(shown);
    return describe(
      6,
      {
        type: "bar",
        stacked: false,
        unit: "horas",
        labels,
        datasets: [
          { label: "Previsto", data: shown.map((row) => hours(row.plannedMs)), colours: ["#0072B2"] },
          { label: "Realizado", data: shown.map((row) => hours(row.actualMs)), colours: ["#E69F00"] },
        ],
      },
      `Horas previstas e realizadas de ${shown.length} ${shown.length === 1 ? "ambiente" : "ambientes"}: ` +
        shown
          .slice(0, 3)
          .map(
            (row) =>
              `${row.nome} ${hoursText(hours(row.plannedMs))} previstas, ${hoursText(hours(row.actualMs))} realizadas`,
          )
          .join("; ") +
        ".",
    );
  },
  7: (rows) => {
    const shown = rows.slice(0, TOP);
    const labels = shown.map((row) => row.nome);
    const data = shown.map((row) => percentage(row.started, row.scheduled));
    return describe(
      7,
      {
        type: "bar",
        stacked: false,
        unit: "%",
        labels,
        datasets: [{ label: "Atividades registradas pelo app", data, colours: ["#0072B2"] }],
      },
      `Uso do app por colaborador: ${top(labels, data, "%")}.`,
    );
  },
  8: (rows) => {
    const shown = rows.slice(0, TOP);
    const labels = shown.map((row) => row.nome);
    const done = shown.reduce((sum, row) => sum + row.done, 0);
    const notDone = shown.reduce((sum, row) => sum + row.notDone, 0);
    return describe(
      8,
      {
        type: "bar",
        stacked: false,
        unit: "atividades",
        labels,
        datasets: [
          { label: "Feitas", data: shown.map((row) => row.done), colours: [STATUS_COLOURS.Completo] },
          { label: "Não feitas", data: shown.map((row) => row.notDone), colours: [STATUS_COLOURS["Não Realizado"]] },
        ],
      },
      `Feitas: ${activities(done)}; não feitas: ${activities(notDone)}` +
        (shown.length === 1 ? `, de ${labels[0]}.` : `, dos ${shown.length} colaboradores com mais atividades.`),
    );
  },
  9: (rows) => {
    const shown = rows.slice(0, AUDIT_MAX_WEEKS);
    const count = shown.reduce((sum, row) => sum + row.inspecoes, 0);
    const mean = meanScore(
      shown.reduce((sum, row) => sum + row.soma, 0),
      count,
    );
    const last = shown.at(-1);
    const lastWeek = last ? weekLabel(last.semana).toLowerCase() : "";
    return describe(
      9,
      {
        type: "bar",
        stacked: false,
        unit: "nota",
        labels: shown.map((row) => weekLabel(row.semana)),
        datasets: [{ label: "Pontuação média", data: shown.map((row) => row.media), colours: [PALETTE[0]] }],
      },
      `Pontuação média de ${percent(mean)} em ${inspectionsText(count)}, ` +
        (shown.length === 1
          ? `na ${lastWeek}.`
          : `${shown.length} semanas com inspeções; na última, ${lastWeek}: ${percent(last?.media ?? 0)}.`),
    );
  },
};

/** The enabled boards' charts, in board order. */
export function auditCharts(aggregates: Partial<AuditAggregates>, enabled: readonly BoardId[]): ChartDescription[] {
  return AUDIT_BOARDS.filter((entry) => enabled.includes(entry.id) && aggregates[entry.id] !== undefined).map((entry) =>
    (CHARTS[entry.id] as (rows: unknown) => ChartDescription)(aggregates[entry.id]),
  );
}

/** The period checks (§5): an end before the start, or more than AUDIT_MAX_DAYS days, is refused. */
export function auditPeriodError(dataIni: string, dataFim: string): string | null {
  if (dataFim < dataIni) return AUDIT_TEXTS.invalidPeriod;
  const days = differenceInCalendarDays(dayOf(dataFim), dayOf(dataIni)) + 1;
  return days > AUDIT_MAX_DAYS ? AUDIT_TEXTS.tooManyDays : null;
}
