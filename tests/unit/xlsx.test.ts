import ExcelJS from "exceljs";
import JSZip from "jszip";
import { describe, expect, test } from "vitest";

import { fileDate, xlsxResponse, type SheetColumn } from "../../app/lib/xlsx.server.ts";

type Item = { id: number; name: string; color: string | null };

const COLUMNS: SheetColumn<Item>[] = [
  { header: "Código", width: 10, value: (item) => item.id },
  { header: "Nome", width: 40, value: (item) => item.name },
  { header: "Cor", width: 12, value: (item) => item.color ?? "", fill: (item) => item.color },
];

/** Row i: a name that compresses poorly enough for the byte counts to mean something, a fill on every 7th row. */
const item = (i: number): Item => ({
  id: i + 1,
  name: i === 2 ? "=1+1" : `Setor ${i + 1} ${((i * 2_654_435_761) >>> 0).toString(36)} ala ${i % 16}`,
  color: i % 7 === 0 ? "#aabbcc" : null,
});

/** An async source of `count` rows in chunks of `chunk` (like the keyset pages from the API), counting what is pulled. */
function source(count: number, options: { chunk?: number; failAt?: number } = {}) {
  const state = { pulled: 0, closed: false };
  const chunk = options.chunk ?? 1_000;
  async function* rows() {
    try {
      for (let start = 0; start < count; start += chunk) {
        await new Promise((resolve) => setTimeout(resolve, 0)); // one "API call" per chunk
        for (let i = start; i < Math.min(count, start + chunk); i++) {
          if (i === options.failAt) throw new Error("a API falhou no meio da exportação");
          state.pulled++;
          yield item(i);
        }
      }
    } finally {
      state.closed = true;
    }
  }
  return { rows: rows(), state };
}

async function readBack(response: Response) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await response.arrayBuffer());
  return workbook;
}

describe("xlsxResponse (app/lib/xlsx.server.ts)", () => {
  test("an async source of 3,000 rows becomes a workbook with the same cells", async () => {
    const { rows, state } = source(3_000);
    const response = await xlsxResponse("listagem-setores-01-02-2025.xlsx", "Setores", COLUMNS, rows);
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="listagem-setores-01-02-2025.xlsx"');
    expect(response.headers.get("cache-control")).toBe("no-store");

    const workbook = await readBack(response);
    expect(state).toEqual({ pulled: 3_000, closed: true });
    const sheet = workbook.getWorksheet("Setores")!;
    expect(sheet.rowCount).toBe(3_001);
    expect(sheet.getRow(1).values).toEqual([undefined, "Código", "Nome", "Cor"]);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getColumn(2).width).toBe(40);
    for (const i of [0, 1, 5, 999, 1_000, 2_999]) {
      const expected = item(i);
      const line = sheet.getRow(i + 2);
      expect([line.getCell(1).value, line.getCell(2).value, line.getCell(3).text]).toEqual([
        expected.id,
        expected.name,
        expected.color ?? "",
      ]);
    }
    expect(sheet.getRow(4).getCell(2).value).toBe("=1+1"); // row 3 of the data: as typed, a text cell
    expect(sheet.getRow(2).getCell(3).fill).toMatchObject({ type: "pattern", fgColor: { argb: "FFAABBCC" } });
    expect(sheet.getRow(3).getCell(3).fill).toBeUndefined();
    expect(sheet.getRow(2).getCell(1).font?.bold).toBeFalsy();
  }, 20_000);

  test("an array still works (backward compatible)", async () => {
    const workbook = await readBack(await xlsxResponse("a.xlsx", "Riscos", COLUMNS, [item(0), item(2)]));
    const sheet = workbook.getWorksheet("Riscos")!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(3).getCell(2).value).toBe("=1+1");
  });

  test("a source that throws midway errors the body stream (no hang) and reports the error", async () => {
    const { rows, state } = source(5_000, { failAt: 2_500 });
    const errors: unknown[] = [];
    const response = await xlsxResponse("a.xlsx", "Setores", COLUMNS, rows, { onError: (e) => errors.push(e) });
    await expect(response.arrayBuffer()).rejects.toThrow(/falhou no meio/);
    expect(errors).toHaveLength(1);
    expect(state.pulled).toBe(2_500);
  });

  test("a source that fails before the first row rejects the call, so the loader's error path answers", async () => {
    async function* failing(): AsyncGenerator<Item> {
      throw new Error("401 da API");
    }
    await expect(xlsxResponse("a.xlsx", "Setores", COLUMNS, failing())).rejects.toThrow("401 da API");
  });

  test("back-pressure: rows are pulled only as the body is read, and a cancelled download stops the source", async () => {
    const total = 100_000;
    const { rows, state } = source(total);
    const response = await xlsxResponse("a.xlsx", "Setores", COLUMNS, rows);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // Give the writer every chance to run ahead while nobody reads.
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const pulledWhileIdle = state.pulled;
    expect(pulledWhileIdle).toBeGreaterThan(0);
    expect(pulledWhileIdle).toBeLessThan(total / 10);

    // Reading some more lets it go on, a bit at a time.
    for (let i = 0; i < 5; i++) await reader.read();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.pulled).toBeGreaterThanOrEqual(pulledWhileIdle);
    expect(state.pulled).toBeLessThan(total / 10);

    await reader.cancel();
    for (let i = 0; i < 5 && !state.closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.closed).toBe(true);
    expect(state.pulled).toBeLessThan(total / 10);
  }, 20_000);
});

describe("text as typed, and fileDate", () => {
  test("text that starts with = + - @ is a text cell as typed: no apostrophe, no formula (issue 23)", async () => {
    const typed = ["-1", "=1+1", "+5", "@x", "\tA", '=HYPERLINK("http://x")'];
    const rows = typed.map((name, i) => ({ id: i + 1, name, color: null }));
    const bytes = await (await xlsxResponse("a.xlsx", "Ambientes", COLUMNS, rows)).arrayBuffer();

    // What a spreadsheet reads: each cell of column B a text cell (t="str") whose value is the text as typed, and no
    // <f> (formula) element anywhere in the sheet.
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file("xl/worksheets/sheet1.xml")!.async("string");
    expect(xml).not.toMatch(/<f[\s>]/);
    const cellB = (row: number) => new RegExp(`<c r="B${row}"[^>]*>.*?</c>`).exec(xml)?.[0];
    expect(cellB(2)).toBe('<c r="B2" t="str"><v>-1</v></c>');
    expect(cellB(3)).toBe('<c r="B3" t="str"><v>=1+1</v></c>');

    // exceljs reading it back: strings, not formulas, not numbers.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes);
    const sheet = workbook.getWorksheet("Ambientes")!;
    typed.forEach((name, i) => {
      const cell = sheet.getRow(i + 2).getCell(2);
      expect(cell.value).toBe(name);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.formula).toBeUndefined();
    });
  });

  test("the file date is today in the business time zone", () => {
    expect(fileDate(new Date("2025-03-01T02:30:00Z"))).toBe("28-02-2025"); // 23:30 in Fortaleza (UTC-3)
  });
});
