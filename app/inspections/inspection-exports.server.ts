import type { LoaderFunctionArgs } from "@remix-run/node";

import { REPORT_TEXTS } from "../../api/domain/reports";

import { failLoad } from "~/lib/fail-load.server";
import { keysetRows } from "~/lib/keyset.server";
import { xlsxResponse, fileDate, type SheetColumn } from "~/lib/xlsx.server";
import { listInspectionChunk } from "~/models/inspections.server";
import { tablePdf, type PdfColumn } from "~/reports/report-rows.server";

import { INSPECTIONS_PATH, inspectionLine, inspectionView } from "./inspections.server";

/**
 * /inspecoes/exportar.xlsx and /inspecoes/exportar.pdf (issue 29 §4): the list as filtered (the same URL state and
 * API query as the page), every row, read in the API's keyset chunks: the Excel file streamed chunk after chunk, the
 * PDF through the server's pool and the reports' table PDF (refused past its row limit, pointing to the Excel file).
 */

type Line = ReturnType<typeof inspectionLine>;
/** Rows per API call: each chunk is the same index walk, the thousandth as cheap as the first. */
const EXPORT_CHUNK = 1000;

const COLUMNS: (SheetColumn<Line> & { pdf: number })[] = [
  { header: "Nº", width: 8, value: (row) => row.id, pdf: 34 },
  { header: "Data", width: 17, value: (row) => row.emText, pdf: 70 },
  { header: "Filial", width: 24, value: (row) => row.filial.nome, pdf: 100 },
  { header: "Ambiente", width: 30, value: (row) => row.ambiente.nome, pdf: 150 },
  { header: "Checklist", width: 22, value: (row) => `${row.checklist} (v${row.versao})`, pdf: 100 },
  { header: "Inspetor", width: 24, value: (row) => row.inspetor, pdf: 100 },
  { header: "Nota", width: 9, value: (row) => row.notaText, pdf: 44 },
  { header: "Nota mínima", width: 11, value: (row) => row.notaMinimaText, pdf: 50 },
  { header: "Resultado", width: 11, value: (row) => row.resultado, pdf: 52 },
  { header: "Reinspeção de", width: 12, value: (row) => row.reinspecaoDe ?? "-", pdf: 48 },
];

/** Every row of the list as filtered, chunk after chunk (the API's keyset), pulled as the download is written. */
async function* inspectionLines(view: Awaited<ReturnType<typeof inspectionView>>) {
  const rows = keysetRows(view.api.request.signal, async (after) => {
    const result = await listInspectionChunk(view.api, { ...view.query, after, size: EXPORT_CHUNK });
    return result.ok ? result.data : failLoad(view.api, result, REPORT_TEXTS.loadFailed);
  });
  for await (const row of rows) yield inspectionLine(row);
}

export async function inspectionsXlsxLoader(args: LoaderFunctionArgs) {
  const view = await inspectionView(args);
  return xlsxResponse(`inspecoes-${fileDate()}.xlsx`, "Inspeções", COLUMNS, inspectionLines(view), {
    onError: (error) => console.error(error),
  });
}

export async function inspectionsPdfLoader(args: LoaderFunctionArgs) {
  const view = await inspectionView(args);
  const { de, ate } = view.filters;
  const day = (value: string) => value.split("-").reverse().join("/");
  return tablePdf(args, inspectionLines(view), {
    fileName: `inspecoes-${fileDate()}.pdf`,
    title: "Inspeções",
    subtitle: de || ate ? `De ${de ? day(de) : "o início"} até ${ate ? day(ate) : "hoje"}` : "Todas as inspeções",
    back: `${INSPECTIONS_PATH}${new URL(args.request.url).search}`,
    columns: COLUMNS as PdfColumn<Line>[],
    empty: "Nenhuma inspeção no período.",
  });
}
