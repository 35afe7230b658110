import type { LoaderFunctionArgs } from "@remix-run/node";

import {
  AUDIT_MAX_CHOICES,
  AUDIT_TEXTS,
  FONT_DEFAULT,
  FONT_MAX,
  FONT_MIN,
  type ChartDescription,
} from "../../api/domain/audit";

import { failLoad } from "~/lib/fail-load.server";
import { fileDate } from "~/lib/xlsx.server";
import { auditDashboard } from "~/models/audit.server";
import { reportFrame, type ReportFrame } from "~/reports/frame.server";

/**
 * The audit dashboard's URL state (issue 25; docs/audit-dashboard.md), read by the page, the 'Filtros' dialog and the
 * downloads alike, so a link shared by e-mail opens the same view: the period (`inicio`, `fim`, the report frame's
 * rules), the six filters (repeated ids: `ambientes=3&ambientes=9`, as a multi-select sends them), the charts' font
 * size (`fonte`, 11 ± 1 a click) and the period bar shown or hidden (`datas=0`).
 */

export const AUDIT_PATH = "/auditoria";
export const FILTER_NAMES = [
  "filiais",
  "colaboradores",
  "ambientes",
  "categorias",
  "setores",
  "procedimentos",
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export type AuditState = {
  filters: Record<FilterName, number[]>;
  /** Any filter chosen: 'Remover filtros' shows. */
  active: boolean;
  fonte: number;
  /** The period bar is shown (the default). */
  datas: boolean;
};

const ids = (values: string[]) =>
  [...new Set(values.filter((value) => /^\d{1,10}$/.test(value)).map(Number))]
    .filter((id) => id >= 1 && id <= 2_147_483_647)
    .slice(0, AUDIT_MAX_CHOICES);

export function auditState(search: URLSearchParams): AuditState {
  const filters = Object.fromEntries(
    FILTER_NAMES.map((name) => [name, ids(search.getAll(name).flatMap((value) => value.split(",")))]),
  ) as Record<FilterName, number[]>;
  const fonte = Number(search.get("fonte"));
  return {
    filters,
    active: FILTER_NAMES.some((name) => filters[name].length > 0),
    fonte: Number.isInteger(fonte) && fonte >= FONT_MIN && fonte <= FONT_MAX ? fonte : FONT_DEFAULT,
    datas: search.get("datas") !== "0",
  };
}

/** The query of a view: the period, the filters, the font size unless the default, the bar unless shown. */
function auditQuery(frame: Pick<ReportFrame, "period">, state: AuditState) {
  const query = new URLSearchParams({ inicio: frame.period.from, fim: frame.period.to });
  for (const name of FILTER_NAMES) for (const id of state.filters[name]) query.append(name, String(id));
  if (state.fonte !== FONT_DEFAULT) query.set("fonte", String(state.fonte));
  if (!state.datas) query.set("datas", "0");
  return query;
}

/** The URL of the dashboard (or of `path`) for a state, changed by `change`. */
export function auditHref(
  path: string,
  frame: Pick<ReportFrame, "period">,
  state: AuditState,
  change: Partial<AuditState> = {},
) {
  return `${path}?${auditQuery(frame, { ...state, ...change })}`;
}

/**
 * The view's query as hidden fields of a form that sets part of it itself: the period bar its dates, the 'Filtros'
 * dialog its filters. The rest travels unchanged.
 */
export function keptFields(frame: Pick<ReportFrame, "period">, state: AuditState, sets: "period" | "filters") {
  const query = auditQuery(frame, sets === "filters" ? { ...state, filters: NO_FILTERS } : state);
  return [...query].filter(([name]) => sets === "filters" || (name !== "inicio" && name !== "fim"));
}

export const NO_FILTERS = Object.fromEntries(FILTER_NAMES.map((name) => [name, []])) as unknown as Record<
  FilterName,
  number[]
>;

/** The report frame (sign-in, period, scope) and the dashboard's state of the URL. */
export async function auditFrame(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, AUDIT_PATH);
  return { frame, state: auditState(frame.search) };
}

/** The API's charts of a view. */
export async function auditAnswer(frame: ReportFrame, state: AuditState) {
  const result = await auditDashboard(frame.api, {
    dataIni: frame.period.from,
    dataFim: frame.period.to,
    ...frame.scope,
    ...Object.fromEntries(
      FILTER_NAMES.filter((name) => state.filters[name].length > 0).map((name) => [
        name,
        state.filters[name].join(","),
      ]),
    ),
  });
  if (!result.ok) return failLoad(frame.api, result, AUDIT_TEXTS.loadFailed);
  return result.data;
}

/** The frame, the state and the API's charts of the URL's view (the page and the downloads read the same). */
export async function auditView(args: LoaderFunctionArgs) {
  const { frame, state } = await auditFrame(args);
  return { frame, state, answer: await auditAnswer(frame, state) };
}

/** Whether any enabled chart has something to show (the downloads refuse otherwise, §8). */
export const hasData = (charts: readonly ChartDescription[]) => charts.some((chart) => !chart.empty);

/** The downloads' names: the spec's 'DataSheet.xlsx' for the Excel file; the PDF 'Resumo' dated. */
export const EXCEL_NAME = "DataSheet.xlsx";
export const pdfName = () => `resumo-${fileDate()}.pdf`;
