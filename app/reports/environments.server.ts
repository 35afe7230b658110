import type { LoaderFunctionArgs } from "@remix-run/node";

import { REPORT_TEXTS } from "../../api/domain/reports";

import { failLoad } from "~/lib/fail-load.server";
import { apiListQuery } from "~/lib/list-params";
import { fileDate } from "~/lib/xlsx.server";
import { environmentReportPage } from "~/models/reports.server";

import { ENVIRONMENT_FIELDS, ENVIRONMENTS_DEFAULT_SORT } from "./environment-report";
import { listQuery, reportFrame, reportListState, type ReportFrame } from "./frame.server";
import { withQuery } from "./report-links";
import { periodText, reportRowsPdf, reportRowsXlsx, type ReportRowsFilter } from "./report-rows.server";

export const ENVIRONMENTS_PATH = "/historico-ambientes";

/**
 * The list's state ('Mostrar dados anteriores à Agosto/2022' with it, kept in the URL and by the sort and pager links)
 * and the rooms' search, read from the frame (the page and its downloads read the same).
 */
function environmentListQuery(frame: ReportFrame) {
  const anteriores = frame.search.get("anteriores") === "1";
  const state = {
    ...reportListState(frame, ENVIRONMENTS_PATH, {
      defaultSort: ENVIRONMENTS_DEFAULT_SORT,
      fields: ENVIRONMENT_FIELDS,
      defaultField: "ambiente",
      keep: anteriores ? [["anteriores", "1"]] : [],
    }),
    anteriores,
  };
  const search: ReportRowsFilter = { q: state.q || undefined, campos: state.campos.join(",") };
  return { state, search };
}

/**
 * /historico-ambientes (spec 001 §2.10): one card per room with bookings in the period (environment, category,
 * sector, floor), searched in the chosen fields, paged; a card opens 'Histórico do Ambiente'.
 */
export async function environmentsLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, ENVIRONMENTS_PATH);
  const { state } = environmentListQuery(frame);
  const result = await environmentReportPage(frame.api, {
    ...apiListQuery(state),
    dataIni: state.inicio,
    dataFim: state.fim,
    ...frame.scope,
    campos: state.campos.join(","),
    // The old system's rows counted too (docs/legacy-data.md).
    ...(state.anteriores ? { anteriores: "1" as const } : {}),
  });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  return {
    state,
    listQuery: listQuery(frame.search).toString(),
    notice: frame.notice,
    branches: frame.branches,
    total: result.data.total,
    cards: result.data.items,
  };
}

/** Every row of the rooms the page found, over the period, as 'relatorio-ambientes-DD-MM-YYYY.xlsx'. */
export async function environmentsXlsxLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, ENVIRONMENTS_PATH);
  return reportRowsXlsx(frame, environmentListQuery(frame).search, `relatorio-ambientes-${fileDate()}.xlsx`);
}

/** The same rows as 'relatorio-ambientes-DD-MM-YYYY.pdf', titled 'Relatório de Agendamentos'. */
export async function environmentsPdfLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, ENVIRONMENTS_PATH);
  const { search } = environmentListQuery(frame);
  return reportRowsPdf(args, frame, search, {
    fileName: `relatorio-ambientes-${fileDate()}.pdf`,
    subtitle: `Ambientes${search.q ? ` (busca: ${search.q})` : ""} · ${periodText(frame)}`,
    back: withQuery(ENVIRONMENTS_PATH, listQuery(frame.search)),
  });
}
