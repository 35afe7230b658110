import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

import { AUDIT_TEXTS, FONT_MAX, FONT_MIN } from "../../api/domain/audit";

import { failLoad } from "~/lib/fail-load.server";
import { auditFilterOptions } from "~/models/audit.server";
import { redirectWithToast } from "~/toast.server";

import { AUDIT_PATH, NO_FILTERS, auditAnswer, auditFrame, auditHref, hasData, keptFields } from "./audit-state.server";
import { chartSvg } from "./chart-svg.server";

/**
 * /auditoria (spec 001 §2.13; docs/audit-dashboard.md): the enabled boards' charts of the URL's view, each drawn by
 * the server as SVG (the page without JS, and until chart.js has loaded), the toolbar's links and the period bar.
 * The 'Filtros' dialog's form lands here with `filtrar=1`: nothing chosen goes back to the dialog with 'Selecione
 * algum filtro'; a choice with nothing to show comes back with 'Sem dados'; either way the marker leaves the URL.
 */
export async function auditPageLoader(args: LoaderFunctionArgs) {
  const { frame, state } = await auditFrame(args);
  const here = (change = {}) => auditHref(AUDIT_PATH, frame, state, change);
  // Only the dialog's 'Filtrar' lands on /auditoria itself with the marker ('Atualizar listas' goes to the dialog).
  const filtering = frame.search.get("filtrar") === "1" && new URL(args.request.url).pathname === AUDIT_PATH;
  if (filtering && !state.active) {
    throw await redirectWithToast(args.context, auditHref(`${AUDIT_PATH}/filtros`, frame, state), {
      type: "info",
      title: AUDIT_TEXTS.noFilter,
      description: AUDIT_TEXTS.noFilterDetail,
    });
  }
  const answer = await auditAnswer(frame, state);
  if (filtering) {
    if (!hasData(answer.graficos)) {
      throw await redirectWithToast(args.context, here(), {
        type: "error",
        title: AUDIT_TEXTS.noData,
        description: AUDIT_TEXTS.noDataFiltered,
      });
    }
    throw redirect(here());
  }
  return {
    periodo: answer.periodo,
    period: frame.period,
    notice: frame.notice,
    state,
    charts: answer.graficos.map((chart) => ({ chart, svg: chartSvg(chart, { fontSize: state.fonte }) })),
    links: {
      clear: state.active ? here({ filters: NO_FILTERS }) : null,
      smaller: state.fonte > FONT_MIN ? here({ fonte: state.fonte - 1 }) : null,
      larger: state.fonte < FONT_MAX ? here({ fonte: state.fonte + 1 }) : null,
      dates: here({ datas: !state.datas }),
      filters: auditHref(`${AUDIT_PATH}/filtros`, frame, state),
      excel: auditHref(`${AUDIT_PATH}/exportar.xlsx`, frame, state),
      pdf: auditHref(`${AUDIT_PATH}/exportar.pdf`, frame, state),
    },
    /** What the period bar's form keeps besides the dates. */
    hidden: keptFields(frame, state, "period"),
  };
}

/**
 * The 'Filtros' dialog (/auditoria/filtros): the six lists in scope, the companies' choice narrowing the others
 * (the options are read for the URL's `filiais`), each with the URL's choices selected.
 */
export async function auditFiltersLoader(args: LoaderFunctionArgs) {
  const { frame, state } = await auditFrame(args);
  const result = await auditFilterOptions(frame.api, {
    ...frame.scope,
    filiais: state.filters.filiais.join(",") || undefined,
  });
  if (!result.ok) return failLoad(frame.api, result, AUDIT_TEXTS.loadFailed);
  const close = auditHref(AUDIT_PATH, frame, state);
  return {
    close,
    clear: auditHref(AUDIT_PATH, frame, state, { filters: NO_FILTERS }),
    /** What the dialog's form keeps besides the filters it sets. */
    hidden: keptFields(frame, state, "filters"),
    state,
    options: result.data,
  };
}
