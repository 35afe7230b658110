import type { LoaderFunctionArgs } from "@remix-run/node";
import ExcelJS from "exceljs";

import { AUDIT_TEXTS, valueText, type ChartDescription } from "../../api/domain/audit";
import type { PdfDocDefinition } from "../../api/domain/pdf";

import { downloadHeaders, XLSX_TYPE } from "~/lib/downloads.server";
import { pdfResponse } from "~/lib/pdf.server";
import { redirectWithToast } from "~/toast.server";

import { LABEL_HEADERS } from "./audit-chart";
import { AUDIT_PATH, auditHref, auditView, EXCEL_NAME, hasData, pdfName } from "./audit-state.server";
import { chartSvg } from "./chart-svg.server";

/**
 * The audit dashboard's downloads (spec 001 §8, §9; issue 25): 'DataSheet.xlsx', a sheet per enabled chart, and the
 * PDF 'Resumo', each chart drawn and its numbers written. Both read the URL's view (period, filters, font size) as the
 * page does, and both refuse a view where no chart has data: back to the page with the §8 toast.
 */

/** How Excel shows each unit: the cell keeps the number (sums and charts work), the format writes the unit. */
const NUMBER_FORMATS: Record<ChartDescription["unit"], string> = {
  atividades: "#,##0",
  horas: '#,##0.0 "h"',
  minutos: '#,##0.0 "min"',
  // Excel's own percentage: the cell holds the fraction (45,5% is 0.455), so formulas read it as a percentage.
  "%": "0.00%",
  // An inspection score, one decimal as the inspections write it (87,5% is 0.875).
  nota: "0.0%",
};
const cellValue = (unit: ChartDescription["unit"], value: number) =>
  unit === "%" || unit === "nota" ? value / 100 : value;

/** Column widths in characters: the longest text, within bounds. */
const widthOf = (texts: string[], min: number, max: number) =>
  Math.min(max, Math.max(min, ...texts.map((text) => text.length + 2)));

/**
 * 'DataSheet.xlsx' (§9): one sheet per chart, in board order, named by the board's `sheet`. Row 1 holds the bold
 * headers (what the labels name, then each dataset) so every sheet stays a plain table that sorting, filters and
 * any import read as one; a row per label follows, the numbers as numbers; one row below the table, apart, names
 * the chart and the period. A chart without labels writes 'Sem dados' in place of its rows.
 */
export function auditWorkbook(charts: readonly ChartDescription[], periodo: string) {
  const workbook = new ExcelJS.Workbook();
  workbook.title = AUDIT_TEXTS.title;
  workbook.subject = periodo;
  for (const chart of charts) {
    const sheet = workbook.addWorksheet(chart.sheet);
    const labelHeader = LABEL_HEADERS[chart.board];
    sheet.columns = [
      { header: labelHeader, width: widthOf([labelHeader, ...chart.labels], 14, 48) },
      ...chart.datasets.map((dataset) => ({
        header: dataset.label,
        width: widthOf([dataset.label], 12, 32),
        style: { numFmt: NUMBER_FORMATS[chart.unit] },
      })),
    ];
    sheet.getRow(1).font = { bold: true };
    chart.labels.forEach((label, index) =>
      sheet.addRow([label, ...chart.datasets.map((dataset) => cellValue(chart.unit, dataset.data[index] ?? 0))]),
    );
    if (chart.labels.length === 0) sheet.addRow([AUDIT_TEXTS.noData]);
    const note = sheet.getRow(sheet.rowCount + 2);
    note.getCell(1).value = `${chart.title} · Período: ${periodo}`;
    note.font = { italic: true };
  }
  return workbook;
}

/** A4 portrait with 40 pt margins: the charts take the whole width between them. */
const PAGE_MARGIN = 40;
const CONTENT_WIDTH = Math.floor(595.28 - 2 * PAGE_MARGIN);

/**
 * A chart's numbers in words, a line per label: 'Ana: 3 atividades' (one dataset), or each dataset named,
 * 'Cozinha: Previsto 3 h; Realizado 2,2 h'.
 */
export function chartNumbers(chart: ChartDescription): { label: string; words: string }[] {
  return chart.labels.map((label, index) => {
    const values = chart.datasets.map((dataset) => valueText(chart.unit, dataset.data[index] ?? 0));
    const parts =
      chart.datasets.length === 1 ? values : chart.datasets.map((dataset, set) => `${dataset.label} ${values[set]}`);
    return { label, words: parts.join("; ") };
  });
}

function chartSection(chart: ChartDescription, fontSize: number) {
  const title = { text: chart.title, fontSize: 13, bold: true, margin: [0, 14, 0, 6] };
  const svg = chartSvg(chart, { fontSize });
  if (svg === null) return { stack: [title, { text: AUDIT_TEXTS.noData, italics: true }], unbreakable: true };
  return {
    stack: [
      // The title stays with its drawing (less than half a page: pdfmake drops what an unbreakable block puts past
      // its first page, so the lines, up to 20 and wrapping, flow after it instead).
      { stack: [title, { svg, width: CONTENT_WIDTH }], unbreakable: true },
      {
        stack: chartNumbers(chart).map(({ label, words }) => ({
          text: [{ text: `${label}: `, bold: true }, words],
          margin: [0, 1, 0, 1],
        })),
        margin: [0, 6, 0, 0],
      },
    ],
  };
}

/**
 * The PDF 'Resumo' (§9): the title, the period in words, then each chart: its title, its drawing (the server's SVG
 * of the page's chart at the URL's font size, as vectors, the full width of an A4 portrait page) and its numbers a
 * line per label; an empty chart is its title and 'Sem dados'. Plain data for the pool (the SVG is a string).
 */
export function auditPdfDoc(charts: readonly ChartDescription[], periodo: string, fontSize: number): PdfDocDefinition {
  return {
    pageSize: "A4",
    pageOrientation: "portrait",
    pageMargins: [PAGE_MARGIN, PAGE_MARGIN, PAGE_MARGIN, 48],
    info: { title: AUDIT_TEXTS.pdfTitle, subject: periodo },
    footer: { text: "Página {page} de {pages}", alignment: "right", fontSize: 8, margin: [0, 16, PAGE_MARGIN, 0] },
    defaultStyle: { fontSize: 10 },
    content: [
      { text: AUDIT_TEXTS.pdfTitle, fontSize: 18, bold: true, margin: [0, 0, 0, 4] },
      { text: `Período: ${periodo}`, fontSize: 11 },
      ...charts.map((chart) => chartSection(chart, fontSize)),
    ],
  };
}

/** The URL's view, or the §8 refusal when no chart has data (back to the page, same view, with the toast). */
async function exportView(args: LoaderFunctionArgs) {
  const { frame, state, answer } = await auditView(args);
  if (hasData(answer.graficos)) return { state, answer, refused: null };
  const refused = await redirectWithToast(frame.api.context, auditHref(AUDIT_PATH, frame, state), {
    type: "error",
    title: AUDIT_TEXTS.noData,
    description: AUDIT_TEXTS.nothingToExport,
  });
  return { state, answer, refused };
}

/**
 * /auditoria/exportar.xlsx: 'DataSheet.xlsx' (at most 9 sheets of 20 rows, the inspections' of 60 weeks: built in
 * memory, sent with its length).
 */
export async function auditXlsxLoader(args: LoaderFunctionArgs) {
  const { answer, refused } = await exportView(args);
  if (refused) return refused;
  const bytes = Buffer.from(await auditWorkbook(answer.graficos, answer.periodo).xlsx.writeBuffer());
  return new Response(bytes, { headers: downloadHeaders(XLSX_TYPE, EXCEL_NAME, bytes.byteLength) });
}

/** /auditoria/exportar.pdf: the 'Resumo', built by the server's PDF pool. */
export async function auditPdfLoader(args: LoaderFunctionArgs) {
  const { state, answer, refused } = await exportView(args);
  if (refused) return refused;
  const doc = auditPdfDoc(answer.graficos, answer.periodo, state.fonte);
  return pdfResponse(args, doc, pdfName());
}
