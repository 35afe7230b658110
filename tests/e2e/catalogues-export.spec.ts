import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";

import {
  KINDS,
  bodyRows,
  importItems,
  listReady,
  range,
  search,
  todayInFortaleza,
  uniquePrefix,
  type KindSpec,
} from "../support/e2e-catalogues.ts";
import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * Spec 000 §2 ('Exportar Excel') and §9 (file name 'listagem-{kind}-DD-MM-YYYY', the sheet holds the page on
 * screen); decision 004 (bold header, the risk colour as the cell's fill, text as typed in a text cell, so one that
 * starts with '=' is no formula and shows no apostrophe). The downloaded file is opened with exceljs and compared
 * with the table.
 * The paged export runs for sectors; a short one checks the risks' 'Cor' column.
 */

{
  const spec = KINDS.setores;
  test(`${spec.kind}: 'Exportar Excel' downloads the page on screen as listagem-${spec.kind}-DD-MM-YYYY.xlsx`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }, testInfo) => {
    test.slow();
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const items = [
      ...range(1, 21).map((n) => ({ name: `${prefix} ${String(n).padStart(3, "0")}` })),
      { name: `=${prefix} conta` },
    ];
    const colourOf = new Map(items.map((item) => [item.name, ""]));
    await importItems(page, spec, "messejana", items);

    await page.goto(`/${spec.kind}`);
    await search(page, spec, prefix);
    await listReady(page, javaScriptEnabled);
    await expect(page.getByText("22 registros")).toBeVisible();
    // Page 2 of 2 (20 a page): the export holds these two rows only.
    await page
      .getByRole("navigation", { name: "Paginação" })
      .getByRole("link", { name: "Página 2", exact: true })
      .click();
    await expect(page).toHaveURL(/pagina=2/);
    await expect(bodyRows(page)).toHaveCount(2);
    await expectExportMatchesScreen(page, spec, colourOf);

    // A name that starts with '=' is written as typed, as text: no apostrophe, and no spreadsheet runs it.
    await search(page, spec, `${prefix} conta`);
    await expect(bodyRows(page)).toHaveCount(1);
    const rows = await expectExportMatchesScreen(page, spec, colourOf);
    expect(rows).toEqual([`=${prefix} conta`]);
  });
}

{
  const spec = KINDS.riscos;
  test(`${spec.kind}: the export has a 'Cor' column, each cell filled with its colour`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }, testInfo) => {
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const items = [
      { name: `${prefix} Biológico`, color: "#c62828" },
      { name: `${prefix} Químico`, color: "#f9a825" },
      { name: `${prefix} Físico`, color: "#1565c0" },
    ];
    await importItems(page, spec, "messejana", items);
    await page.goto(`/${spec.kind}`);
    await search(page, spec, prefix);
    await listReady(page, javaScriptEnabled);
    await expect(bodyRows(page)).toHaveCount(3);
    const names = await expectExportMatchesScreen(page, spec, new Map(items.map((item) => [item.name, item.color])));
    expect(names).toEqual([`${prefix} Biológico`, `${prefix} Físico`, `${prefix} Químico`]);
  });
}

/**
 * Downloads 'Exportar Excel' and compares it with the table on screen; answers the sheet's name cells. colourOf
 * holds every name the test imported (with its colour, for risks).
 */
async function expectExportMatchesScreen(page: Page, spec: KindSpec, colourOf: Map<string, string>) {
  // Columns on screen: tick box, Empresa, name[, Cor], Editar, Remover.
  const onScreen = await bodyRows(page).evaluateAll((rows) =>
    rows.map((row) => Array.from(row.querySelectorAll("td")).map((cell) => cell.textContent?.trim() ?? "")),
  );
  const expected = onScreen.map((cells) => cells.slice(1, spec.hasColor ? 4 : 3));
  for (const [empresa, name] of expected) {
    expect(empresa).toBe("Filial Messejana");
    expect(colourOf.has(name), name).toBe(true);
  }

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`listagem-${spec.kind}-${todayInFortaleza()}.xlsx`);

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(sheet.name).toBe(spec.titlePlural);
  const headers = spec.hasColor ? ["Empresa", spec.column, "Cor"] : ["Empresa", spec.column];
  expect(sheet.actualColumnCount).toBe(headers.length);
  headers.forEach((title, index) => {
    const cell = sheet.getRow(1).getCell(index + 1);
    expect(cell.value).toBe(title);
    expect(cell.font?.bold, `header '${title}' is bold`).toBe(true);
  });
  expect(sheet.actualRowCount).toBe(1 + expected.length);
  const names: unknown[] = [];
  expected.forEach(([empresa, name, color], index) => {
    const row = sheet.getRow(index + 2);
    expect(row.getCell(1).value).toBe(empresa);
    expect(row.getCell(2).value).toBe(name);
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.String);
    names.push(row.getCell(2).value);
    if (spec.hasColor) {
      const hex = colourOf.get(name)!;
      expect(color).toBe(hex);
      expect(row.getCell(3).value).toBe(hex);
      expect(row.getCell(3).fill).toMatchObject({
        type: "pattern",
        pattern: "solid",
        fgColor: { argb: `FF${hex.slice(1).toUpperCase()}` },
      });
    }
  });
  return names;
}
