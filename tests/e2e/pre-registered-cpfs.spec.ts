import { randomInt } from "node:crypto";

import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { cpfWithCheckDigits } from "../support/cpf.ts";
import { bodyRows, todayInFortaleza, uniquePrefix } from "../support/e2e-catalogues.ts";
import { expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Pre-registered CPFs (issue 11, '/pre-cadastro-usuarios'): spec 000 §2 'Pre-registered CPFs', §5, §8 (toasts), §9
 * (file name); docs/organisation.md. With and without JavaScript: an administrator pre-registers two CPFs, exports
 * the list (opened with exceljs), bulk-inactivates one after the confirmation page, and a person signs up with the
 * other. Every text is written out here.
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
});
