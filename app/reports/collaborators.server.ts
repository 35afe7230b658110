import type { LoaderFunctionArgs } from "@remix-run/node";

import { formatCpfText, formatPhone } from "../../api/domain/masks";
import { REPORT_TEXTS } from "../../api/domain/reports";
import { can } from "../../api/domain/roles";

import { avatarThumbUrl } from "~/lib/avatars";
import { failLoad } from "~/lib/fail-load.server";
import { apiListQuery } from "~/lib/list-params";
import { fileDate, xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";
import { collaboratorReportPage } from "~/models/reports.server";

import { COLLABORATOR_COLUMNS, COLLABORATOR_FIELDS, COLLABORATORS_DEFAULT_SORT } from "./collaborator-report";
import { listQuery, reportFrame, reportListState, type ReportFrame, type ReportListState } from "./frame.server";

export const COLLABORATORS_PATH = "/historico-colaboradores";
const EXPORT_PAGE_SIZE = 160;

/**
 * The report's URL state: the list's, 'Mostrar dados anteriores à Agosto/2022' (§2.9) and the visible columns
 * (`colunas`, the column-filter dialog: all when none is given), kept in the URL like the rest.
 */
export type CollaboratorReportState = ReportListState & {
  anteriores: boolean;
  colunas: string[];
  /** The field app's proof filters (docs/field-app.md 'Proof flags'): `semQr=1`, `atraso=1`. */
  semQr: boolean;
  atraso: boolean;
};

/** The list's state and its API query, read from the frame (the list page and its Excel export read the same). */
export function collaboratorListQuery(frame: ReportFrame) {
  const personal = can(frame.api.auth.user, "manageRegisters");
  const fields = COLLABORATOR_FIELDS.filter((field) => personal || field.key === "colaborador");
  const anteriores = frame.search.get("anteriores") === "1";
  const semQr = frame.search.get("semQr") === "1";
  const atraso = frame.search.get("atraso") === "1";
  const columns = COLLABORATOR_COLUMNS.filter(
    (column) => personal || !(["cpf", "email", "telefone"] as string[]).includes(column.key),
  );
  const ticked = columns
    .map((column) => column.key as string)
    .filter((key) => frame.search.getAll("colunas").includes(key));
  const colunas = ticked.length ? ticked : columns.map((column) => column.key as string);
  const state: CollaboratorReportState = {
    ...reportListState(frame, COLLABORATORS_PATH, {
      defaultSort: COLLABORATORS_DEFAULT_SORT,
      fields,
      defaultField: "colaborador",
      keep: [
        ...(anteriores ? [["anteriores", "1"] as [string, string]] : []),
        ...(semQr ? [["semQr", "1"] as [string, string]] : []),
        ...(atraso ? [["atraso", "1"] as [string, string]] : []),
        ...(ticked.length && ticked.length < columns.length
          ? ticked.map((key) => ["colunas", key] as [string, string])
          : []),
      ],
    }),
    anteriores,
    colunas,
    semQr,
    atraso,
  };
  const query = {
    ...apiListQuery(state),
    dataIni: state.inicio,
    dataFim: state.fim,
    ...frame.scope,
    campos: state.campos.join(","),
    // 'Mostrar dados anteriores à Agosto/2022': the old system's rows counted too (docs/legacy-data.md).
    ...(anteriores ? { anteriores: "1" as const } : {}),
    // 'Sem leitura do QR' / 'Enviado com atraso': only those slots are counted (the API filters in SQL).
    ...(semQr ? { semQr: "1" as const } : {}),
    ...(atraso ? { atraso: "1" as const } : {}),
  };
  return { state, query, fields, columns, personal };
}

export type CollaboratorRow = ReturnType<typeof collaboratorRow>;

/** A collaborator row as the page and the Excel file show it ('-' for what is missing or not to be shown). */
export function collaboratorRow(item: Awaited<ReturnType<typeof loadPage>>["items"][number]) {
  return {
    id: item.id,
    nome: item.nome,
    avatarUrl: item.avatar ? avatarThumbUrl(item.avatar) : null,
    filial: item.filial ?? "-",
    cpf: item.cpf ? formatCpfText(item.cpf) : "-",
    email: item.email || "-",
    telefone: item.telefone ? formatPhone(item.telefone) : "-",
    dataNascimento: item.dataNascimento ? item.dataNascimento.slice(0, 10).split("-").reverse().join("/") : "-",
    agendamentos: item.agendamentos,
    completos: item.completos,
    incompletos: item.incompletos,
    naoRealizados: item.naoRealizados,
  };
}

async function loadPage(frame: ReportFrame, query: Parameters<typeof collaboratorReportPage>[1]) {
  const result = await collaboratorReportPage(frame.api, query);
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  return result.data;
}

/**
 * /historico-colaboradores (spec 001 §2.9): one page of collaborators with bookings in the period. The name opens
 * the collaborator's history and the avatar 'Detalhes do Colaborador' (drill-down routes under this one).
 */
export async function collaboratorsLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, COLLABORATORS_PATH);
  const { state, query, fields, columns, personal } = collaboratorListQuery(frame);
  const page = await loadPage(frame, query);
  return {
    state,
    listQuery: listQuery(frame.search).toString(),
    notice: frame.notice,
    branches: frame.branches,
    fields,
    columns,
    personal,
    total: page.total,
    rows: page.items.map(collaboratorRow),
  };
}

/** The rows of every page of the list as shown (its filters, search and order), for the Excel file. */
export async function* collaboratorRows(frame: ReportFrame) {
  const { query } = collaboratorListQuery(frame);
  for (let page = 1; ; page++) {
    // The largest page size, page after page, until the last.
    const result = await loadPage(frame, { ...query, page, size: EXPORT_PAGE_SIZE });
    yield* result.items.map(collaboratorRow);
    if (page * EXPORT_PAGE_SIZE >= result.total) return;
  }
}

/** The Excel file's column of each column of the list (its header is the list's label). */
const SHEET_COLUMNS: Record<string, Omit<SheetColumn<CollaboratorRow>, "header">> = {
  nome: { width: 30, value: (row) => row.nome },
  filial: { width: 24, value: (row) => row.filial },
  cpf: { width: 16, value: (row) => row.cpf },
  email: { width: 30, value: (row) => row.email },
  telefone: { width: 18, value: (row) => row.telefone },
  agendamentos: { width: 14, value: (row) => row.agendamentos },
  completos: { width: 12, value: (row) => row.completos },
  incompletos: { width: 12, value: (row) => row.incompletos },
  naoRealizados: { width: 14, value: (row) => row.naoRealizados },
};

/**
 * The list as shown (every page, its filters, search, order and visible columns) as
 * 'relatorio-colaboradores-DD-MM-YYYY.xlsx'.
 */
export async function collaboratorsXlsxLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, COLLABORATORS_PATH);
  const { state, columns } = collaboratorListQuery(frame);
  const shown = [
    { key: "nome", label: "Colaborador" },
    ...columns.filter((column) => state.colunas.includes(column.key)),
  ].map((column) => ({ header: column.label, ...SHEET_COLUMNS[column.key] }));
  return xlsxResponse(`relatorio-colaboradores-${fileDate()}.xlsx`, "Colaboradores", shown, collaboratorRows(frame), {
    onError: (error) => console.error(error),
  });
}
