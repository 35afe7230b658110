import { PassThrough } from "node:stream";

import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import ExcelJS from "exceljs";

import {
  CLIENT_PERIOD_PRESETS,
  CLIENT_REPORT_PDF_PHOTOS,
  CLIENT_REPORT_TEXTS as T,
  defaultClientPeriod,
  formatPercent,
  OUTCOME_LABELS as L,
  presetPeriod,
  type ClientPeriodPreset,
} from "../../api/domain/client-report";
import { percent } from "../../api/domain/inspections";
import type { PdfDocDefinition } from "../../api/domain/pdf";
import { REPORT_TEXTS, reportPeriod } from "../../api/domain/reports";
import { can } from "../../api/domain/roles";
import { businessToday } from "../../api/domain/schedule-expansion";
import type { ClientReportAnswer } from "../../api/routes/report-client";

import { XLSX_TYPE } from "~/lib/downloads.server";
import { failLoad } from "~/lib/fail-load.server";
import { formatDateBR } from "~/lib/format";
import { pdfResponse } from "~/lib/pdf.server";
import { fileDate } from "~/lib/xlsx.server";
import { inspectionScores } from "~/models/inspections.server";
import { clientReport } from "~/models/reports.server";

import {
  countedNote,
  reportSubtitle,
  slotTime,
  toleranceNote,
  weekLabel,
  type ClientReportFigures,
} from "./client-report-format";
import { reportFrame, type PeriodRule, type ReportFrame } from "./frame.server";
import { withQuery } from "./report-links";

/**
 * /relatorio-cliente (issue 24 part 3; docs/decisions/006-client-report.md): one branch and one period. The client
 * (roleId 7) reads its own branch; company-wide users choose one (no 'Todos'); branch-level users read theirs. The
 * page, the PDF and the Excel file read the same answer of GET /relatorios/cliente.
 */

export const CLIENT_REPORT_PATH = "/relatorio-cliente";

/** No dates in the URL: the last complete month; otherwise the reports' rule (§5: not after today, at most a year). */
export const clientPeriodRule: PeriodRule = (query, today) =>
  !query.inicio?.trim() && !query.fim?.trim()
    ? { ok: true, period: defaultClientPeriod(today), cut: false }
    : reportPeriod(query, today);

const isPreset = (value: string | null): value is ClientPeriodPreset =>
  value !== null && Object.hasOwn(CLIENT_PERIOD_PRESETS, value);

/** A preset button ('Semana passada', 'Mês passado') sends `periodo`: its dates go into the URL, so a link keeps them. */
function presetRedirect(request: Request) {
  const url = new URL(request.url);
  const preset = url.searchParams.get("periodo");
  if (!url.searchParams.has("periodo")) return;
  const search = new URLSearchParams(url.searchParams);
  search.delete("periodo");
  search.delete("inicioAnterior");
  search.delete("fimAnterior");
  if (isPreset(preset)) {
    const period = presetPeriod(preset, businessToday());
    search.set("inicio", period.from);
    search.set("fim", period.to);
  }
  throw redirect(withQuery(url.pathname, search));
}

type ClientReportView = {
  frame: ReportFrame;
  /** The view's own query (period and branch): the downloads and the photo zoom's way back keep it. */
  query: string;
  report: ClientReportAnswer | null;
};

async function clientReportView(args: LoaderFunctionArgs): Promise<ClientReportView> {
  presetRedirect(args.request);
  const frame = await reportFrame(args, CLIENT_REPORT_PATH, { period: clientPeriodRule });
  const query = new URLSearchParams({ inicio: frame.period.from, fim: frame.period.to });
  if (frame.filial) query.set("filial", String(frame.filial));
  // A company-wide user has not chosen a branch yet: the form only.
  if (frame.branches && !frame.filial) return { frame, query: query.toString(), report: null };
  const result = await clientReport(frame.api, {
    dataIni: frame.period.from,
    dataFim: frame.period.to,
    ...frame.scope,
  });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  return { frame, query: query.toString(), report: result.data };
}

/**
 * The period's inspection scores of the branch, by room (issue 29 §4): the page's 'Inspeções' section. Only for users
 * who may read inspections; a failure leaves the section out rather than the report.
 */
async function inspectionScoresOf(frame: ReportFrame) {
  if (!can(frame.api.auth.user, "viewInspections")) return null;
  const query = { dataIni: frame.period.from, dataFim: frame.period.to, filialId: frame.filial ?? undefined };
  // The branch's totals from its own group (the rooms' list stops at 160), the rooms' means beside.
  const [branch, rooms] = await Promise.all([
    inspectionScores(frame.api, { ...query, agrupar: "filial" }),
    inspectionScores(frame.api, { ...query, agrupar: "ambiente" }),
  ]);
  if (!branch.ok || !rooms.ok) return null;
  const total = branch.data.items[0];
  return {
    total: total?.inspecoes ?? 0,
    aprovadas: total?.aprovadas ?? 0,
    mediaText: total ? percent(total.media) : null,
    rows: rooms.data.items.map((row) => ({ ...row, mediaText: percent(row.media) })),
  };
}

export async function clientReportLoader(args: LoaderFunctionArgs) {
  const { frame, query, report } = await clientReportView(args);
  return {
    inspecoes: report ? await inspectionScoresOf(frame) : null,
    inicio: frame.period.from,
    fim: frame.period.to,
    filial: frame.filial,
    branches: frame.branches,
    notice: frame.notice,
    query,
    report,
  };
}

/** The downloads need a branch: a company-wide user without one goes back to the page (which asks for it). */
async function downloadView(args: LoaderFunctionArgs) {
  const view = await clientReportView(args);
  if (!view.report) throw redirect(withQuery(CLIENT_REPORT_PATH, view.query));
  return { ...view, report: view.report };
}

// ---------------------------------------------------------------------------------------------------------------
// What the page, the PDF and the Excel file share

type Figures = ClientReportFigures;

/** A group's columns (the tables by room and by week, in the three outputs). */
const FIGURE_COLUMNS: { header: string; width: number; value: (row: Figures) => number | string }[] = [
  { header: L.agendadas, width: 11, value: (row) => row.agendadas },
  { header: L.noPrazo, width: 10, value: (row) => row.noPrazo },
  { header: L.atrasadas, width: 11, value: (row) => row.atrasadas },
  { header: L.naoRealizadas, width: 13, value: (row) => row.naoRealizadas },
  { header: L.pendentes, width: 12, value: (row) => row.pendentes },
  { header: `% ${L.concluidas.toLowerCase()}`, width: 13, value: (row) => formatPercent(row.percentuais.concluidas) },
];

// ---------------------------------------------------------------------------------------------------------------
// Excel: Resumo, Por ambiente, Por semana, Ocorrências

const share = (value: number | null) => (value === null ? "-" : value);

/** 'relatorio-cliente-DD-MM-YYYY.xlsx': four sheets of a bounded report (rooms, weeks, 30 incidents). */
export async function clientReportXlsxLoader(args: LoaderFunctionArgs) {
  const { report } = await downloadView(args);
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve, reject) => {
    output.on("end", resolve);
    output.on("error", reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = (name: string, columns: { header: string; width: number }[], rows: (string | number | null)[][]) => {
    const worksheet = workbook.addWorksheet(name);
    worksheet.columns = columns.map((column) => ({ header: column.header, width: column.width }));
    worksheet.getRow(1).font = { bold: true };
    worksheet.getRow(1).commit();
    for (const row of rows) worksheet.addRow(row).commit();
    worksheet.commit();
  };
  const r = report.resumo;
  sheet(
    "Resumo",
    [
      { header: "Indicador", width: 34 },
      { header: "Limpezas", width: 12 },
      { header: "% das agendadas", width: 16 },
    ],
    [
      ["Filial", report.filial.nome, null],
      ["Período", `${formatDateBR(report.periodo.dataIni)} a ${formatDateBR(report.periodo.dataFim)}`, null],
      ["Contadas até", formatDateBR(report.periodo.contadoAte), null],
      ["Tolerância de atraso (minutos)", report.toleranciaMinutos, null],
      [L.agendadas, r.agendadas, share(r.agendadas ? 100 : null)],
      [L.concluidas, r.concluidas, share(r.percentuais.concluidas)],
      [L.noPrazo, r.noPrazo, share(r.percentuais.noPrazo)],
      [L.atrasadas, r.atrasadas, share(r.percentuais.atrasadas)],
      [L.naoRealizadas, r.naoRealizadas, share(r.percentuais.naoRealizadas)],
      [L.naoIniciadas, r.naoIniciadas, null],
      [L.incompletas, r.incompletas, null],
      [L.naoConcluidas, r.naoConcluidas, null],
      [L.pendentes, r.pendentes, share(r.percentuais.pendentes)],
    ],
  );
  const figureHeaders = [
    { header: L.agendadas, width: 11 },
    { header: L.concluidas, width: 11 },
    { header: L.noPrazo, width: 10 },
    { header: L.atrasadas, width: 11 },
    { header: L.naoRealizadas, width: 13 },
    { header: L.naoIniciadas, width: 13 },
    { header: L.incompletas, width: 12 },
    { header: L.naoConcluidas, width: 24 },
    { header: L.pendentes, width: 16 },
    { header: "% concluídas", width: 13 },
    { header: "% no prazo", width: 11 },
    { header: "% com atraso", width: 13 },
    { header: "% não realizadas", width: 16 },
    { header: "% pendentes", width: 12 },
  ];
  const figureCells = (row: Figures) => [
    row.agendadas,
    row.concluidas,
    row.noPrazo,
    row.atrasadas,
    row.naoRealizadas,
    row.naoIniciadas,
    row.incompletas,
    row.naoConcluidas,
    row.pendentes,
    share(row.percentuais.concluidas),
    share(row.percentuais.noPrazo),
    share(row.percentuais.atrasadas),
    share(row.percentuais.naoRealizadas),
    share(row.percentuais.pendentes),
  ];
  sheet(
    "Por ambiente",
    [{ header: "Ambiente", width: 32 }, ...figureHeaders],
    report.ambientes.map((room) => [room.ambiente, ...figureCells(room)]),
  );
  sheet(
    "Por semana",
    [{ header: "Início", width: 12 }, { header: "Fim", width: 12 }, ...figureHeaders],
    report.semanas.map((week) => [formatDateBR(week.inicio), formatDateBR(week.fim), ...figureCells(week)]),
  );
  const rest = report.ocorrencias.total - report.ocorrencias.items.length;
  sheet(
    "Ocorrências",
    [
      { header: "Data", width: 12 },
      { header: "Horário", width: 14 },
      { header: "Tipo", width: 10 },
      { header: "Ambiente", width: 30 },
      { header: "Colaborador", width: 26 },
      { header: "Motivo", width: 50 },
    ],
    [
      ...report.ocorrencias.items.map((incident) => [
        formatDateBR(incident.data),
        slotTime(incident),
        incident.tipo,
        incident.ambiente,
        incident.colaborador,
        incident.justificativa?.trim() || "-",
      ]),
      ...(rest > 0 ? [[T.moreIncidents(rest), null, null, null, null, null]] : []),
    ],
  );
  await workbook.commit();
  await done;
  const bytes = Buffer.concat(chunks);
  return new Response(bytes, {
    headers: {
      "content-type": XLSX_TYPE,
      "content-disposition": `attachment; filename="relatorio-cliente-${fileDate()}.xlsx"`,
      "content-length": String(bytes.byteLength),
      "cache-control": "no-store",
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// PDF: A4 portrait, each section from a new page, the tables' header on every page, a stacked bar per row

const BAR_WIDTH = 90;
const BAR_COLOURS = { noPrazo: "#00884A", atrasadas: "#C98A00", naoRealizadas: "#D9480F", pendentes: "#9AA5B1" };

/** The row's stacked bar as pdfmake canvas rectangles (no image, no function: it crosses to the worker). */
function pdfBar(row: Figures) {
  if (!row.agendadas) return { text: "-" };
  let x = 0;
  const parts = (["noPrazo", "atrasadas", "naoRealizadas", "pendentes"] as const).flatMap((key) => {
    const w = (row[key] / row.agendadas) * BAR_WIDTH;
    const rect = { type: "rect", x, y: 1, w, h: 8, color: BAR_COLOURS[key] };
    x += w;
    return w > 0 ? [rect] : [];
  });
  return { canvas: [{ type: "rect", x: 0, y: 1, w: BAR_WIDTH, h: 8, color: "#EEF1F4" }, ...parts] };
}

function pdfFigureTable(first: string, rows: { label: string; figures: Figures }[]) {
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: ["*", ...FIGURE_COLUMNS.map(() => 44), BAR_WIDTH],
      body: [
        [first, ...FIGURE_COLUMNS.map((column) => column.header), "Distribuição"].map((text) => ({ text, bold: true })),
        ...rows.map(({ label, figures }) => [
          label,
          ...FIGURE_COLUMNS.map((column) => ({ text: String(column.value(figures)), alignment: "right" })),
          pdfBar(figures),
        ]),
      ],
    },
    layout: "lightHorizontalLines",
  };
}

const heading = (text: string, pageBreak = true) => ({
  text,
  fontSize: 13,
  bold: true,
  margin: [0, 0, 0, 6],
  ...(pageBreak ? { pageBreak: "before" } : {}),
});

export async function clientReportPdfLoader(args: LoaderFunctionArgs) {
  const { report } = await downloadView(args);
  const r = report.resumo;
  const photos = report.fotos
    .flatMap((room) => room.fotos.map((photo) => ({ ...photo, ambiente: room.ambiente })))
    .slice(0, CLIENT_REPORT_PDF_PHOTOS);
  const images = Object.fromEntries(
    photos.map((photo, index) => [`foto${index}`, { storage: { folder: "photos", name: photo.nome } }]),
  );
  const rest = report.ocorrencias.total - report.ocorrencias.items.length;
  const legend = (["noPrazo", "atrasadas", "naoRealizadas", "pendentes"] as const).map((key) => ({
    text: [{ text: "■ ", color: BAR_COLOURS[key] }, L[key]],
    margin: [0, 0, 10, 0],
    width: "auto",
  }));
  const doc: PdfDocDefinition = {
    pageSize: "A4",
    pageOrientation: "portrait",
    pageMargins: [32, 40, 32, 40],
    info: { title: T.pdfTitle },
    footer: { text: "Página {page} de {pages}", alignment: "right", fontSize: 8, margin: [0, 10, 32, 0] },
    defaultStyle: { fontSize: 8 },
    images,
    content: [
      { text: T.pdfTitle, fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      { text: reportSubtitle(report) + countedNote(report), fontSize: 10, margin: [0, 0, 0, 2] },
      { text: toleranceNote(report), fontSize: 9, color: "#555555", margin: [0, 0, 0, 10] },
      heading("Resumo", false),
      {
        table: {
          headerRows: 1,
          widths: ["*", 70, 80],
          body: [
            ["Limpezas", "Quantidade", "% das agendadas"].map((text) => ({ text, bold: true })),
            [L.agendadas, String(r.agendadas), r.agendadas ? "100,0 %" : "-"],
            [L.concluidas, String(r.concluidas), formatPercent(r.percentuais.concluidas)],
            [`   ${L.noPrazo}`, String(r.noPrazo), formatPercent(r.percentuais.noPrazo)],
            [`   ${L.atrasadas}`, String(r.atrasadas), formatPercent(r.percentuais.atrasadas)],
            [L.naoRealizadas, String(r.naoRealizadas), formatPercent(r.percentuais.naoRealizadas)],
            [`   ${L.naoIniciadas}`, String(r.naoIniciadas), ""],
            [`   ${L.incompletas}`, String(r.incompletas), ""],
            [`   ${L.naoConcluidas}`, String(r.naoConcluidas), ""],
            [L.pendentes, String(r.pendentes), formatPercent(r.percentuais.pendentes)],
          ],
        },
        layout: "lightHorizontalLines",
      },
      { columns: legend, margin: [0, 8, 0, 0] },
      heading("Por ambiente"),
      report.ambientes.length
        ? pdfFigureTable(
            "Ambiente",
            report.ambientes.map((room) => ({ label: room.ambiente, figures: room })),
          )
        : { text: T.empty },
      heading("Por semana"),
      pdfFigureTable(
        "Semana",
        report.semanas.map((week) => ({ label: weekLabel(week), figures: week })),
      ),
      heading("Ocorrências"),
      report.ocorrencias.items.length
        ? {
            table: {
              headerRows: 1,
              dontBreakRows: true,
              widths: [48, 52, 40, 100, 90, "*"],
              body: [
                ["Data", "Horário", "Tipo", "Ambiente", "Colaborador", "Motivo"].map((text) => ({ text, bold: true })),
                ...report.ocorrencias.items.map((incident) => [
                  formatDateBR(incident.data),
                  slotTime(incident),
                  incident.tipo,
                  incident.ambiente,
                  incident.colaborador,
                  incident.justificativa?.trim() || "-",
                ]),
              ],
            },
            layout: "lightHorizontalLines",
          }
        : { text: T.incidentsEmpty },
      ...(rest > 0 ? [{ text: T.moreIncidents(rest), italics: true, margin: [0, 6, 0, 0] }] : []),
      heading("Fotos de evidência"),
      photos.length
        ? {
            columns: [0, 1, 2, 3].map((column) => ({
              width: "25%",
              stack: photos
                .map((photo, index) => ({ photo, index }))
                .filter(({ index }) => index % 4 === column)
                .map(({ photo, index }) => ({
                  stack: [
                    { image: `foto${index}`, fit: [118, 100] },
                    { text: photo.ambiente, bold: true, margin: [0, 2, 0, 0] },
                    { text: `${formatDateBR(photo.data)} · ${photo.procedimento}`, color: "#555555" },
                  ],
                  margin: [0, 0, 6, 10],
                  unbreakable: true,
                })),
            })),
          }
        : { text: T.photosEmpty },
    ],
  };
  return pdfResponse(args as Parameters<typeof pdfResponse>[0], doc, `relatorio-cliente-${fileDate()}.pdf`);
}
