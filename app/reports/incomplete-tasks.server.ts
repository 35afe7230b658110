import type { LoaderFunctionArgs } from "@remix-run/node";

import {
  DEFAULT_INCOMPLETE_FILTER,
  INCOMPLETE_TEXTS,
  incompleteFilter,
  incompletePeriod,
  type IncompleteFilter,
} from "../../api/domain/incomplete-tasks";
import { formatCpfText, formatPhone } from "../../api/domain/masks";
import { REPORT_TEXTS } from "../../api/domain/reports";

import { avatarFullUrl, avatarThumbUrl } from "~/lib/avatars";
import { businessDateTime } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { formatDateBR } from "~/lib/format";
import { apiListQuery, idParam, readListParams, textParam, type ListParams } from "~/lib/list-params";
import { fileDate, xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";
import {
  incompleteProceduresPage,
  procedureHistoryPage,
  roomIncompletePage,
  type IncompleteTask,
} from "~/models/incomplete-tasks.server";

import { listQuery, reportFrame, type ReportFrame } from "./frame.server";
import { dialogPage, dialogPager, withQuery } from "./report-links";
import { periodText, tablePdf, type PdfColumn } from "./report-rows.server";

/**
 * /tarefas-incompletas (spec 001 §2.11, issue 24 §1; docs/incomplete-tasks.md): the grid of procedure names, the
 * procedure's history ('Histórico do Procedimento', a drill-down with its PDF and Excel) and a room's incomplete
 * slots ('Tarefas Incompletas de {room}'). The URL is the state; the drill-downs keep the list's query.
 */

export const INCOMPLETE_PATH = "/tarefas-incompletas";
const PROCEDURE_PATH = `${INCOMPLETE_PATH}/procedimento`;
const DIALOG_PAGE_SIZE = 20;
const EXPORT_PAGE_SIZE = 160;

export type IncompleteListState = ListParams & {
  inicio: string;
  fim: string;
  filial: number | null;
  campo: IncompleteFilter;
  anteriores: boolean;
};

/**
 * The frame and the list's state. 'Filtrar por' is single-select (§2.15): 'Intervalo de datas' searches by the two
 * dates alone, any other choice searches its field in the default period (the first of the month to today).
 */
async function incompleteFrame(args: LoaderFunctionArgs) {
  const campo = incompleteFilter(new URL(args.request.url).searchParams.get("campo"));
  const frame = await reportFrame(args, INCOMPLETE_PATH, {
    period: (dates, today) => incompletePeriod(campo === "datas" ? dates : {}, today),
  });
  const list = readListParams(`${INCOMPLETE_PATH}?${frame.search}`, "nome");
  const q = campo === "datas" ? "" : list.q.trim();
  const anteriores = frame.search.get("anteriores") === "1";
  const state: IncompleteListState = {
    ...list,
    q,
    inicio: frame.period.from,
    fim: frame.period.to,
    filial: frame.filial,
    campo,
    anteriores,
  };
  state.extra = [
    ...(campo === "datas"
      ? ([
          ["inicio", state.inicio],
          ["fim", state.fim],
        ] as [string, string][])
      : []),
    ...(frame.filial ? ([["filial", String(frame.filial)]] as [string, string][]) : []),
    ...(campo !== DEFAULT_INCOMPLETE_FILTER ? ([["campo", campo]] as [string, string][]) : []),
    ...(anteriores ? ([["anteriores", "1"]] as [string, string][]) : []),
  ];
  const query = {
    dataIni: frame.period.from,
    dataFim: frame.period.to,
    ...frame.scope,
    campo: campo === "datas" ? undefined : campo,
    q: q || undefined,
    anteriores: anteriores ? ("1" as const) : undefined,
  };
  return { frame, state, query };
}

const procedureHref = (nome: string, list: URLSearchParams) => withQuery(PROCEDURE_PATH, list, { tarefa: nome });

/** The grid: one page of procedure names, each opening its history. */
export async function incompleteListLoader(args: LoaderFunctionArgs) {
  const { frame, state, query } = await incompleteFrame(args);
  const result = await incompleteProceduresPage(frame.api, { ...query, ...apiListQuery(state), q: query.q });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const list = listQuery(frame.search);
  return {
    state,
    listQuery: list.toString(),
    period: periodText(frame),
    notice: frame.notice,
    branches: frame.branches,
    total: result.data.total,
    procedures: result.data.items.map((item) => ({ ...item, href: procedureHref(item.nome, list) })),
  };
}

/** Every procedure name of the view (all pages) as 'relatorio-tarefas-incompletas-DD-MM-YYYY.xlsx'. */
export async function incompleteListXlsxLoader(args: LoaderFunctionArgs) {
  const { frame, query } = await incompleteFrame(args);
  async function* names() {
    for (let page = 1; ; page++) {
      const result = await incompleteProceduresPage(frame.api, { ...query, page, size: EXPORT_PAGE_SIZE });
      if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
      yield* result.data.items;
      if (page * EXPORT_PAGE_SIZE >= result.data.total) return;
    }
  }
  const columns: SheetColumn<{ nome: string; tarefas: number }>[] = [
    { header: "Procedimento", width: 40, value: (row) => row.nome },
    { header: "Tarefas incompletas", width: 20, value: (row) => row.tarefas },
  ];
  return xlsxResponse(`relatorio-tarefas-incompletas-${fileDate()}.xlsx`, "Tarefas Incompletas", columns, names(), {
    onError: (error) => console.error(error),
  });
}

/** A task card as the dialog, the Excel file and the PDF show it: dates and times in Fortaleza, '-' for blanks. */
function taskCard(task: IncompleteTask) {
  return {
    id: `${task.agendamentoId}-${task.procedimento}`,
    procedimento: task.procedimento,
    inicio: businessDateTime(task.inicio),
    fim: businessDateTime(task.fim),
    observacao: task.observacao?.trim() || "-",
    data: formatDateBR(task.data),
    ambiente: task.ambiente,
    colaborador: task.colaborador.nome,
    avatar: task.colaborador.avatar,
    cpf: task.colaborador.cpf ? formatCpfText(task.colaborador.cpf) : "-",
    email: task.colaborador.email || "-",
    telefone: task.colaborador.telefone ? formatPhone(task.colaborador.telefone) : "-",
  };
}
export type TaskCard = ReturnType<typeof taskCard>;

/** The viewer's photo and name: a collaborator of the cards shown, else none. */
function avatarOf(cards: TaskCard[], name: string | null) {
  const card = name ? cards.find((item) => item.avatar === name) : undefined;
  return card?.avatar ? { src: avatarFullUrl(card.avatar), nome: card.colaborador } : null;
}

/** The procedure of the URL (`tarefa`), else back to the list. */
function procedureOf(frame: ReportFrame) {
  const nome = textParam(frame.search.get("tarefa"));
  if (!nome) throw new Response("Não encontrado", { status: 404 });
  return nome;
}

/**
 * 'Histórico do Procedimento': the procedure's incomplete tasks in the period (the list's search still applies),
 * 20 a page (`itens`), the dialog's search (`busca`); `avatar` shows one collaborator's photo in the viewer.
 */
export async function procedureHistoryLoader(args: LoaderFunctionArgs) {
  const { frame, query } = await incompleteFrame(args);
  const nome = procedureOf(frame);
  const busca = textParam(frame.search.get("busca"));
  const page = dialogPage(frame.search, "itens");
  const result = await procedureHistoryPage(frame.api, {
    ...query,
    nome,
    busca: busca || undefined,
    page,
    size: DIALOG_PAGE_SIZE,
  });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const here = new URL(args.request.url);
  const list = listQuery(frame.search);
  const self = withQuery(PROCEDURE_PATH, here.search, { avatar: null });
  const avatarName = frame.search.get("avatar");
  const cards = result.data.items.map(taskCard);
  const exportQuery = withQuery("", here.search, { itens: null, avatar: null }).replace(/^\?/, "");
  return {
    nome,
    period: periodText(frame),
    busca,
    hidden: [...frame.search.entries()].filter(([name]) => !["busca", "itens", "avatar"].includes(name)),
    cards: cards.map((card) => ({
      ...card,
      avatarThumb: card.avatar ? avatarThumbUrl(card.avatar) : null,
      avatarHref: card.avatar ? withQuery(PROCEDURE_PATH, here.search, { avatar: card.avatar }) : null,
      roomHref: withQuery(`${INCOMPLETE_PATH}/ambiente/${card.ambiente.id}`, list, { tarefa: nome }),
    })),
    // The avatar viewer shows a collaborator of this page only (the file name must be one the answer gave).
    avatar: avatarOf(cards, avatarName),
    back: self,
    close: withQuery(INCOMPLETE_PATH, list),
    pager: dialogPager(here, "itens", page, result.data.total, DIALOG_PAGE_SIZE),
    excel: `${PROCEDURE_PATH}/exportar.xlsx?${exportQuery}`,
    pdf: `${PROCEDURE_PATH}/exportar.pdf?${exportQuery}`,
  };
}

/** Every task of the procedure's history (its searches, all pages), pulled as a download is written. */
async function* procedureTasks(args: LoaderFunctionArgs) {
  const { frame, query } = await incompleteFrame(args);
  const nome = procedureOf(frame);
  const busca = textParam(frame.search.get("busca")) || undefined;
  for (let page = 1; ; page++) {
    const result = await procedureHistoryPage(frame.api, { ...query, nome, busca, page, size: EXPORT_PAGE_SIZE });
    if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
    yield* result.data.items.map(taskCard);
    if (page * EXPORT_PAGE_SIZE >= result.data.total) return;
  }
}

const TASK_COLUMNS: (SheetColumn<TaskCard> & { pdf?: number })[] = [
  { header: "Procedimento", width: 30, value: (row) => row.procedimento, pdf: 110 },
  { header: "Data", width: 12, value: (row) => row.data, pdf: 50 },
  { header: "Início", width: 20, value: (row) => row.inicio, pdf: 72 },
  { header: "Fim", width: 20, value: (row) => row.fim, pdf: 72 },
  { header: "Observação", width: 40, value: (row) => row.observacao, pdf: 150 },
  { header: "Ambiente", width: 28, value: (row) => row.ambiente.nome, pdf: 100 },
  { header: "Colaborador", width: 26, value: (row) => row.colaborador, pdf: 100 },
  { header: "CPF", width: 16, value: (row) => row.cpf, pdf: 60 },
  { header: "E-mail", width: 30, value: (row) => row.email },
  { header: "Telefone", width: 18, value: (row) => row.telefone },
];

/** The procedure's history as 'relatorio-procedimentos-DD-MM-YYYY.xlsx' (§9). */
export async function procedureXlsxLoader(args: LoaderFunctionArgs) {
  return xlsxResponse(
    `relatorio-procedimentos-${fileDate()}.xlsx`,
    "Histórico do Procedimento",
    TASK_COLUMNS,
    procedureTasks(args),
    { onError: (error) => console.error(error) },
  );
}

/** The same as 'relatorio-procedimentos-DD-MM-YYYY.pdf', titled 'Histórico do Procedimento' (§9). */
export async function procedurePdfLoader(args: LoaderFunctionArgs) {
  const { frame } = await incompleteFrame(args);
  const nome = procedureOf(frame);
  return tablePdf(args, procedureTasks(args), {
    fileName: `relatorio-procedimentos-${fileDate()}.pdf`,
    title: INCOMPLETE_TEXTS.procedureTitle,
    subtitle: `${nome} · ${periodText(frame)}`,
    back: withQuery(PROCEDURE_PATH, frame.search),
    columns: TASK_COLUMNS.filter((column): column is PdfColumn<TaskCard> & SheetColumn<TaskCard> => !!column.pdf),
    empty: INCOMPLETE_TEXTS.procedureEmpty,
  });
}

/** 'Tarefas Incompletas de {room}': the room's incomplete slots, 20 a page (`itens`), searched (`busca`). */
export async function roomIncompleteLoader(args: LoaderFunctionArgs) {
  const { frame } = await incompleteFrame(args);
  const id = idParam(args.params.ambienteId);
  const busca = textParam(frame.search.get("busca"));
  const page = dialogPage(frame.search, "itens");
  const result = await roomIncompletePage(frame.api, id, {
    dataIni: frame.period.from,
    dataFim: frame.period.to,
    ...frame.scope,
    busca: busca || undefined,
    page,
    size: DIALOG_PAGE_SIZE,
  });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const here = new URL(args.request.url);
  const list = listQuery(frame.search);
  const tarefa = frame.search.get("tarefa");
  return {
    title: INCOMPLETE_TEXTS.roomTitle(result.data.ambiente),
    period: periodText(frame),
    busca,
    hidden: [...frame.search.entries()].filter(([name]) => !["busca", "itens"].includes(name)),
    slots: result.data.items.map((slot) => ({
      ...slot,
      data: formatDateBR(slot.data),
      motivo: slot.motivo?.trim() || "-",
      avatar: slot.colaborador.avatar ? avatarThumbUrl(slot.colaborador.avatar) : null,
    })),
    // Opened from a procedure's card: 'Voltar' goes back to that procedure's history.
    back: tarefa ? withQuery(PROCEDURE_PATH, list, { tarefa }) : withQuery(INCOMPLETE_PATH, list),
    close: withQuery(INCOMPLETE_PATH, list),
    pager: dialogPager(here, "itens", page, result.data.total, DIALOG_PAGE_SIZE),
  };
}
