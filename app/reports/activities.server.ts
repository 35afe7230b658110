import type { LoaderFunctionArgs } from "@remix-run/node";

import { ACTIVITY_FILTERS, type ActivityFilter } from "../../api/domain/activities";
import { REPORT_TEXTS } from "../../api/domain/reports";
import type { ActivityReportItem } from "../../api/routes/report-activities";

import { businessTime as time } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { formatDateBR } from "~/lib/format";
import { apiListQuery, idParam } from "~/lib/list-params";
import { photoThumbUrl, photoUrl, photoZoomUrl } from "~/lib/photos";
import { publicUrlOf } from "~/lib/public-url.server";
import { fileDate, xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";
import { activityDetail, activityReportPage } from "~/models/reports.server";

import { ACTIVITIES_DEFAULT_SORT, ACTIVITY_MOUNTS, type ActivityPath } from "./activity-report";
import { listQuery, reportFrame, reportListState, type ReportFrame, type ReportListState } from "./frame.server";
import { withQuery } from "./report-links";

/**
 * The activity reports (spec 001 §2.12; issue 24 part 2; docs/activity-reports.md): one module for both mounts,
 * /historico-tarefas and /imagens-tarefas. The URL is the state (the frame's period and branch, `atividade`, `q`, the
 * order and page); the page, its Excel file and the drill-down read it the same way.
 */

const EXPORT_PAGE_SIZE = 160;

export type ActivityListState = ReportListState & { atividade: ActivityFilter };

/** The list's state and its API query, read from the frame (the page and its Excel file read the same). */
function activityListQuery(frame: ReportFrame, path: ActivityPath) {
  const mount = ACTIVITY_MOUNTS[path];
  const asked = frame.search.get("atividade");
  const atividade = ACTIVITY_FILTERS.find((filter) => filter.value === asked)?.value ?? mount.defaultFilter;
  const state: ActivityListState = {
    ...reportListState(frame, path, {
      defaultSort: ACTIVITIES_DEFAULT_SORT,
      fields: [],
      defaultField: "",
      keep: atividade === mount.defaultFilter ? [] : [["atividade", atividade]],
    }),
    atividade,
  };
  const query = {
    ...apiListQuery(state),
    dataIni: state.inicio,
    dataFim: state.fim,
    ...frame.scope,
    atividade,
  };
  return { state, query };
}

export type ActivityLine = ReturnType<typeof activityLine>;

/** An activity as the list and the Excel file show it. */
function activityLine(item: ActivityReportItem) {
  return {
    id: item.id,
    empresa: item.empresa || "-",
    ambiente: item.ambiente,
    data: formatDateBR(item.data),
    horario: `${item.horaIni} às ${item.horaFim}`,
    tipo: item.tipo,
    colaborador: item.colaborador,
    feito: item.feito ? "SIM" : "NÃO",
    fotos: item.fotos,
    foto: item.foto,
  };
}

async function loadPage(frame: ReportFrame, query: Parameters<typeof activityReportPage>[1]) {
  const result = await activityReportPage(frame.api, query);
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  return result.data;
}

/** One page of the view: the filters' state, the rows with their drill-down links and (images) the first photo. */
export async function activitiesLoader(args: LoaderFunctionArgs, path: ActivityPath) {
  const frame = await reportFrame(args, path);
  const { state, query } = activityListQuery(frame, path);
  const page = await loadPage(frame, query);
  const list = listQuery(frame.search).toString();
  const here = withQuery(path, list);
  return {
    path,
    state,
    listQuery: list,
    notice: frame.notice,
    branches: frame.branches,
    total: page.total,
    rows: page.items.map((item) => ({
      ...activityLine(item),
      href: withQuery(`${path}/${item.id}`, list),
      photo: item.foto ? { thumb: photoThumbUrl(item.foto), zoom: photoZoomUrl(item.foto, here) } : null,
    })),
  };
}

/** The rows of every page of the view (its filters, search and order), for the Excel file. */
async function* activityLines(frame: ReportFrame, path: ActivityPath) {
  const { query } = activityListQuery(frame, path);
  for (let page = 1; ; page++) {
    // The largest page size, page after page, until the last.
    const result = await loadPage(frame, { ...query, page, size: EXPORT_PAGE_SIZE });
    yield* result.items.map(activityLine);
    if (page * EXPORT_PAGE_SIZE >= result.total) return;
  }
}

/**
 * The view (every page) as 'relatorio-atividades-DD-MM-YYYY.xlsx' / 'relatorio-imagens-DD-MM-YYYY.xlsx': the list's
 * columns first, then the slot, the collaborator, the photos and a link to the first photo (the streaming writer
 * cannot embed images; the link asks for the reader's session like the page does).
 */
export async function activitiesXlsxLoader(args: LoaderFunctionArgs, path: ActivityPath) {
  const frame = await reportFrame(args, path);
  const base = publicUrlOf(frame.api.context, frame.api.request);
  const columns: SheetColumn<ActivityLine>[] = [
    { header: "Ambiente", width: 30, value: (row) => row.ambiente },
    { header: "Empresa", width: 24, value: (row) => row.empresa },
    { header: "Data", width: 11, value: (row) => row.data },
    { header: "Horário", width: 15, value: (row) => row.horario },
    { header: "Feito?", width: 8, value: (row) => row.feito },
    { header: "Tipo", width: 10, value: (row) => row.tipo },
    { header: "Colaborador", width: 28, value: (row) => row.colaborador },
    { header: "Fotos", width: 8, value: (row) => row.fotos },
    {
      header: "Foto",
      width: 12,
      value: (row) => (row.foto ? { text: "Ver foto", hyperlink: `${base}${photoUrl(row.foto)}` } : "-"),
    },
  ];
  const mount = ACTIVITY_MOUNTS[path];
  return xlsxResponse(`${mount.fileName}-${fileDate()}.xlsx`, mount.title, columns, activityLines(frame, path), {
    onError: (error) => console.error(error),
  });
}

/**
 * 'Detalhes do Agendamento' / 'Detalhes' (§2.12): the slot's date, scheduled range, Feito or Pendente, the user, and
 * each procedure executed with its performed start and end (America/Fortaleza), observation and photo (a thumbnail
 * that opens the zoom page, whose 'Voltar' comes back here). Out of scope: 404.
 */
export async function activityDetailLoader(args: LoaderFunctionArgs, path: ActivityPath) {
  const frame = await reportFrame(args, path);
  const id = idParam(args.params.agendamentoId);
  const result = await activityDetail(frame.api, id, frame.scope);
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const here = new URL(args.request.url);
  const detail = result.data;
  const close = withQuery(path, listQuery(frame.search));
  return {
    title: ACTIVITY_MOUNTS[path].detailTitle,
    subtitle: `${detail.ambiente} · ${detail.empresa}`,
    close,
    data: formatDateBR(detail.data),
    horario: `${detail.horaIni} às ${detail.horaFim}`,
    tipo: detail.tipo,
    status: detail.status,
    colaborador: detail.colaborador,
    atividades: detail.atividades.map((activity) => ({
      id: activity.id,
      procedimento: activity.procedimento,
      inicio: time(activity.inicio),
      fim: time(activity.fim),
      observacao: activity.observacao?.trim() || "-",
      foto: activity.foto
        ? {
            thumb: photoThumbUrl(activity.foto),
            zoom: photoZoomUrl(activity.foto, `${here.pathname}${here.search}`),
          }
        : null,
    })),
  };
}
