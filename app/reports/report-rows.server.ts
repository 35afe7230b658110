import { lateSendText, PROOF_TEXTS, receivedIfDiffers } from "../../api/domain/field-proof";
import { PDF_MAX_ROWS, pdfRowLimitMessage, type PdfDocDefinition } from "../../api/domain/pdf";
import { REPORT_TEXTS } from "../../api/domain/reports";
import type { ReportRow, ReportRowsParams } from "../../api/routes/reports";

import { businessDateTime as dateTime } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { formatDateBR } from "~/lib/format";
import { keysetRows } from "~/lib/keyset.server";
import { pdfResponse } from "~/lib/pdf.server";
import { photoUrl } from "~/lib/photos";
import { publicUrlOf } from "~/lib/public-url.server";
import { xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";
import { reportRowsChunk } from "~/models/reports.server";
import { redirectWithToast } from "~/toast.server";

import type { ReportFrame } from "./frame.server";

/**
 * The report rows' downloads (spec 001 §3 'Report row', §9 export names and PDF titles; issue 23 §1): one column
 * list for the Excel file and the PDF, rows read from GET /relatorios/linhas chunk by chunk, so a download holds
 * every row of the view (the period, branch, collaborator, room or rooms' search the page shows), not one page.
 */

/** What narrows the rows: a collaborator, a room, or the rooms' search. */
export type ReportRowsFilter = Pick<ReportRowsParams, "userId" | "ambienteId" | "q" | "campos">;

/** A report row as the files show it: dates as dd/MM/yyyy, instants in the business time zone, '-' when missing. */
export type ReportLine = ReturnType<typeof reportLine>;
function reportLine(row: ReportRow) {
  return {
    ...row,
    data: formatDateBR(row.data),
    horario: `${row.horaIni} - ${row.horaFim}`,
    inicio: dateTime(row.inicio),
    fim: dateTime(row.fim),
    observacao: row.observacao?.trim() || "-",
    descricao: row.descricao?.trim() || "-",
    // The field app's proof (docs/field-app.md 'Proof flags'); '-' for a slot before it or with nothing to say.
    leituraQr: row.viaQr === null ? "-" : row.viaQr ? "Com leitura do QR" : PROOF_TEXTS.noQr,
    envio: lateSendText(row.envioAtrasoS) ?? "-",
    registradoEm: dateTime(row.registradoEm),
    registroRecebido: dateTime(receivedIfDiffers(row.registradoEm, row.registroRecebido)),
    inicioRecebido: dateTime(receivedIfDiffers(row.inicio, row.inicioRecebido)),
    fimRecebido: dateTime(receivedIfDiffers(row.fim, row.fimRecebido)),
  };
}

/** The columns, in the order of §3 'Report row'; `pdf` gives the width of those the A4 landscape PDF prints. */
export const REPORT_COLUMNS: (SheetColumn<ReportLine> & { pdf?: number })[] = [
  { header: "Agenda", width: 9, value: (row) => row.agendaId },
  { header: "Filial", width: 24, value: (row) => row.filial },
  { header: "Ambiente", width: 28, value: (row) => row.ambiente, pdf: 105 },
  { header: "Categoria", width: 18, value: (row) => row.categoria },
  { header: "Setor", width: 18, value: (row) => row.setor },
  { header: "Andar", width: 8, value: (row) => row.andar },
  { header: "Colaborador", width: 26, value: (row) => row.colaborador, pdf: 95 },
  { header: "Procedimento", width: 28, value: (row) => row.procedimento, pdf: 110 },
  { header: "Tipo", width: 10, value: (row) => row.tipo, pdf: 42 },
  { header: "Data", width: 11, value: (row) => row.data, pdf: 48 },
  { header: "Horário", width: 14, value: (row) => row.horario, pdf: 58 },
  { header: "Tempo estimado", width: 12, value: (row) => row.tempoEstimado, pdf: 44 },
  { header: "Início realizado", width: 19, value: (row) => row.inicio },
  { header: "Fim realizado", width: 19, value: (row) => row.fim },
  { header: "Tempo de execução", width: 12, value: (row) => row.tempoExecucao, pdf: 44 },
  { header: "Diferença", width: 12, value: (row) => row.diferenca, pdf: 48 },
  { header: "Observação", width: 30, value: (row) => row.observacao },
  { header: "Descrição", width: 30, value: (row) => row.descricao },
  { header: "Status", width: 14, value: (row) => row.status, pdf: 58 },
  // The field app's proof (Excel only: the PDF's ten columns fill the page). The received instants only where they
  // are a minute or more after the phone's.
  { header: "Leitura do QR", width: 18, value: (row) => row.leituraQr },
  { header: "Envio", width: 44, value: (row) => row.envio },
  { header: "Registrado em", width: 19, value: (row) => row.registradoEm },
  { header: "Registro recebido", width: 19, value: (row) => row.registroRecebido },
  { header: "Início recebido", width: 19, value: (row) => row.inicioRecebido },
  { header: "Fim recebido", width: 19, value: (row) => row.fimRecebido },
];

/** Every row of the view, chunk after chunk (the API's keyset), pulled as the download is written. */
export async function* reportLines(frame: ReportFrame, filter: ReportRowsFilter) {
  const rows = keysetRows(frame.api.request.signal, async (after) => {
    const result = await reportRowsChunk(frame.api, {
      dataIni: frame.period.from,
      dataFim: frame.period.to,
      ...frame.scope,
      ...filter,
      // 'Mostrar dados anteriores à Agosto/2022' ticked: the old system's rows first (docs/legacy-data.md).
      ...(frame.search.get("anteriores") === "1" ? { anteriores: "1" as const } : {}),
      after,
    });
    return result.ok ? result.data : failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  });
  for await (const row of rows) yield reportLine(row);
}

const logDownloadError = (error: unknown) => console.error(error);

/**
 * The view's rows as an .xlsx file, streamed, with a last column 'Foto': a link to the execution's photo (the web
 * app's photo route at the public address, which asks for the reader's session like the report does), '-' for none.
 */
export function reportRowsXlsx(frame: ReportFrame, filter: ReportRowsFilter, fileName: string) {
  const base = publicUrlOf(frame.api.context, frame.api.request);
  const photo: SheetColumn<ReportLine> = {
    header: "Foto",
    width: 12,
    value: (row) => (row.foto ? { text: "Ver foto", hyperlink: `${base}${photoUrl(row.foto)}` } : "-"),
  };
  return xlsxResponse(fileName, "Relatório", [...REPORT_COLUMNS, photo], reportLines(frame, filter), {
    onError: logDownloadError,
  });
}

/**
 * The view's rows as an A4 landscape PDF ('Relatório de Agendamentos', the period and what narrows it under the
 * title), built by the server's PDF pool. Past PDF_MAX_ROWS rows the PDF is refused: back to the page with a
 * toast that points to 'Exportar Excel'.
 */
export function reportRowsPdf(
  args: PdfArgs,
  frame: ReportFrame,
  filter: ReportRowsFilter,
  options: { fileName: string; subtitle: string; back: string },
) {
  const columns = REPORT_COLUMNS.filter((column) => column.pdf !== undefined) as PdfColumn<ReportLine>[];
  return tablePdf(args, reportLines(frame, filter), {
    ...options,
    title: REPORT_TEXTS.pdfTitle,
    columns,
    empty: "Nenhum agendamento no período.",
  });
}

type PdfArgs = { context: ReportFrame["api"]["context"]; request: Request };
/** A column of a report's PDF table: its header, its width in points and its text. */
export type PdfColumn<Row> = Pick<SheetColumn<Row>, "header" | "value"> & { pdf: number };

/**
 * A report's rows as an A4 landscape PDF table (the title and subtitle above it, the header row on every page,
 * 'Página x de y'), built by the server's PDF pool. The rows are pulled until PDF_MAX_ROWS: past it the PDF is
 * refused, back to the page (`back`) with a toast that points to 'Exportar Excel'.
 */
export async function tablePdf<Row>(
  args: PdfArgs,
  rows: AsyncIterable<Row>,
  options: {
    fileName: string;
    title: string;
    subtitle: string;
    back: string;
    columns: PdfColumn<Row>[];
    empty: string;
  },
) {
  const lines: Row[] = [];
  for await (const line of rows) {
    lines.push(line);
    if (lines.length > PDF_MAX_ROWS) break;
  }
  const refused = pdfRowLimitMessage(lines.length);
  if (refused)
    return redirectWithToast(args.context, options.back, {
      type: "info",
      title: "PDF muito grande",
      description: refused,
    });
  const { columns, title } = options;
  const cell = (value: ReturnType<SheetColumn<Row>["value"]>) =>
    value === null ? "" : typeof value === "object" ? value.text : String(value);
  const doc: PdfDocDefinition = {
    pageSize: "A4",
    pageOrientation: "landscape",
    pageMargins: [24, 36, 24, 36],
    info: { title },
    footer: { text: "Página {page} de {pages}", alignment: "right", fontSize: 8, margin: [0, 10, 24, 0] },
    defaultStyle: { fontSize: 7 },
    content: [
      { text: title, fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      { text: options.subtitle, fontSize: 9, margin: [0, 0, 0, 8] },
      lines.length === 0
        ? { text: options.empty }
        : {
            table: {
              headerRows: 1,
              widths: columns.map((column) => column.pdf),
              body: [
                columns.map((column) => ({ text: column.header, bold: true })),
                ...lines.map((line) => columns.map((column) => cell(column.value(line)))),
              ],
            },
            layout: "lightHorizontalLines",
          },
    ],
  };
  return pdfResponse(args as Parameters<typeof pdfResponse>[0], doc, options.fileName);
}

/** 'De dd/MM/yyyy até dd/MM/yyyy' (the PDF's subtitle and the dialogs'). */
export const periodText = (frame: ReportFrame) =>
  `De ${formatDateBR(frame.period.from)} até ${formatDateBR(frame.period.to)}`;
