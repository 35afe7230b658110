/**
 * The audit dashboard's downloads (issue 25; app/audit/audit-exports.server.ts): 'DataSheet.xlsx' read back with
 * exceljs, and the PDF 'Resumo' built by the PDF pool (its worker thread, as the server builds it) and read back with
 * unpdf. The loaders around them (the view, the refusal's redirect) are the page's browser test's.
 */
import { inflateSync } from "node:zlib";

import ExcelJS from "exceljs";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, describe, expect, test } from "vitest";

import { AUDIT_BOARDS, CHARTS, FONT_DEFAULT, type ChartDescription } from "../../api/domain/audit.ts";
import { createPdfPool } from "../../api/lib/pdf-pool.ts";
import { auditPdfDoc, auditWorkbook, chartNumbers } from "../../app/audit/audit-exports.server.ts";

const HOUR = 3_600_000;
const MINUTE = 60_000;
const PERIODO = "1 a 31 de janeiro de 2025";

/** One chart per board, in board order; 'Utilização do App' (7) has no data. */
const CHARTS_OF_ALL: ChartDescription[] = [
  CHARTS[1]([
    { status: "Completo", count: 1 },
    { status: "Incompleto", count: 3 },
  ]),
  CHARTS[2]([
    { id: 1, nome: "Ana", count: 3 },
    { id: 2, nome: "Bruno", count: 1 },
  ]),
  CHARTS[3]([
    {
      id: 1,
      nome: "Filial Norte",
      cnpj: "11.222.333/0001-81",
      counts: { "Em andamento": 2, Incompleto: 1, "A iniciar": 0, "Não Realizado": 4 },
    },
  ]),
  CHARTS[4]([
    { id: 1, nome: "Cozinha", filial: "Centro", ms: 12.5 * HOUR },
    { id: 2, nome: "Recepção", filial: "Centro", ms: 2 * HOUR },
  ]),
  CHARTS[5]([{ id: 1, nome: "Banheiro", filial: "Centro", ms: 42.5 * MINUTE, count: 4 }]),
  CHARTS[6]([
    { id: 1, nome: "Cozinha", filial: "Centro", plannedMs: 3 * HOUR, actualMs: 2.2 * HOUR },
    { id: 2, nome: "Sala 2", filial: "Centro", plannedMs: 1 * HOUR, actualMs: 1.5 * HOUR },
  ]),
  CHARTS[7]([]),
  CHARTS[8]([{ id: 1, nome: "Carla", done: 3, notDone: 1 }]),
  CHARTS[9]([
    { semana: "2025-01-06", media: 87.5, inspecoes: 2, soma: 175 },
    { semana: "2025-01-13", media: 92.3, inspecoes: 1, soma: 92.3 },
  ]),
];
const chartOf = (board: number) => CHARTS_OF_ALL.find((chart) => chart.board === board)!;

async function readWorkbook(charts: ChartDescription[]) {
  const bytes = await auditWorkbook(charts, PERIODO).xlsx.writeBuffer();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as ArrayBuffer);
  return workbook;
}

/**
 * The fill colours a PDF's content streams set before they paint ('r g b scn', as pdfkit writes them), as #rrggbb.
 * Read from the streams themselves: pdf.js's operator lists need ArrayBuffer.transferToFixedLength (Node 21+).
 */
function fillColours(pdf: Uint8Array) {
  const bytes = Buffer.from(pdf);
  const raw = bytes.toString("latin1");
  const colours = new Set<string>();
  for (let at = raw.indexOf("stream\n"); at >= 0; at = raw.indexOf("stream\n", at + 1)) {
    const end = raw.indexOf("endstream", at);
    if (end < 0) break;
    let content: string;
    try {
      content = inflateSync(bytes.subarray(at + "stream\n".length, end)).toString("latin1");
    } catch {
      continue; // not a deflated stream (a font, an image)
    }
    for (const [, ...rgb] of content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) scn/g))
      colours.add(
        `#${rgb
          .map((part) =>
            Math.round(Number(part) * 255)
              .toString(16)
              .padStart(2, "0"),
          )
          .join("")}`,
      );
    at = end;
  }
  return [...colours];
}

const rowValues = (sheet: ExcelJS.Worksheet, row: number) => (sheet.getRow(row).values as unknown[]).slice(1);

describe("auditWorkbook", () => {
  test("a sheet per chart in board order, named by the board's sheet (§9)", async () => {
    const workbook = await readWorkbook(CHARTS_OF_ALL);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(AUDIT_BOARDS.map((board) => board.sheet));
    // Only the enabled boards: the API answers their charts alone, and each one is a sheet.
    const some = await readWorkbook([chartOf(2), chartOf(6)]);
    expect(some.worksheets.map((sheet) => sheet.name)).toEqual(["Atv em aberto por func", "Previsto X Realizado"]);
  });

  test("row 1 the bold headers, then a row per label with numbers as numbers", async () => {
    const workbook = await readWorkbook(CHARTS_OF_ALL);
    const status = workbook.getWorksheet("Ambientes")!;
    expect(rowValues(status, 1)).toEqual(["Situação", "Atividades"]);
    expect(status.getRow(1).font?.bold).toBe(true);
    expect(rowValues(status, 2)).toEqual(["Completo", 1]);
    expect(rowValues(status, 3)).toEqual(["Incompleto", 3]);

    const branches = workbook.getWorksheet("Atv em aberto por CNPJ")!;
    expect(rowValues(branches, 1)).toEqual(["Filial", "Em andamento", "Incompleto", "A iniciar", "Não Realizado"]);
    expect(rowValues(branches, 2)).toEqual(["Filial Norte", 2, 1, 0, 4]);

    const planned = workbook.getWorksheet("Previsto X Realizado")!;
    expect(rowValues(planned, 1)).toEqual(["Ambiente", "Previsto", "Realizado"]);
    expect(rowValues(planned, 2)).toEqual(["Cozinha", 3, 2.2]);
    expect(rowValues(planned, 3)).toEqual(["Sala 2", 1, 1.5]);

    const people = workbook.getWorksheet("Resumo das Atividades")!;
    expect(rowValues(people, 1)).toEqual(["Colaborador", "Feitas", "Não feitas"]);
    expect(rowValues(people, 2)).toEqual(["Carla", 3, 1]);

    const inspections = workbook.getWorksheet("Inspeções")!;
    expect(rowValues(inspections, 1)).toEqual(["Semana", "Pontuação média"]);
    expect(rowValues(inspections, 2)).toEqual(["Semana de 06/01", 0.875]);
    expect(rowValues(inspections, 3)[0]).toBe("Semana de 13/01");
    expect(rowValues(inspections, 3)[1]).toBeCloseTo(0.923, 9);
    expect(inspections.getCell("A5").value).toBe(`Inspeções: pontuação média · Período: ${PERIODO}`);
  });

  test("the unit is the cells' number format: hours, minutes, Excel's percentage", async () => {
    const usage = CHARTS[7]([{ id: 1, nome: "Ana", scheduled: 3, started: 1 }]);
    const workbook = await readWorkbook([chartOf(1), chartOf(4), chartOf(5), usage]);
    expect(workbook.getWorksheet("Ambientes")!.getCell("B2").numFmt).toBe("#,##0");
    const hours = workbook.getWorksheet("Atv que demandam mais tempo")!.getCell("B2");
    expect([hours.value, hours.numFmt]).toEqual([12.5, '#,##0.0 "h"']);
    const minutes = workbook.getWorksheet("Tempo médio das atv")!.getCell("B2");
    expect([minutes.value, minutes.numFmt]).toEqual([42.5, '#,##0.0 "min"']);
    const percent = workbook.getWorksheet("Utilizacao do App")!.getCell("B2");
    expect(percent.value).toBeCloseTo(0.3333, 6);
    expect(percent.numFmt).toBe("0.00%");
    // The header row keeps the default format (text).
    expect(workbook.getWorksheet("Utilizacao do App")!.getCell("B1").value).toBe("Atividades registradas pelo app");
    // An inspection score: Excel's percentage too, with the one decimal the inspections write.
    const score = (await readWorkbook([chartOf(9)])).getWorksheet("Inspeções")!.getCell("B2");
    expect([score.value, score.numFmt]).toEqual([0.875, "0.0%"]);
  });

  test("the period a row apart under the table; an empty chart says 'Sem dados'", async () => {
    const workbook = await readWorkbook(CHARTS_OF_ALL);
    const status = workbook.getWorksheet("Ambientes")!;
    expect(status.getRow(4).values).toEqual([]);
    expect(status.getCell("A5").value).toBe(`Ambientes · Período: ${PERIODO}`);
    expect(status.rowCount).toBe(5);
    const empty = workbook.getWorksheet("Utilizacao do App")!;
    expect(rowValues(empty, 1)).toEqual(["Colaborador", "Atividades registradas pelo app"]);
    expect(rowValues(empty, 2)).toEqual(["Sem dados"]);
    expect(empty.getCell("A4").value).toBe(`Utilização do App · Período: ${PERIODO}`);
  });
});

describe("auditPdfDoc", () => {
  // One worker, as on this 2-core server: the document goes through the pool's thread like a download's.
  const pool = createPdfPool({ workers: 1 });
  afterAll(() => pool.close());

  const readPdf = async (bytes: Uint8Array) => {
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const document = await getDocumentProxy(bytes.slice());
    const { totalPages, text } = await extractText(document, { mergePages: false });
    return { pages: totalPages, text: text.map((page) => page.replace(/\s+/g, " ").trim()).join(" ") };
  };

  test("the numbers in words, a line per label", () => {
    expect(chartNumbers(chartOf(1))).toEqual([
      { label: "Completo", words: "1 atividade" },
      { label: "Incompleto", words: "3 atividades" },
    ]);
    expect(chartNumbers(chartOf(6))).toEqual([
      { label: "Cozinha", words: "Previsto 3 h; Realizado 2,2 h" },
      { label: "Sala 2", words: "Previsto 1 h; Realizado 1,5 h" },
    ]);
    expect(chartNumbers(chartOf(5))).toEqual([{ label: "Banheiro", words: "42,5 min" }]);
    expect(chartNumbers(chartOf(9))).toEqual([
      { label: "Semana de 06/01", words: "87,5%" },
      { label: "Semana de 13/01", words: "92,3%" },
    ]);
  });

  test("'Resumo', the period, each chart's title, drawing and numbers; 'Sem dados' for an empty chart", async () => {
    const started = performance.now();
    const doc = auditPdfDoc(CHARTS_OF_ALL, PERIODO, FONT_DEFAULT);
    const drawn = performance.now();
    const bytes = await pool.render(doc);
    const built = performance.now();
    await pool.render(doc);
    const again = performance.now();
    // Measured, not asserted (the machine's load varies): the SVGs on the calling thread, then the pool's worker,
    // first with its start (pdfmake and the fonts loaded), then started.
    console.info(
      `audit PDF of ${CHARTS_OF_ALL.length} charts: SVG ${Math.round(drawn - started)} ms; pool ${Math.round(built - drawn)} ms ` +
        `(worker starting), ${Math.round(again - built)} ms (started); ${bytes.byteLength} bytes`,
    );
    const { pages, text } = await readPdf(bytes);
    expect(text).toMatch(/^Resumo Período: 1 a 31 de janeiro de 2025 /);
    for (const board of AUDIT_BOARDS) expect(text).toContain(board.title);
    expect(text).toContain("Completo: 1 atividade");
    expect(text).toContain("Incompleto: 3 atividades");
    expect(text).toContain("Ana: 3 atividades");
    expect(text).toContain("Bruno: 1 atividade");
    expect(text).toContain("Filial Norte: Em andamento 2 atividades; Incompleto 1 atividade; A iniciar 0 atividades");
    expect(text).toContain("Cozinha: 12,5 h");
    expect(text).toContain("Banheiro: 42,5 min");
    expect(text).toContain("Cozinha: Previsto 3 h; Realizado 2,2 h");
    expect(text).toContain("Carla: Feitas 3 atividades; Não feitas 1 atividade");
    expect(text).toContain("Semana de 06/01: 87,5%");
    expect(text).toContain("Semana de 13/01: 92,3%");
    expect(text).toContain("Utilização do App Sem dados");
    // Eight drawings of ~370 pt each, none split: a page each (the empty chart packs under the one before it).
    expect(pages).toBe(8);
    expect(text).toContain("Página 8 de 8");
  });

  test("the charts are drawn as vectors in their colours, with their own texts; nothing for an empty chart", async () => {
    const withChart = await pool.render(auditPdfDoc([chartOf(6)], PERIODO, FONT_DEFAULT));
    const emptyChart = await pool.render(auditPdfDoc([chartOf(7)], PERIODO, FONT_DEFAULT));
    const drawn = await readPdf(withChart);
    const empty = await readPdf(emptyChart);
    expect(drawn.pages).toBe(1);
    // The bars: filled paths in the datasets' colours ('Previsto' #0072B2, 'Realizado' #E69F00).
    expect(fillColours(withChart)).toEqual(expect.arrayContaining(["#0072b2", "#e69f00"]));
    expect(fillColours(emptyChart)).not.toEqual(expect.arrayContaining(["#0072b2"]));
    // The legend and the axis ticks are the SVG's <text>, kept as text in the PDF.
    expect(drawn.text).toMatch(/Previsto Realizado/);
    expect(drawn.text).toMatch(/0 h .*1 h .*2 h .*3 h/);
    expect(empty.text).toBe(`Resumo Período: ${PERIODO} Utilização do App Sem dados Página 1 de 1`);
  });

  test("the URL's font size reaches the drawing", () => {
    const svgOf = (fontSize: number) =>
      (auditPdfDoc([chartOf(6)], PERIODO, fontSize).content as { stack: { stack: { svg?: string }[] }[] }[])[2].stack[0]
        .stack[1].svg!;
    expect(svgOf(11)).toContain('font-size="11"');
    expect(svgOf(16)).toContain('font-size="16"');
    expect(svgOf(16)).not.toContain('font-size="11"');
  });
});
