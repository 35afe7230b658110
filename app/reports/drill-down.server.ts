import type { LoaderFunctionArgs } from "@remix-run/node";

import { proofFlags, receivedIfDiffers } from "../../api/domain/field-proof";
import { REPORT_TEXTS } from "../../api/domain/reports";

import { businessDateTime as dateTime, businessTime as time } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { formatDateBR } from "~/lib/format";
import { dayParam, idParam, textParam } from "~/lib/list-params";
import { photoThumbUrl, photoZoomUrl } from "~/lib/photos";
import { foldForSearch } from "~/lib/search";
import { reportDayDetail, reportDaysPage } from "~/models/reports.server";

import { listQuery, reportFrame } from "./frame.server";
import { dialogPage, dialogPager, withQuery } from "./report-links";

/**
 * The drill-down levels both reports share (spec 001 §2.9 'History modal', §2.10 'Histórico do Ambiente'): a
 * collaborator's days (of every room, or of one), and one day of a collaborator in a room ('Detalhes do Histórico').
 * Each is a route under its report's path; `base` is the report's path, `levels` the path of each level above.
 */

const DAYS_PAGE_SIZE = 20;

/** A collaborator's days in the period: one page of 20, newest first, each linking to its detail. */
export async function daysLevel(
  args: LoaderFunctionArgs,
  report: { path: "/historico-colaboradores" | "/historico-ambientes"; back: string; environmentId?: number },
  dayHref: (day: { data: string; ambienteId: number }) => string,
) {
  const frame = await reportFrame(args, report.path);
  const userId = idParam(args.params.userId);
  const dias = dialogPage(frame.search, "dias");
  const result = await reportDaysPage(frame.api, {
    dataIni: frame.period.from,
    dataFim: frame.period.to,
    ...frame.scope,
    userId,
    ambienteId: report.environmentId,
    page: dias,
    size: DAYS_PAGE_SIZE,
    // 'Mostrar dados anteriores à Agosto/2022' on the list (§2.9): the old system's days too (docs/legacy-data.md).
    ...(frame.search.get("anteriores") === "1" ? { anteriores: "1" as const } : {}),
  });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const here = new URL(args.request.url);
  return {
    colaborador: result.data.colaborador,
    period: `${formatDateBR(frame.period.from)} a ${formatDateBR(frame.period.to)}`,
    back: report.back,
    close: withQuery(report.path, listQuery(frame.search)),
    days: result.data.items.map((day) => ({
      ...day,
      dataBR: formatDateBR(day.data),
      href: dayHref(day),
    })),
    pager: dialogPager(here, "dias", dias, result.data.total, DAYS_PAGE_SIZE),
  };
}

/**
 * 'Detalhes do Histórico': the day's slots of a collaborator in a room, the Principal first; 'Mostrar revisões'
 * (`revisoes=1`) shows the revisions' slots and photos instead; `procedimento` searches the procedures by name.
 */
export async function dayLevel(
  args: LoaderFunctionArgs,
  report: { path: "/historico-colaboradores" | "/historico-ambientes"; back: string },
) {
  const frame = await reportFrame(args, report.path);
  const userId = idParam(args.params.userId);
  const environmentId = idParam(args.params.ambienteId);
  const data = dayParam(args.params.data);
  const result = await reportDayDetail(frame.api, {
    data,
    userId,
    ambienteId: environmentId,
    ...frame.scope,
    // An old-system day of the list ('Mostrar dados anteriores à Agosto/2022'): its old rows (docs/legacy-data.md).
    ...(frame.search.get("anteriores") === "1" ? { anteriores: "1" as const } : {}),
  });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const here = new URL(args.request.url);
  const revisions = frame.search.get("revisoes") === "1";
  const procedure = textParam(frame.search.get("procedimento"));
  const wanted = foldForSearch(procedure);
  const slots = result.data.slots
    .filter((slot) => (slot.tipo === "Principal") !== revisions)
    .map((slot) => ({
      ...slot,
      inicio: time(slot.inicio),
      fim: time(slot.fim),
      // The field app's proof (docs/field-app.md 'Proof flags'): the flags, and when the server received the start
      // and the end where that was a minute or more after the phone did them (with the day: it may be another).
      flags: proofFlags(slot),
      inicioRecebido: dateTime(receivedIfDiffers(slot.inicio, slot.inicioRecebido)),
      fimRecebido: dateTime(receivedIfDiffers(slot.fim, slot.fimRecebido)),
      tarefas: slot.tarefas
        .filter((task) => foldForSearch(task.procedimento).includes(wanted))
        .map((task) => ({
          ...task,
          registradoEm: task.execucao ? time(task.execucao.registradoEm) : "-",
          recebidoEm: task.execucao
            ? dateTime(receivedIfDiffers(task.execucao.registradoEm, task.execucao.recebidoEm))
            : "-",
          observacao: task.execucao?.observacao?.trim() || "-",
          foto: task.execucao?.foto
            ? {
                thumb: photoThumbUrl(task.execucao.foto),
                zoom: photoZoomUrl(task.execucao.foto, `${here.pathname}${here.search}`),
              }
            : null,
        })),
    }));
  const legacy = result.data.anteriores
    .filter((row) => foldForSearch(row.procedimento ?? "").includes(wanted))
    .map((row) => ({
      ...row,
      procedimento: row.procedimento ?? "-",
      inicio: time(row.inicio),
      fim: time(row.fim),
      observacao: row.observacao?.trim() || "-",
    }));
  const hidden = [...frame.search.entries()].filter(([name]) => name !== "procedimento");
  return {
    title: REPORT_TEXTS.dayDetailTitle,
    subtitle: `${result.data.colaborador} · ${result.data.ambiente} · ${formatDateBR(data)}`,
    back: report.back,
    close: withQuery(report.path, listQuery(frame.search)),
    revisions,
    revisionsHref: withQuery(here.pathname, here.search, { revisoes: revisions ? null : "1" }),
    procedure,
    hidden,
    empty: result.data.slots.length === 0 && result.data.anteriores.length === 0,
    slots,
    legacy: legacy.filter((row) => (row.tipo === "Revisão") === revisions),
  };
}
