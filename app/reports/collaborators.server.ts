import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

import { formatCpfText, formatPhone } from "../../api/domain/masks";
import { REPORT_TEXTS, reportPeriod } from "../../api/domain/reports";
import { can } from "../../api/domain/roles";
import { businessToday } from "../../api/domain/schedule-expansion";

import { failLoad } from "~/catalogues/catalogue.server";
import { avatarThumbUrl } from "~/lib/avatars";
import { readListParams, apiListQuery, type ListParams } from "~/lib/list-params";
import { listActiveBranches } from "~/models/branches.server";
import type { SignedInCaller } from "~/models/catalogues.server";
import { collaboratorReportPage } from "~/models/reports.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { COLLABORATOR_FIELDS, COLLABORATORS_DEFAULT_SORT } from "./collaborator-report";

export const COLLABORATORS_PATH = "/historico-colaboradores";

/** The report's URL state: the list's (q, ordem, dir, pagina, tamanho) and inicio, fim, filial, campos. */
export type CollaboratorReportState = ListParams & {
  inicio: string;
  fim: string;
  filial: number | null;
  campos: string[];
};

/**
 * /historico-colaboradores (spec 001 §2.9): one page of collaborators with bookings in the period. A period the §5
 * rule refuses (a date after today, an end before the start, a malformed date) goes back to the last valid view
 * (the dates the form was showing, `inicioAnterior` / `fimAnterior`) with the toast 'Filtro inválido'.
 */
export async function collaboratorsLoader({ request, context }: LoaderFunctionArgs) {
  const auth = await requirePage(request, context, COLLABORATORS_PATH);
  const api: SignedInCaller = { context, request, auth };
  const url = new URL(request.url);
  const search = url.searchParams;
  const today = businessToday();
  const checked = reportPeriod({ inicio: search.get("inicio"), fim: search.get("fim") }, today);
  if (!checked.ok) {
    const back = new URLSearchParams(search);
    for (const [name, previous] of [
      ["inicio", "inicioAnterior"],
      ["fim", "fimAnterior"],
    ] as const) {
      const value = search.get(previous);
      back.delete(previous);
      if (value && reportPeriod({ inicio: value }, today).ok) back.set(name, value);
      else back.delete(name);
    }
    return redirectWithToast(context, `${COLLABORATORS_PATH}?${back}`, {
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
    throw redirect(`${COLLABORATORS_PATH}?${clean}`);
  }

  const personal = can(auth.user, "manageRegisters");
  const fields = COLLABORATOR_FIELDS.filter((field) => personal || field.key === "colaborador");
  const campos = fields.map((field) => field.key as string).filter((key) => search.getAll("campos").includes(key));
  const own = scopeQuery(auth);
  let branches: { id: number; nome: string }[] | null = null;
  let filial: number | null = null;
  if ("companyId" in own) {
    const result = await listActiveBranches(api);
    if (!result.ok) return failLoad(api, result, REPORT_TEXTS.loadFailed);
    branches = result.data;
    const wanted = Number(search.get("filial"));
    filial = branches.some((branch) => branch.id === wanted) ? wanted : null;
  }
  const list = readListParams(url, COLLABORATORS_DEFAULT_SORT);
  const state: CollaboratorReportState = {
    ...list,
    inicio: checked.period.from,
    fim: checked.period.to,
    filial,
    campos: campos.length ? campos : ["colaborador"],
  };
  state.extra = [
    ["inicio", state.inicio],
    ["fim", state.fim],
    ...(filial ? [["filial", String(filial)] as [string, string]] : []),
    ...state.campos
      .filter((key) => key !== "colaborador" || state.campos.length > 1)
      .map((key) => ["campos", key] as [string, string]),
  ];
  const result = await collaboratorReportPage(api, {
    ...apiListQuery(list),
    dataIni: state.inicio,
    dataFim: state.fim,
    ...(filial ? { filialId: filial } : own),
    campos: state.campos.join(","),
  });
  if (!result.ok) return failLoad(api, result, REPORT_TEXTS.loadFailed);
  return {
    state,
    notice: checked.cut ? REPORT_TEXTS.periodCut(checked.period.to) : null,
    branches,
    fields,
    personal,
    total: result.data.total,
    rows: result.data.items.map((item) => ({
      id: item.id,
      nome: item.nome,
      avatarUrl: item.avatar ? avatarThumbUrl(item.avatar) : null,
      filial: item.filial ?? "-",
      cpf: item.cpf ? formatCpfText(item.cpf) : "-",
      email: item.email || "-",
      telefone: item.telefone ? formatPhone(item.telefone) : "-",
      agendamentos: item.agendamentos,
      completos: item.completos,
      incompletos: item.incompletos,
      naoRealizados: item.naoRealizados,
    })),
  };
}
