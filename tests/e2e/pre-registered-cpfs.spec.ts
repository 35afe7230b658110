import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";

import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { cpfWithCheckDigits } from "../support/cpf.ts";
import { bodyRows, hydrated, todayInFortaleza, uniquePrefix } from "../support/e2e-catalogues.ts";
import { expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Pre-registered CPFs (issue 11, '/pre-cadastro-usuarios'): spec 000 §2 'Pre-registered CPFs', §5, §8 (toasts), §9
 * (file name); docs/organisation.md. With and without JavaScript: an administrator pre-registers two CPFs, exports
 * the list (opened with exceljs), bulk-inactivates one after the confirmation page, and a person signs up with the
 * other; the batch register ('Cadastro em lote': template, a CSV of CPFs and levels, the rows refused with their
 * lines). Every text is written out here.
 */

const freshCpf = () => cpfWithCheckDigits(String(randomInt(100_000_000, 999_999_999)));
const masked = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

async function preRegister(page: Page, cpf: string, branch: string, level: string) {
  await page.getByRole("navigation", { name: "Abas" }).getByRole("link", { name: "Cadastrar CPF's" }).click();
  await expect(page.getByRole("heading", { name: "Cadastro individual" })).toBeVisible();
  const branchSelect = page.getByLabel("Empresa / filial");
  const option = branchSelect.locator("option", { hasText: branch });
  await branchSelect.selectOption(await option.getAttribute("value"));
  await page.getByLabel("CPF", { exact: true }).fill(cpf);
  await page.getByLabel("Nível de acesso").selectOption({ label: level });
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "CPF pré-cadastrado com sucesso", "status")).toBeVisible();
  await expect(page).toHaveURL("/pre-cadastro-usuarios");
}

async function search(page: Page, text: string) {
  await page.getByLabel("Buscar CPF").fill(text);
  await page
    .getByRole("search")
    .getByRole("button", { name: /^Buscar/ })
    .click();
  await expect(page).toHaveURL(/[?&]q=/);
}

/** Opens the 'Status do(s) Usuário(s)' menu (a <details>) and picks an entry. */
async function chooseStatus(page: Page, label: string) {
  const entry = page.getByRole("button", { name: label });
  // A click landing while the page hydrates can be undone by it: open the menu until the entry shows.
  await expect(async () => {
    if (!(await entry.isVisible())) await page.locator("summary", { hasText: "Status do(s) Usuário(s)" }).click();
    await expect(entry).toBeVisible({ timeout: 1000 });
  }).toPass();
  await entry.click();
}

test("an administrator pre-registers CPFs, exports the list, bulk-inactivates one; the other signs up", async ({
  page,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  test.slow();
  allowConsoleErrors(/status of 4(00|09)/);
  const prefix = uniquePrefix(testInfo);
  const [kept, inactivated] = [freshCpf(), freshCpf()];

  await signInAs("admin");
  await page.goto("/pre-cadastro-usuarios");
  await expect(page.getByRole("heading", { level: 1, name: "Pré-cadastro de usuários" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Abas" });
  await expect(tabs.getByRole("link", { name: "Listar CPF's" })).toHaveAttribute("aria-current", "page");

  // Spec 000 §5's messages.
  await tabs.getByRole("link", { name: "Cadastrar CPF's" }).click();
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Campos em branco")).toContainText("Existem campos obrigatórios não preenchidos.");
  await expect(page.getByLabel("CPF")).toHaveAccessibleDescription("CPF do usuário é obrigatório");
  await expect(page.getByLabel("Nível de acesso")).toHaveAccessibleDescription("Nível de acesso é obrigatório");
  await page.getByLabel("CPF").fill("123.456.78");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByLabel("CPF")).toHaveAccessibleDescription("Favor inserir um CPF válido");
  if (javaScriptEnabled) {
    await page.getByLabel("CPF").fill(kept);
    await expect(page.getByLabel("CPF")).toHaveValue(masked(kept));
  }

  await preRegister(page, kept, "Filial Aldeota", "ASG");
  await preRegister(page, inactivated, "Filial Messejana", "Coordenador");

  // A CPF already pre-registered is refused.
  await tabs.getByRole("link", { name: "Cadastrar CPF's" }).click();
  await expect(page.getByRole("heading", { name: "Cadastro individual" })).toBeVisible();
  await page.getByLabel("CPF", { exact: true }).fill(masked(kept));
  await page.getByLabel("Nível de acesso").selectOption({ label: "ASG" });
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Erro ao pré-cadastrar CPF")).toContainText("CPF já pré-cadastrado");
  await expect(page.getByLabel("CPF")).toHaveAccessibleDescription("CPF já pré-cadastrado");
  await tabs.getByRole("link", { name: "Listar CPF's" }).click();

  // Listed and exported as shown.
  await search(page, masked(kept));
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page)).toContainText(masked(kept));
  await expect(bodyRows(page)).toContainText("Filial Aldeota");
  await expect(bodyRows(page)).toContainText("Ativo");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`listagem-cpfs-${todayInFortaleza()}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  expect(rows[0]).toEqual(["CPF", "Filial", "CNPJ", "Status"]);
  expect(rows.slice(1)).toEqual([[masked(kept), "Filial Aldeota", expect.any(String), "Ativo"]]);

  // Nothing ticked: 'Nenhum registro selecionado'.
  await chooseStatus(page, "Inativar usuário(s)");
  await expect(toast(page, "Nenhum registro selecionado", "status")).toContainText(
    "Favor selecionar pelo menos um registro",
  );

  // Bulk-inactivate the other one, through the confirmation.
  await search(page, masked(inactivated));
  await expect(bodyRows(page)).toHaveCount(1);
  await page.getByRole("checkbox", { name: `Selecionar ${masked(inactivated)}` }).check();
  await chooseStatus(page, "Inativar usuário(s)");
  await expect(page.getByRole("heading", { name: "Inativar usuário(s)" })).toBeVisible();
  await expect(page.getByText("Tem certeza que deseja inativar os CPF's selecionados?")).toBeVisible();
  await expect(page.getByRole("list", { name: "CPF's selecionados" })).toContainText(masked(inactivated));
  await page.getByRole("button", { name: "Sim" }).click();
  await expect(toast(page, "Usuário(s) atualizado(s) com sucesso", "status")).toBeVisible();
  await expect(page).toHaveURL(/\/pre-cadastro-usuarios\?q=/);
  await expect(bodyRows(page)).toContainText("Inativo");

  // The kept CPF signs up.
  await page.context().clearCookies();
  await page.goto("/signup");
  const email = `cpf.${prefix.split(" ").pop()}.${testInfo.project.name}@cadastro-e2e.com.br`;
  await page.getByLabel("Nome").fill(`${prefix} Pessoa`);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Confirmação de e-mail").fill(email);
  await page.getByLabel("CPF").fill(kept);
  await page.getByLabel("Data de nascimento").fill("12/04/1990");
  await page.getByLabel("Telefone").fill("85988887777");
  await page.getByLabel("Senha", { exact: true }).fill("senha-nova-1");
  await page.getByLabel("Confirmar senha").fill("senha-nova-1");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Cadastro realizado!", "status")).toContainText("Você já pode fazer seu login.");
});

const FILE_INPUT = "Arraste os arquivos CSV para cá ou clique para procurar";
const csvFile = (name: string, text: string, encoding: BufferEncoding = "utf8") => ({
  name,
  mimeType: "text/csv",
  buffer: Buffer.from(text, encoding),
});

/** 'Cadastrar CPF's', then 'Cadastro em lote' (?modo=lote), ready for a file (with JS: once React runs). */
async function openBatch(page: Page, javaScriptEnabled: boolean) {
  await page.getByRole("navigation", { name: "Abas" }).getByRole("link", { name: "Cadastrar CPF's" }).click();
  await page
    .getByRole("navigation", { name: "Tipo de cadastro" })
    .getByRole("link", { name: "Cadastro em lote" })
    .click();
  await expect(page).toHaveURL("/pre-cadastro-usuarios/cadastrar?modo=lote");
  await expect(page.getByRole("heading", { name: "Cadastro em lote" })).toBeVisible();
  await hydrated(page, javaScriptEnabled, "#arquivos");
}

async function chooseBranch(page: Page, branch: string) {
  const branchSelect = page.getByLabel("Empresa / filial");
  await branchSelect.selectOption(await branchSelect.locator("option", { hasText: branch }).getAttribute("value"));
}

/** The line of the file list (JS) or of the result list (no JS) that names this file. */
function fileEntry(page: Page, javaScriptEnabled: boolean, fileName: string) {
  return page
    .getByRole("list", { name: javaScriptEnabled ? "Arquivos" : "Resultado do envio" })
    .getByRole("listitem")
    .filter({ hasText: fileName });
}

test("batch: 'Baixar Modelo', a Windows-1252 CSV of CPFs and levels goes in, the toast, the rows listed", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  test.slow();
  const [asg, coordinator] = [freshCpf(), freshCpf()];
  await signInAs("admin");
  await page.goto("/pre-cadastro-usuarios");
  await openBatch(page, javaScriptEnabled);
  await expect(page.getByLabel(FILE_INPUT)).toHaveAccessibleDescription(
    "Um CPF por linha, com as colunas CPF e Nível (Administrador, Coordenador, Auditor ou ASG), como no arquivo " +
      "modelo. Escreva o CPF com pontos e traço para o Excel manter os zeros à esquerda.",
  );

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Baixar Modelo" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("modelo-pre-cadastro-cpfs.csv");
  expect(readFileSync(await download.path(), "utf8")).toBe(
    "\uFEFFcpf;nivel\r\n529.982.247-25;ASG\r\n111.444.777-35;Coordenador\r\n",
  );

  // As Excel in pt-BR saves it: Windows-1252, semicolons, the header in other case and with its accent.
  await chooseBranch(page, "Filial Messejana");
  const text = `CPF;Nível\r\n${masked(asg)};ASG\r\n${coordinator};coordenador\r\n`;
  await page.getByLabel(FILE_INPUT).setInputFiles(csvFile("cpfs.csv", text, "latin1"));
  if (javaScriptEnabled) await expect(fileEntry(page, true, "cpfs.csv")).toBeVisible();
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "CPF's pré-cadastrados com sucesso", "status")).toContainText("2 CPF's pré-cadastrados");
  await expect(page).toHaveURL("/pre-cadastro-usuarios");

  for (const cpf of [asg, coordinator]) {
    await search(page, masked(cpf));
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page)).toContainText(masked(cpf));
    await expect(bodyRows(page)).toContainText("Filial Messejana");
    await expect(bodyRows(page)).toContainText("Ativo");
  }
});

test("batch: rows refused with their lines ('Linha N: ...'), nothing written; no file: the .CSV message", async ({
  page,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}) => {
  test.slow();
  allowConsoleErrors(/status of 400/);
  const [good, taken, badCheck] = [freshCpf(), freshCpf(), freshCpf()];
  await signInAs("admin");
  await page.goto("/pre-cadastro-usuarios");
  await preRegister(page, taken, "Filial Aldeota", "ASG");

  // No file: 'Erro ao pré-cadastrar lista de CPF's' (spec 000 §5) with the catalogues' .CSV message.
  await openBatch(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Erro ao pré-cadastrar lista de CPF's")).toContainText(
    "É necessário inserir um arquivo .CSV válido. Favor baixar o arquivo modelo pré-formatado para o preenchimento correto.",
  );

  await openBatch(page, javaScriptEnabled);
  await chooseBranch(page, "Filial Messejana");
  const wrongCheck = badCheck.slice(0, 10) + String((Number(badCheck[10]) + 1) % 10);
  const text = `cpf;nivel\n${masked(good)};ASG\n${masked(wrongCheck)};ASG\n${taken};Auditor\n${good};Gerente\n`;
  await page.getByLabel(FILE_INPUT).setInputFiles(csvFile("com-erros.csv", text));
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Erro ao pré-cadastrar lista de CPF's")).toContainText(
    "Nenhuma linha dos arquivos com erro foi gravada.",
  );
  const entry = fileEntry(page, javaScriptEnabled, "com-erros.csv");
  await expect(entry).toContainText("Linha 3: Esse CPF não é válido!");
  await expect(entry).toContainText(
    "Linha 5: o nível de acesso 'Gerente' é inválido; use Administrador, Coordenador, Auditor ou ASG.",
  );
  if (!javaScriptEnabled) await expect(entry).toContainText("Não cadastrado");
  await expect(page).toHaveURL("/pre-cadastro-usuarios/cadastrar?modo=lote");

  // The rows fixed, the CPF already pre-registered is the one left, named by its line.
  await openBatch(page, javaScriptEnabled);
  await page
    .getByLabel(FILE_INPUT)
    .setInputFiles(csvFile("repetido.csv", `cpf;nivel\n${masked(good)};ASG\n${taken};Auditor\n`));
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(fileEntry(page, javaScriptEnabled, "repetido.csv")).toContainText("Linha 3: CPF já pré-cadastrado");
  await expect(toast(page, "Erro ao pré-cadastrar lista de CPF's")).toContainText(
    javaScriptEnabled ? "Nenhuma linha dos arquivos com erro foi gravada." : "Linha 3: CPF já pré-cadastrado",
  );

  // Nothing of either file was written.
  await page.goto("/pre-cadastro-usuarios");
  await search(page, masked(good));
  await expect(bodyRows(page)).toHaveCount(0);
  await expect(page.getByText("Nenhum resultado para a busca.")).toBeVisible();
});

test("a coordinator sees their branch's CPFs without tick boxes, status menu or register tab", async ({
  page,
  signInAs,
}) => {
  await signInAs("coordenador");
  await page.goto("/pre-cadastro-usuarios");
  await expect(page.getByRole("heading", { level: 1, name: "Pré-cadastro de usuários" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Cadastrar CPF's" })).toHaveCount(0);
  await expect(page.getByText("Status do(s) Usuário(s)")).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(bodyRows(page).first()).toContainText("Filial Aldeota");
  const answer = await page.request.get("/pre-cadastro-usuarios/cadastrar", { maxRedirects: 0 });
  expect(answer.status()).toBe(403);
  const template = await page.request.get("/pre-cadastro-usuarios/modelo.csv", { maxRedirects: 0 });
  expect(template.status()).toBe(403);
});
