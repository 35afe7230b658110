import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

import { REPORT_TEXTS, reportPeriod, type ReportPeriod } from "../../api/domain/reports";
import type { DateRange } from "../../api/domain/schedule-expansion";
import { businessToday } from "../../api/domain/schedule-expansion";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { readListParams, type ListParams } from "~/lib/list-params";
import type { PagePath } from "~/lib/navigation";
import { readBranchChoice } from "~/models/branches.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { DRILL_DOWN_PARAMS } from "./report-links";

/**
 * The report frame (issue 23 §1; docs/reports.md): what every report page and its drill-downs and downloads read
 * first. The signed-in caller (a report URL opened signed out comes back here after sign-in), the period of the URL
 * (`inicio`, `fim`: default today, at most a year; a refused period goes back to the last valid view with the §5
 * toast), and the branch: company-wide users choose one ('Todos' = every branch), the others see their own.
 */
export type ReportFrame = {
  api: SignedInCaller;
  search: URLSearchParams;
  period: DateRange;
  /** The page's note when the period asked for was longer than a year and was cut. */
  notice: string | null;
  /** The branch choices of company-wide users; null for the others (their scope is their branch). */
  branches: { id: number; nome: string }[] | null;
  filial: number | null;
  /** The scope query of the API calls: the chosen branch, else the caller's own scope. */
  scope: { companyId?: number; filialId?: number; filialClientId?: number };
};

/** How a report reads its period from the URL's dates: `reportPeriod` (default today) unless the page says otherwise. */
export type PeriodRule = (query: { inicio: string | null; fim: string | null }, today: string) => ReportPeriod;

export async function reportFrame(
  { request, context }: LoaderFunctionArgs,
  listPath: PagePath,
  { period = reportPeriod }: { period?: PeriodRule } = {},
): Promise<ReportFrame> {
  const auth = await requirePage(request, context, listPath);
  const api: SignedInCaller = { context, request, auth };
  const url = new URL(request.url);
  const search = url.searchParams;
  const today = businessToday();
  const checked = period({ inicio: search.get("inicio"), fim: search.get("fim") }, today);
  if (!checked.ok) {
    // Back to the list as the form was showing it (its dates travel as inicioAnterior / fimAnterior).
    const back = listQuery(search);
    for (const [name, previous] of [
      ["inicio", "inicioAnterior"],
      ["fim", "fimAnterior"],
    ] as const) {
      const value = search.get(previous);
      back.delete(previous);
      if (value && period({ inicio: value, fim: value }, today).ok) back.set(name, value);
      else back.delete(name);
    }
    throw await redirectWithToast(context, `${listPath}?${back}`, {
      type: "info",
      title: checked.title,
      description: checked.message,
    });
  }
  // The dates the form was showing were only needed in case these were refused: a shared link stays clean.
  if (search.has("inicioAnterior") || search.has("fimAnterior")) {
    const clean = new URLSearchParams(search);
    clean.delete("inicioAnterior");
    clean.delete("fimAnterior");
    throw redirect(`${url.pathname}?${clean}`);
  }
  const own = scopeQuery(auth);
  // 'Todos' is no filial (or -1); any other is a branch the caller may read, else 404.
  const asked = search.get("filial") ?? "";
  const choice = await readBranchChoice(api, asked === "" || asked === "-1" ? null : Number(asked));
  if (!choice.ok) return failLoad(api, choice, REPORT_TEXTS.loadFailed);
  const { branches, filial } = choice;
  return {
    api,
    search,
    period: checked.period,
    notice: checked.cut ? REPORT_TEXTS.periodCut(checked.period.to) : null,
    branches,
    filial,
    scope: filial ? { filialId: filial } : own,
  };
}

/** The list's own query: the URL's without the drill-down's parameters (what 'Ok' and the list's links keep). */
export function listQuery(search: URLSearchParams) {
  const list = new URLSearchParams(search);
  for (const name of DRILL_DOWN_PARAMS) list.delete(name);
  return list;
}

/** A report list's URL state: the list's (q, ordem, dir, pagina, tamanho), the period, the branch, 'Filtrar por'. */
export type ReportListState = ListParams & { inicio: string; fim: string; filial: number | null; campos: string[] };

/**
 * The list state of a report page from its frame: the chosen 'Filtrar por' fields among `fields` (`defaultField`
 * when none), and the values the sort and pager links keep (`extra`, plus `keep`).
 */
export function reportListState(
  frame: ReportFrame,
  path: string,
  {
    defaultSort,
    fields,
    defaultField,
    keep = [],
  }: {
    defaultSort: string;
    fields: readonly { key: string }[];
    defaultField: string;
    keep?: [string, string][];
  },
): ReportListState {
  const chosen = frame.search.getAll("campos");
  const campos = fields.map((field) => field.key).filter((key) => chosen.includes(key));
  const state: ReportListState = {
    ...readListParams(`${path}?${frame.search}`, defaultSort),
    inicio: frame.period.from,
    fim: frame.period.to,
    filial: frame.filial,
    campos: campos.length ? campos : [defaultField],
  };
  state.extra = [
    ["inicio", state.inicio],
    ["fim", state.fim],
    ...(frame.filial ? [["filial", String(frame.filial)] as [string, string]] : []),
    ...keep,
    ...state.campos
      .filter((key) => key !== defaultField || state.campos.length > 1)
      .map((key) => ["campos", key] as [string, string]),
  ];
  return state;
}
