import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { BRANCHES, branchOption, uniquePrefix } from "../support/e2e-catalogues.ts";
import { DEMO, environmentRow, searchEnvironments } from "../support/e2e-environments.ts";
import { expect, screenshot, test, toast } from "../support/e2e-fixtures.ts";

/**
 * The spreadsheet importer of environments (issue 10, spec 000 §2 'a link to a spreadsheet importer';
 * docs/environments.md 'Importing environments'): /ambientes/importar, 'Baixar modelo' (/ambientes/modelo.xlsx) and
 * an upload that is all rows or none. Every test runs with JavaScript and without it.
 */

const HEADER = [
  "Nome do ambiente",
  "Categoria",
  "Setor",
  "Andar",
  "Riscos",
  "Procedimentos obrigatórios",
  "Procedimentos opcionais",
];
const FILE_LABEL = "Planilha (.xlsx ou .csv)";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function openImporter(page: Page, branch?: keyof typeof BRANCHES) {
  await page.goto(branch ? `/ambientes/importar?empresa=${BRANCHES[branch].id}` : "/ambientes/importar");
  await expect(page.getByRole("heading", { level: 2, name: "Importar ambientes" })).toBeVisible();
}

/** The cells of a sheet's rows as text (row 1 first). */
function rowsOf(sheet: ExcelJS.Worksheet) {
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((value) => String(value ?? ""))));
  return rows;
}

test("'Baixar modelo' gives the template with the branch's names; a filled .xlsx is imported and listed", async ({
  page,
  signInAs,
  javaScriptEnabled,
}, testInfo) => {
  test.slow();
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  await openImporter(page, "aldeota");
  const select = page.getByLabel("Empresa / filial");
  await expect(select).toHaveValue(String(BRANCHES.aldeota.id));
  const templateLink = page.getByRole("link", { name: "Baixar modelo" });
  await expect(templateLink).toHaveAttribute("href", `/ambientes/modelo.xlsx?empresa=${BRANCHES.aldeota.id}`);
  if (javaScriptEnabled) {
    // The link follows the branch chosen (without JS it carries the branch the page was opened for).
    await expect(async () => {
      await select.selectOption({ label: branchOption("messejana") });
      await expect(templateLink).toHaveAttribute("href", `/ambientes/modelo.xlsx?empresa=${BRANCHES.messejana.id}`, {
        timeout: 1000,
      });
    }).toPass();
    await select.selectOption({ label: branchOption("aldeota") });
    await expect(templateLink).toHaveAttribute("href", `/ambientes/modelo.xlsx?empresa=${BRANCHES.aldeota.id}`);
  }

  const [download] = await Promise.all([page.waitForEvent("download"), templateLink.click()]);
  expect(download.suggestedFilename()).toBe("modelo-ambientes.xlsx");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Ambientes", "Instruções", "Cadastros da filial"]);
  const [header, example, ...more] = rowsOf(workbook.worksheets[0]);
  expect(header).toEqual(HEADER);
  expect(more).toEqual([]);
  // The example row uses the branch's real names.
  expect(DEMO.categories).toContain(example[1]);
  expect(DEMO.sectors).toContain(example[2]);
  for (const risk of example[4].split("; ")) expect(DEMO.risks).toContain(risk);
  for (const procedure of [...example[5].split("; "), example[6]]) expect(DEMO.procedures).toContain(procedure);
  expect(rowsOf(workbook.getWorksheet("Instruções")!).flat().join("\n")).toContain("ponto e vírgula (;)");
  expect(rowsOf(workbook.getWorksheet("Cadastros da filial")!)[0]).toEqual([
    "Categorias",
    "Setores",
    "Riscos",
    "Procedimentos",
  ]);

  // Filled in as a user would: the example replaced, names without accents or in other case, a comma list.
  const sheet = workbook.worksheets[0];
  sheet.spliceRows(2, 1);
  sheet.addRow([
    `${prefix} Banheiro importado`,
    "banheiro",
    "RECEPCAO",
    "Térreo",
    "biologico; Químico",
    "Limpar piso",
    "Repor sabonete",
  ]);
  sheet.addRow([`${prefix} Sala importada`, "Sala", "UTI", "2º andar", "Físico", "Limpar piso, Recolher lixo", ""]);
  const filled = Buffer.from(await workbook.xlsx.writeBuffer());

  await page.getByLabel(FILE_LABEL).setInputFiles({ name: "ambientes.xlsx", mimeType: XLSX, buffer: filled });
  await page.getByRole("button", { name: "Importar" }).click();
  await expect(page).toHaveURL("/ambientes");
  await expect(toast(page, "2 ambiente(s) importado(s) com sucesso", "status")).toBeVisible();

  await searchEnvironments(page, prefix);
  const first = environmentRow(page, `${prefix} Banheiro importado`);
  await expect(first).toBeVisible();
  for (const text of ["Filial Aldeota", "Banheiro", "Recepção", "Térreo", "Limpar piso", "Repor sabonete"]) {
    await expect(first).toContainText(text);
  }
  await expect(first).toContainText(/Biológico, Químico|Químico, Biológico/);
  const second = environmentRow(page, `${prefix} Sala importada`);
  await expect(second).toContainText("Limpar piso, Recolher lixo");
  await expect(page.locator("table.data-table tbody tr")).toHaveCount(2);
});

test("a file with a bad row is refused whole: the row errors are shown and nothing is created", async ({
  page,
  signInAs,
  allowConsoleErrors,
}, testInfo) => {
  allowConsoleErrors(/status of 400/);
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  const csv =
    `${HEADER.join(";")}\r\n` +
    `${prefix} Certo;Sala;UTI;Térreo;Físico;Limpar piso;\r\n` +
    `${prefix} Errado;Banheiros;UTI;Térreo;Físico;Limpar piso;\r\n` +
    `;Sala;UTI;Térreo;;Limpar piso;\r\n`;

  await openImporter(page);
  await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("messejana") });
  await page
    .getByLabel(FILE_LABEL)
    .setInputFiles({ name: "com-erro.csv", mimeType: "text/csv", buffer: Buffer.from(csv, "latin1") });
  await page.getByRole("button", { name: "Importar" }).click();

  await expect(toast(page, "Erro ao importar ambientes")).toContainText(
    "A planilha tem 3 erro(s); nenhum ambiente foi importado.",
  );
  const errors = page.getByRole("list", { name: "Erros da planilha" });
  await expect(errors.getByRole("listitem")).toHaveText([
    'Linha 3: categoria "Banheiros" não encontrada',
    "Linha 4: nome do ambiente é obrigatório",
    'Linha 4: informe ao menos um risco na coluna "Riscos"',
  ]);
  await expect(page.getByRole("heading", { name: "Erros em com-erro.csv" })).toBeVisible();
  await expect(page).toHaveURL("/ambientes/importar");
  // The branch stays chosen for the next try.
  await expect(page.getByLabel("Empresa / filial")).toHaveValue(String(BRANCHES.messejana.id));

  await page.goto("/ambientes");
  await searchEnvironments(page, prefix);
  await expect(page.locator("table.data-table tbody tr")).toHaveCount(0);
});

test("a file that is not a spreadsheet is refused; a read-only user cannot open the importer", async ({
  page,
  signInAs,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 400/);
  await signInAs("admin");
  await openImporter(page);
  await page.getByLabel(FILE_LABEL).setInputFiles({
    name: "foto.png",
    mimeType: "image/png",
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
  });
  await page.getByRole("button", { name: "Importar" }).click();
  await expect(toast(page, "Erro ao importar ambientes")).toContainText(
    "É necessário enviar uma planilha .xlsx ou um arquivo .csv.",
  );

  await signInAs("coordenador");
  await page.goto("/ambientes/importar");
  await expect(page).toHaveURL("/ambientes");
});

test("screenshots of the importer at 360 and 1280 px", async ({ page, signInAs, allowConsoleErrors }, testInfo) => {
  test.skip(!process.env.SCREENSHOTS, "screenshots only on demand: set SCREENSHOTS=1");
  allowConsoleErrors(/status of 400/);
  await signInAs("admin");
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await openImporter(page);
    await screenshot(page, testInfo.project.name, `ambientes-importar-${width}`);
    const csv = `${HEADER.join(";")}\r\nSala;Banheiros;Portaria;Térreo;Radioativo;Varrer;\r\n`;
    await page
      .getByLabel(FILE_LABEL)
      .setInputFiles({ name: "erros.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Importar" }).click();
    await expect(page.getByRole("list", { name: "Erros da planilha" })).toBeVisible();
    await screenshot(page, testInfo.project.name, `ambientes-importar-erros-${width}`);
  }
});
