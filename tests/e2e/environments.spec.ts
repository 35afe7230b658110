import type { Locator, Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { BRANCHES, branchOption, range, todayInFortaleza, uniquePrefix } from "../support/e2e-catalogues.ts";
import {
  DATA_COLUMNS,
  DEMO,
  ENVIRONMENT_WITH_HISTORY,
  TEXTS,
  createEnvironments,
  dataCells,
  decodeQrPng,
  environmentListReady,
  environmentRow,
  readPdf,
  searchEnvironments,
} from "../support/e2e-environments.ts";
import { drawer, expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Environments (/ambientes), issue 10: spec 000 §2 'Environments', §4 (procedure selection, company change, QR
 * dialog), §5 'Environments', §8 and §9 (file names, the Excel of the page on screen, QR geometry). Every test runs
 * with JavaScript and without it.
 */

const mandatoryGroup = (page: Page) => page.getByRole("group", { name: "Procedimentos obrigatórios" });
const optionalGroup = (page: Page) => page.getByRole("group", { name: "Procedimentos opcionais" });
const risksGroup = (page: Page) => page.getByRole("group", { name: "Riscos" });
const tick = (group: Locator, label: string) => group.getByLabel(label, { exact: true });

/** With JS, waits until the form's tick boxes have React's change handlers (a click before is lost to hydration). */
async function formReady(page: Page, javaScriptEnabled: boolean) {
  await expect(page.getByLabel("Nome do ambiente")).toBeVisible();
  if (!javaScriptEnabled) return;
  await page.waitForFunction(() => {
    const input = document.querySelector('input[name="procedures"]') as (Element & Record<string, unknown>) | null;
    const key = input && Object.keys(input).find((name) => name.startsWith("__reactProps$"));
    return !!key && typeof (input[key] as { onChange?: unknown }).onChange === "function";
  });
}

/** Chooses the form's company: with JS it reloads the options at once; without, 'Carregar' reloads the form. */
async function chooseCompany(page: Page, javaScriptEnabled: boolean, branch: keyof typeof BRANCHES) {
  const select = page.getByLabel("Empresa / filial");
  if (javaScriptEnabled) {
    await Promise.all([
      page.waitForResponse((response) => response.url().includes("/ambientes/cadastrar.data")),
      select.selectOption({ label: branchOption(branch) }),
    ]);
    await expect(page.getByRole("button", { name: "Cadastrar" })).toBeEnabled();
  } else {
    await select.selectOption({ label: branchOption(branch) });
    await page.getByRole("button", { name: "Carregar" }).click();
    await expect(page).toHaveURL(new RegExp(`companyId=${BRANCHES[branch].id}`));
  }
  await expect(select).toHaveValue(String(BRANCHES[branch].id));
}

test("register with risks, mandatory and optional procedures; blank fields, the exclusivity rule, a duplicate name, a company change; edit; remove", async ({
  page,
  request,
  javaScriptEnabled,
  signInAs,
  allowConsoleErrors,
}, testInfo) => {
  test.slow(); // a long flow on a shared, busy machine
  allowConsoleErrors(/status of 4(00|09)/);
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  const name = `${prefix} Sala de espera`;
  const renamed = `${prefix} Sala de espera editada`;
  await createEnvironments(request, [{ name: `${prefix} Existente`, andar: "Térreo" }]);

  // 'Ambientes' of the Cadastros menu opens the list.
  await page.goto("/dashboard");
  await drawer(page).getByRole("link", { name: "Ambientes", exact: true }).first().click();
  await expect(page).toHaveURL("/ambientes");
  await expect(page.getByRole("heading", { level: 1, name: TEXTS.title })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Abas" });
  await expect(tabs.getByRole("link", { name: TEXTS.listTab })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: TEXTS.registerTab }).click();
  await expect(page).toHaveURL("/ambientes/cadastrar");
  await formReady(page, javaScriptEnabled);
  // The company's first category and sector are chosen; the 'Adicionar novo' links lead to the catalogues.
  await expect(page.getByLabel("Empresa / filial")).toHaveValue(String(BRANCHES.matriz.id));
  await expect(page.getByLabel("Categoria", { exact: true }).locator("option:checked")).toHaveText("Banheiro");
  for (const [label, href] of [
    ["Adicionar nova categoria", "/categorias/cadastrar"],
    ["Adicionar novo setor", "/setores/cadastrar"],
    ["Adicionar novo risco", "/riscos/cadastrar"],
    ["Adicionar novo procedimento", "/procedimentos/cadastrar"],
  ]) {
    await expect(page.getByRole("link", { name: label })).toHaveAttribute("href", href);
  }

  // Nothing filled: 'Campos em branco' and each field's own message.
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, TEXTS.blankTitle)).toContainText(TEXTS.blankDescription);
  await expect(page.getByLabel("Nome do ambiente")).toHaveAccessibleDescription(TEXTS.nameRequired);
  await expect(page.getByLabel("Andar", { exact: true })).toHaveAccessibleDescription(TEXTS.andarRequired);
  await expect(risksGroup(page)).toHaveAccessibleDescription(TEXTS.risksRequired);
  await expect(mandatoryGroup(page)).toHaveAccessibleDescription(TEXTS.proceduresRequired);

  // A name typed before the company changes stays; the new company's first category and sector are chosen and the
  // risks and procedures ticked before are cleared (spec 000 §4).
  await page.getByLabel("Nome do ambiente").fill(name);
  await page.getByLabel("Andar", { exact: true }).fill("1º andar");
  await tick(risksGroup(page), "Físico").check();
  await chooseCompany(page, javaScriptEnabled, "aldeota");
  await expect(page.getByLabel("Nome do ambiente")).toHaveValue(name);
  await expect(tick(risksGroup(page), "Físico")).not.toBeChecked();
  await expect(page.getByLabel("Categoria", { exact: true }).locator("option:checked")).toHaveText("Banheiro");
  await expect(page.getByLabel("Setor", { exact: true }).locator("option:checked")).toHaveText("Administrativo");

  await page.getByLabel("Categoria", { exact: true }).selectOption({ label: "Sala" });
  await page.getByLabel("Setor", { exact: true }).selectOption({ label: "UTI" });
  await page.getByLabel("Andar", { exact: true }).fill("2º andar");
  await tick(risksGroup(page), "Químico").check();
  await tick(risksGroup(page), "Biológico").check();
  await tick(mandatoryGroup(page), "Recolher lixo").check();
  await tick(mandatoryGroup(page), "Limpar piso").check();
  await tick(optionalGroup(page), "Limpar vidros").check();

  // A procedure is never both mandatory and optional: with JS ticking one list unticks the other at once; without
  // JS the server refuses the form with the rule's message.
  await tick(optionalGroup(page), "Limpar piso").check();
  if (javaScriptEnabled) {
    await expect(tick(mandatoryGroup(page), "Limpar piso")).not.toBeChecked();
    await tick(mandatoryGroup(page), "Limpar piso").check();
    await expect(tick(optionalGroup(page), "Limpar piso")).not.toBeChecked();
  } else {
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(optionalGroup(page)).toHaveAccessibleDescription(TEXTS.procedureConflict);
    await expect(toast(page, "Erro ao cadastrar o ambiente")).toContainText(TEXTS.procedureConflict);
    // What was posted is kept.
    await expect(page.getByLabel("Nome do ambiente")).toHaveValue(name);
    await expect(tick(mandatoryGroup(page), "Limpar piso")).toBeChecked();
    await expect(tick(risksGroup(page), "Químico")).toBeChecked();
    await tick(optionalGroup(page), "Limpar piso").uncheck();
  }
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, TEXTS.created, "status")).toBeVisible();
  await expect(page).toHaveURL("/ambientes");

  // The list shows it with risks and procedures joined by commas.
  await searchEnvironments(page, prefix);
  await environmentListReady(page, javaScriptEnabled);
  const row = environmentRow(page, name);
  await expect(row).toHaveCount(1);
  const cells = (await dataCells(page)).find((line) => line[1] === name);
  expect(cells).toEqual([
    BRANCHES.aldeota.nome,
    name,
    "Sala",
    "UTI",
    "2º andar",
    "Biológico, Químico",
    "Limpar piso, Recolher lixo",
    "Limpar vidros",
  ]);
  const listUrl = page.url();

  // The same name as another environment of the branch, in other letter case: refused with an info toast.
  await page.goto("/ambientes/cadastrar");
  await formReady(page, javaScriptEnabled);
  await page.getByLabel("Nome do ambiente").fill(`${prefix} EXISTENTE`);
  await page.getByLabel("Andar", { exact: true }).fill("Térreo");
  await tick(risksGroup(page), "Físico").check();
  await tick(mandatoryGroup(page), "Limpar piso").check();
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, TEXTS.duplicateTitle, "status")).toContainText(TEXTS.duplicateDescription);
  await expect(page).toHaveURL(/\/ambientes\/cadastrar/);

  // Edit: no company field; the saved choices are ticked; 'Marcar todos' makes every procedure optional.
  await page.goto(listUrl);
  await environmentListReady(page, javaScriptEnabled);
  await environmentRow(page, name)
    .getByRole("link", { name: `Editar ${name}` })
    .click();
  await expect(page.getByRole("heading", { name: `${TEXTS.editHeading} (${BRANCHES.aldeota.nome})` })).toBeVisible();
  await formReady(page, javaScriptEnabled);
  await expect(page.getByLabel("Empresa / filial")).toHaveCount(0);
  await expect(page.getByLabel("Nome do ambiente")).toHaveValue(name);
  await expect(page.getByLabel("Andar", { exact: true })).toHaveValue("2º andar");
  await expect(page.getByLabel("Setor", { exact: true }).locator("option:checked")).toHaveText("UTI");
  await expect(tick(risksGroup(page), "Biológico")).toBeChecked();
  await expect(tick(mandatoryGroup(page), "Recolher lixo")).toBeChecked();
  await expect(tick(optionalGroup(page), "Limpar vidros")).toBeChecked();
  await expect(tick(optionalGroup(page), "Limpar piso")).not.toBeChecked();
  // Cancelar goes back to the list as it was.
  await page.getByRole("link", { name: "Cancelar" }).click();
  await expect(page).toHaveURL(listUrl);
  await environmentListReady(page, javaScriptEnabled);
  await environmentRow(page, name)
    .getByRole("link", { name: `Editar ${name}` })
    .click();
  await formReady(page, javaScriptEnabled);
  await page.getByLabel("Nome do ambiente").fill(renamed);
  await optionalGroup(page).getByLabel("Marcar todos").check();
  if (javaScriptEnabled) {
    for (const procedure of DEMO.procedures) {
      await expect(tick(optionalGroup(page), procedure)).toBeChecked();
      await expect(tick(mandatoryGroup(page), procedure)).not.toBeChecked();
    }
  }
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, TEXTS.edited, "status")).toBeVisible();
  await expect(page).toHaveURL(listUrl);
  const edited = (await dataCells(page)).find((line) => line[1] === renamed);
  expect(edited?.slice(6)).toEqual([
    "",
    "Desinfetar superfícies, Higienizar pias, Limpar piso, Limpar vaso sanitário, Limpar vidros, Recolher lixo, " +
      "Repor papel toalha, Repor sabonete",
  ]);
  await expect(environmentRow(page, name)).toHaveCount(0);

  // Remove: 'Não' keeps it, 'Sim' removes it.
  await environmentListReady(page, javaScriptEnabled);
  const removeLink = () => environmentRow(page, renamed).getByRole("link", { name: `Remover ${renamed}` });
  const confirm = javaScriptEnabled ? page.getByRole("dialog", { name: `Remover ${renamed}` }) : page.locator("main");
  await removeLink().click();
  await expect(confirm.getByText(TEXTS.removeQuestion)).toBeVisible();
  await confirm.getByRole(javaScriptEnabled ? "button" : "link", { name: "Não" }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(environmentRow(page, renamed)).toHaveCount(1);
  await removeLink().click();
  await confirm.getByRole("button", { name: "Sim" }).click();
  await expect(toast(page, TEXTS.deleted, "status")).toBeVisible();
  await expect(page).toHaveURL(listUrl);
  await expect(environmentRow(page, renamed)).toHaveCount(0);
  await expect(environmentRow(page, `${prefix} Existente`)).toHaveCount(1);
});

test("search by a field other than the name ('Filtrar por'), and sort by columns", async ({
  page,
  request,
  javaScriptEnabled,
  signInAs,
}, testInfo) => {
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  const floor = `Piso ${prefix.slice(-6)}x`;
  // Names in one order, floors in another, mandatory procedures in a third.
  await createEnvironments(request, [
    { name: `${prefix} A`, andar: `${floor} 3`, mandatory: ["Recolher lixo"] },
    { name: `${prefix} B`, andar: `${floor} 1`, mandatory: ["Limpar piso"] },
    { name: `${prefix} C`, andar: `${floor} 2`, mandatory: ["Desinfetar superfícies"] },
  ]);
  const names = async () => (await dataCells(page)).map((cells) => cells[1]);

  // By default the search matches the name only: the floor's text finds nothing.
  await page.goto("/ambientes");
  await searchEnvironments(page, floor);
  await expect(page.getByText("Nenhum resultado para a busca.")).toBeVisible();

  // 'Filtrar por' Andar (and not Ambiente): the three show up.
  const filter = page.locator("details.filter");
  await filter.locator("summary").click();
  const panel = page.getByRole("group", { name: TEXTS.filter });
  await expect(panel.getByLabel("Ambiente")).toBeChecked();
  await panel.getByLabel("Andar").check();
  await panel.getByLabel("Ambiente").uncheck();
  await panel.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/campos=andar/);
  await expect(page).not.toHaveURL(/campos=ambiente/);
  await environmentListReady(page, javaScriptEnabled);
  // Polled: with JS the URL moves before React has put the new rows in.
  await expect.poll(async () => (await names()).sort()).toEqual([`${prefix} A`, `${prefix} B`, `${prefix} C`]);
  await expect(filter.locator("summary")).toHaveText(`${TEXTS.filter} (1)`);

  // Sorted by name by default; the 'Andar' header sorts by floor, ascending then descending, keeping the filter.
  const header = (label: string) => page.getByRole("columnheader", { name: label, exact: true });
  await expect(header("Ambiente")).toHaveAttribute("aria-sort", "ascending");
  expect(await names()).toEqual([`${prefix} A`, `${prefix} B`, `${prefix} C`]);
  await header("Andar").getByRole("link").click();
  await expect(page).toHaveURL(/ordem=andar/);
  await expect(page).toHaveURL(/campos=andar/);
  await expect(header("Andar")).toHaveAttribute("aria-sort", "ascending");
  await expect(header("Ambiente")).toHaveAttribute("aria-sort", "none");
  expect(await names()).toEqual([`${prefix} B`, `${prefix} C`, `${prefix} A`]);
  await header("Andar").getByRole("link").click();
  await expect(header("Andar")).toHaveAttribute("aria-sort", "descending");
  expect(await names()).toEqual([`${prefix} A`, `${prefix} C`, `${prefix} B`]);

  // A list-valued column sorts by its names joined (Desinfetar… < Limpar… < Recolher…).
  await header("Procedimentos Obrigatórios").getByRole("link").click();
  await expect(header("Procedimentos Obrigatórios")).toHaveAttribute("aria-sort", "ascending");
  expect(await names()).toEqual([`${prefix} C`, `${prefix} B`, `${prefix} A`]);
});

test("a user without a main company sees the list read-only, with the exports and the QR codes", async ({
  page,
  request,
  signInAs,
  allowConsoleErrors,
}, testInfo) => {
  allowConsoleErrors(/status of 403/);
  const prefix = uniquePrefix(testInfo);
  await createEnvironments(request, [
    { name: `${prefix} da Aldeota`, andar: "Térreo", branch: "aldeota" },
    { name: `${prefix} da Matriz`, andar: "Térreo", branch: "matriz" },
  ]);
  await signInAs("coordenador");
  await page.goto("/ambientes?tamanho=todos");
  await expect(page.getByRole("heading", { level: 1, name: TEXTS.title })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Abas" });
  await expect(tabs.getByRole("link", { name: TEXTS.listTab })).toBeVisible();
  await expect(page.getByText(TEXTS.registerTab)).toHaveCount(0);

  // Data columns and QrCode only: no tick boxes, no 'Marcar Todos', no Editar or Remover.
  await expect(page.getByRole("columnheader")).toHaveText(
    [...DATA_COLUMNS, "QrCode"].map((label) => new RegExp(label)),
  );
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByText("Marcar Todos")).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^(Editar|Remover) / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Exportar QR codes" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Exportar Excel" })).toBeVisible();
  // Only the user's branch.
  const branches = new Set((await dataCells(page)).map((cells) => cells[0]));
  expect(branches).toEqual(new Set([BRANCHES.aldeota.nome]));
  await searchEnvironments(page, prefix);
  expect((await dataCells(page)).map((cells) => cells[1])).toEqual([`${prefix} da Aldeota`]);
  const qrHref = await environmentRow(page, `${prefix} da Aldeota`)
    .getByRole("link", { name: /^QR code de / })
    .getAttribute("href");
  expect(qrHref).toMatch(/^\/ambientes\/\d+\/qrcode/);
  const qrPage = await page.goto(qrHref!);
  expect(qrPage?.status()).toBe(200);
  await expect(page.getByRole("link", { name: "PDF" })).toBeVisible();

  // The register URL goes back to the list; edit and remove pages refuse.
  await page.goto("/ambientes/cadastrar");
  await expect(page).toHaveURL("/ambientes");
  const id = qrHref!.split("/")[2];
  expect((await page.goto(`/ambientes/${id}/editar`))?.status()).toBe(403);
  expect((await page.goto(`/ambientes/${id}/remover`))?.status()).toBe(403);
});

test("an environment with history cannot be removed", async ({ page, javaScriptEnabled, signInAs }) => {
  await signInAs("admin");
  const { name } = ENVIRONMENT_WITH_HISTORY;
  await page.goto("/ambientes");
  await searchEnvironments(page, name);
  await environmentListReady(page, javaScriptEnabled);
  await environmentRow(page, name)
    .getByRole("link", { name: `Remover ${name}` })
    .click();
  const confirm = javaScriptEnabled ? page.getByRole("dialog", { name: `Remover ${name}` }) : page.locator("main");
  await expect(confirm.getByText(TEXTS.removeQuestion)).toBeVisible();
  await confirm.getByRole("button", { name: "Sim" }).click();
  await expect(toast(page, TEXTS.hasHistory)).toBeVisible();
  await expect(environmentRow(page, name)).toHaveCount(1);
});

test("'Exportar Excel' downloads the page on screen as listagem-ambientes-DD-MM-YYYY.xlsx", async ({
  page,
  request,
  javaScriptEnabled,
  signInAs,
}, testInfo) => {
  test.slow();
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  await createEnvironments(
    request,
    range(1, 21).map((n) => ({
      name: `${prefix} ${String(n).padStart(3, "0")}`,
      andar: `${n}º andar`,
      branch: "messejana" as const,
      category: "Enfermaria",
      sector: "UTI",
      risks: ["Biológico", "Químico"],
      mandatory: ["Limpar piso", "Recolher lixo"],
      optional: n % 2 ? ["Limpar vidros"] : [],
    })),
  );
  await page.goto("/ambientes");
  await searchEnvironments(page, prefix);
  await environmentListReady(page, javaScriptEnabled);
  await expect(page.getByText("21 registros")).toBeVisible();
  const firstPage = await dataCells(page);
  expect(firstPage).toHaveLength(20);
  expect(await exportedRows(page)).toEqual(firstPage);

  // Page 2 of 2: the export holds its one row.
  await page
    .getByRole("navigation", { name: "Paginação" })
    .getByRole("link", { name: "Página 2", exact: true })
    .click();
  await expect(page).toHaveURL(/pagina=2/);
  // With JS the URL moves before React has put the new rows in: wait for the page's one row.
  await expect(page.locator("table.data-table tbody tr")).toHaveCount(1);
  const secondPage = await dataCells(page);
  expect(secondPage).toEqual([
    [
      BRANCHES.messejana.nome,
      `${prefix} 021`,
      "Enfermaria",
      "UTI",
      "21º andar",
      "Biológico, Químico",
      "Limpar piso, Recolher lixo",
      "Limpar vidros",
    ],
  ]);
  expect(await exportedRows(page)).toEqual(secondPage);
});

/** Downloads 'Exportar Excel', checks its name and header, and answers its data rows as text. */
async function exportedRows(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`listagem-ambientes-${todayInFortaleza()}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  expect(sheet.name).toBe("Ambientes");
  const header = sheet.getRow(1);
  expect(DATA_COLUMNS.map((_, index) => header.getCell(index + 1).value)).toEqual([...DATA_COLUMNS]);
  expect(header.getCell(1).font?.bold).toBe(true);
  expect(sheet.actualColumnCount).toBe(DATA_COLUMNS.length);
  const rows: string[][] = [];
  for (let index = 2; index <= sheet.actualRowCount; index++) {
    const row = sheet.getRow(index);
    rows.push(DATA_COLUMNS.map((_, column) => String(row.getCell(column + 1).value ?? "")));
  }
  return rows;
}

test("one environment's QR code: the image decodes to its public page, the PDF sheet names it", async ({
  page,
  request,
  javaScriptEnabled,
  signInAs,
  baseURL,
}, testInfo) => {
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  const name = `${prefix} Recepção do bloco B`;
  const [id] = await createEnvironments(request, [{ name, andar: "Térreo" }]);
  await page.goto("/ambientes");
  await searchEnvironments(page, prefix);
  await environmentListReady(page, javaScriptEnabled);
  await environmentRow(page, name)
    .getByRole("link", { name: `QR code de ${name}` })
    .click();
  const dialog = javaScriptEnabled ? page.getByRole("dialog", { name: `QR code: ${name}` }) : page.locator("main");
  if (!javaScriptEnabled) await expect(page.getByRole("heading", { name: `QR code: ${name}` })).toBeVisible();
  await expect(dialog.getByRole("img", { name: `QR code de ${name}` })).toBeVisible();

  // 'Imagem', then the format: PNG.
  await dialog.getByRole(javaScriptEnabled ? "button" : "link", { name: "Imagem" }).click();
  for (const format of ["JPEG", "PNG", "SVG"]) await expect(dialog.getByRole("link", { name: format })).toBeVisible();
  const [png] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "PNG" }).click()]);
  expect(png.suggestedFilename()).toBe(`QRCODE-${id}.png`);
  expect(decodeQrPng(await png.path())).toMatch(new RegExp(`^${baseURL}/info/ambiente/${id}\\?qr=[0-9a-f]{16}$`));

  // 'Voltar' goes back to the first choice: the A4 sheet as PDF, one page with the name.
  await dialog.getByRole(javaScriptEnabled ? "button" : "link", { name: "Voltar" }).click();
  const [pdf] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "PDF" }).click()]);
  expect(pdf.suggestedFilename()).toBe(`QRCODE-${id}.pdf`);
  const sheets = await readPdf(pdf);
  expect(sheets.pages).toBe(1);
  expect(sheets.text[0]).toContain(name);

  // 'Voltar' again leaves the dialog (or the page, back to the list).
  await dialog.getByRole(javaScriptEnabled ? "button" : "link", { name: "Voltar" }).click();
  if (javaScriptEnabled) await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/ambientes\?q=/);
});

test("the ticked rows' QR codes in one PDF, one page each: QRCODES-YYYYMMDD-HHmm.pdf", async ({
  page,
  request,
  javaScriptEnabled,
  signInAs,
}, testInfo) => {
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  const names = [`${prefix} Copa`, `${prefix} Depósito`, `${prefix} Escada`];
  await createEnvironments(
    request,
    names.map((name) => ({ name, andar: "Térreo" })),
  );
  await page.goto("/ambientes");
  await searchEnvironments(page, prefix);
  await environmentListReady(page, javaScriptEnabled);
  const bulk = page.getByRole("button", { name: "Exportar QR codes" });
  if (javaScriptEnabled) {
    // Shown once something is ticked.
    await expect(bulk).toHaveCount(0);
  } else {
    // Nothing ticked: the spec's 'Nenhum registro selecionado'.
    await bulk.click();
    await expect(toast(page, TEXTS.nothingTicked, "status")).toContainText("Favor selecionar pelo menos um registro");
    await expect(page).toHaveURL(/\/ambientes\?q=/);
  }
  for (const name of [names[0], names[2]]) {
    await page.getByRole("checkbox", { name: `Selecionar ${name} (${BRANCHES.matriz.nome})` }).check();
  }
  const [download] = await Promise.all([page.waitForEvent("download"), bulk.click()]);
  expect(download.suggestedFilename()).toMatch(/^QRCODES-\d{8}-\d{4}\.pdf$/);
  const pdf = await readPdf(download);
  expect(pdf.pages).toBe(2);
  expect(pdf.text[0]).toContain(names[0]);
  expect(pdf.text[1]).toContain(names[2]);
  expect(pdf.text.join(" ")).not.toContain(names[1]);
});

test.describe("on a phone (360 px)", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  /** Nothing on the page is wider than the screen (no sideways scrolling). */
  async function expectNoSideScroll(page: Page, what: string) {
    const { scrollWidth, viewport } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(scrollWidth, `${what}: page width`).toBeLessThanOrEqual(viewport);
  }

  test("the list as cards, the forms' tick-box lists, the QR choice and the removal fit the screen", async ({
    page,
    request,
    javaScriptEnabled,
    signInAs,
  }, testInfo) => {
    test.slow();
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const long = `${prefix} Centro de material e esterilização do bloco cirúrgico ala norte sala doze`;
    const [id] = await createEnvironments(request, [
      {
        name: long,
        andar: "Segundo andar, ala norte, próximo aos elevadores sociais",
        risks: DEMO.risks.slice(),
        mandatory: DEMO.procedures.slice(0, 5),
        optional: DEMO.procedures.slice(5),
      },
    ]);
    await page.goto(`/ambientes?q=${encodeURIComponent(prefix)}`);
    await environmentListReady(page, javaScriptEnabled);
    await expectNoSideScroll(page, "list");
    const card = environmentRow(page, long);
    const box = await card.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    for (const action of await card.getByRole("link").all()) {
      await expect(action).toBeVisible();
      const actionBox = await action.boundingBox();
      expect(actionBox!.x + actionBox!.width, "row action inside the screen").toBeLessThanOrEqual(360);
    }
    // 'Filtrar por' is folded with the sort and page size on a phone (issue 27 §8).
    await page.getByText("Opções da lista").click();
    await page.locator("details.filter summary").click();
    await expect(page.getByRole("group", { name: TEXTS.filter })).toBeVisible();
    await expectNoSideScroll(page, "filter open");

    for (const path of [
      "/ambientes/cadastrar",
      `/ambientes/${id}/editar`,
      `/ambientes/${id}/remover`,
      `/ambientes/${id}/qrcode`,
      `/ambientes/${id}/qrcode?tipo=imagem`,
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: TEXTS.title })).toBeVisible();
      await expectNoSideScroll(page, path);
    }
    // The tick-box lists wrap: every procedure of the optional list inside the screen.
    await page.goto(`/ambientes/${id}/editar`);
    for (const label of await optionalGroup(page).locator("label").all()) {
      const labelBox = await label.boundingBox();
      expect(labelBox!.x + labelBox!.width, "a tick box's label inside the screen").toBeLessThanOrEqual(360);
    }

    if (javaScriptEnabled) {
      await page.goto(`/ambientes?q=${encodeURIComponent(prefix)}`);
      await environmentListReady(page, true);
      await environmentRow(page, long)
        .getByRole("link", { name: `QR code de ${long}` })
        .click();
      await expect(page.getByRole("dialog", { name: `QR code: ${long}` })).toBeVisible();
      await expectNoSideScroll(page, "QR dialog");
    }
  });
});
