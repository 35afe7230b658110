import { randomInt } from "node:crypto";

import type { Locator, Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { cpfWithCheckDigits } from "../support/cpf.ts";
import { bodyRows, todayInFortaleza, uniquePrefix } from "../support/e2e-catalogues.ts";
import { expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * The users list (issue 11, '/listagem-usuarios'): spec 000 §2 'Users', §4, §5 'Users', §6 (levels, who may create
 * and edit whom), §8 (toasts), §9 (file name, 20 a page); docs/users.md 'The web pages'. With and without JavaScript.
 * Every text is written out here. Tests create their own users (unique CPF, e-mail and name prefix) and search for
 * them; the demo accounts are only read.
 */

const freshCpf = () => cpfWithCheckDigits(String(randomInt(100_000_000, 999_999_999)));
const masked = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

async function search(page: Page, text: string) {
  await page.getByLabel("Buscar usuário").fill(text);
  await page.getByRole("search").getByRole("button", { name: "Buscar" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "(\\+|%20)")}`));
}

const headers = (page: Page) => page.locator("table.data-table thead th");
const tabs = (page: Page) => page.getByRole("navigation", { name: "Abas" });

/** The list row of a user, by name. */
const userRow = (page: Page, name: string) => bodyRows(page).filter({ hasText: name });

async function openTab(page: Page, nav: string, name: string) {
  await page.getByRole("navigation", { name: nav }).getByRole("link", { name }).click();
  await expect(page.getByRole("navigation", { name: nav }).getByRole("link", { name })).toHaveAttribute(
    "aria-current",
    "page",
  );
}

/** The id of a listed user, read from its 'Nomes' link (the edit button may be disabled). */
async function userIdOf(row: Locator) {
  const href = await row.getByRole("link", { name: /^Nomes do Usuário: / }).getAttribute("href");
  return Number(/\/listagem-usuarios\/(\d+)\/nomes/.exec(href ?? "")?.[1]);
}

test("the list: columns, search, sort, levels as the list names them, 20 a page, export of the page", async ({
  page,
  signInAs,
}) => {
  await signInAs("principal");
  await page.goto("/listagem-usuarios");
  await expect(page.getByRole("heading", { level: 1, name: "Listagem de usuários" })).toBeVisible();
  await expect(tabs(page).getByRole("link", { name: "Listar usuários" })).toHaveAttribute("aria-current", "page");
  await expect(tabs(page).getByRole("link", { name: "Cadastrar usuário" })).toBeVisible();
  // The principal owns the company's master CPF: the 'Nível' column shows.
  await expect(headers(page)).toHaveText([
    /Empresa/,
    /Nome/,
    /CPF/,
    /E-mail/,
    /Telefone/,
    /Data de Nascimento/,
    /Nível/,
    "Editar",
  ]);
  // Fixed at 20 a page: no page-size choice.
  await expect(page.getByLabel("Itens por página")).toHaveCount(0);

  await search(page, "auditor@demo");
  await expect(bodyRows(page)).toHaveCount(1);
  const auditor = bodyRows(page).first();
  for (const text of [
    "Hospital Boa Saúde",
    "Augusto Auditor",
    "342.005.251-00",
    "auditor@demo.com.br",
    "(85) 9 8888-7777",
    "12/04/1985",
    "Auditor",
  ])
    await expect(auditor).toContainText(text);
  await expect(auditor.getByRole("link", { name: "Editar Augusto Auditor" })).toBeVisible();

  // The search matches the CPF as typed, with or without its punctuation.
  await search(page, "342.005.251");
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page)).toContainText("Augusto Auditor");

  // Levels as the list names them (spec 000 §6): no role and not a former coordinator is 'ASG Antigo'.
  await search(page, "semnivel@demo");
  await expect(bodyRows(page)).toContainText("ASG Antigo");

  // Sorting by e-mail, both ways, among the demo accounts.
  await search(page, "@demo.com.br");
  await page.getByRole("link", { name: /^E-mail/ }).click();
  await expect(page).toHaveURL(/ordem=email/);
  await expect(bodyRows(page).first()).toContainText("admin@demo.com.br");
  await expect(page.getByRole("columnheader", { name: /E-mail/ })).toHaveAttribute("aria-sort", "ascending");
  await page.getByRole("link", { name: /^E-mail/ }).click();
  await expect(page).toHaveURL(/dir=desc/);
  await expect(page.getByRole("columnheader", { name: /E-mail/ })).toHaveAttribute("aria-sort", "descending");
  await expect(bodyRows(page).first()).toContainText("semnivel@demo.com.br");
  await expect(bodyRows(page).last()).toContainText("admin@demo.com.br");

  // An empty search says so.
  await search(page, "ninguém-com-este-nome");
  await expect(page.getByText("Nenhum resultado para a busca.")).toBeVisible();

  // The export is the page on screen, with the screen's columns.
  await search(page, "auditor@demo");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`listagem-usuarios-${todayInFortaleza()}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  expect(rows[0]).toEqual(["Empresa", "Nome", "CPF", "E-mail", "Telefone", "Data de Nascimento", "Nível"]);
  expect(rows.slice(1)).toEqual([
    [
      "Hospital Boa Saúde",
      "Augusto Auditor",
      "342.005.251-00",
      "auditor@demo.com.br",
      "(85) 9 8888-7777",
      "12/04/1985",
      "Auditor",
    ],
  ]);
});

test("an administrator creates an ASG in a branch, edits it, changes its level and manages its names", async ({
  page,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  test.slow();
  allowConsoleErrors(/status of 4(00|09)/);
  const prefix = uniquePrefix(testInfo);
  const cpf = freshCpf();
  const email = `asg.${prefix.split(" ").pop()}.${testInfo.project.name}@usuarios-e2e.com.br`;
  const name = `${prefix} Joana Silva`;

  await signInAs("admin");
  await page.goto("/listagem-usuarios");
  // An administrator without a master CPF: no 'Nível' column.
  await expect(headers(page).filter({ hasText: "Nível" })).toHaveCount(0);
  await tabs(page).getByRole("link", { name: "Cadastrar usuário" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Dados da filial" })).toBeVisible();
  await expect(page.getByLabel("ID", { exact: true })).toHaveValue("1");
  await expect(page.getByLabel("ID", { exact: true })).toHaveAttribute("readonly", "");
  const level = page.getByLabel("Nível de acesso");
  await expect(level.locator("option")).toHaveText([
    "Selecione",
    "Administrador",
    "Coordenador",
    "Auditor",
    "ASG",
    "Cliente",
  ]);

  // Spec 000 §5's messages, inline, with the 'Campos em branco' toast.
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Campos em branco")).toContainText("Existem campos obrigatórios não preenchidos.");
  await expect(level).toHaveAccessibleDescription("Nível de acesso é obrigatório");
  await expect(page.getByLabel("Nome", { exact: true })).toHaveAccessibleDescription("Nome obrigatório");
  await expect(page.getByLabel("E-mail")).toHaveAccessibleDescription("E-mail obrigatório");
  await expect(page.getByLabel("CPF")).toHaveAccessibleDescription("CPF obrigatório");
  await expect(page.getByLabel("Data de Nascimento")).toHaveAccessibleDescription("Data de nascimento obrigatória");
  await expect(page.getByLabel("Telefone")).toHaveAccessibleDescription("Telefone obrigatório");
  await expect(page.getByLabel("Senha", { exact: true })).toHaveAccessibleDescription("No mínimo 6 dígitos");
  await page.getByLabel("E-mail").fill("joana@");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByLabel("E-mail")).toHaveAccessibleDescription("Digite um email válido");

  // The branch: with JS only for the branch levels; without JS always there, with a hint.
  const branch = page.getByLabel("Filial", { exact: true });
  if (javaScriptEnabled) {
    await level.selectOption({ label: "Auditor" });
    await expect(branch).toHaveCount(0);
    await level.selectOption({ label: "ASG" });
    await expect(branch).toBeVisible();
  } else {
    await expect(branch).toHaveAccessibleDescription(/ignorada para Administrador e Auditor/);
    await level.selectOption({ label: "ASG" });
  }
  await branch.selectOption({ label: "3 - Filial Messejana" });
  await page.getByLabel("Nome", { exact: true }).fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("CPF").fill(cpf);
  await page.getByLabel("Data de Nascimento").fill("12/04/1990");
  await page.getByLabel("Telefone").fill("85988776655");
  if (javaScriptEnabled) {
    await expect(page.getByLabel("CPF")).toHaveValue(masked(cpf));
    await expect(page.getByLabel("Telefone")).toHaveValue("(85) 9 8877-6655");
  }
  await page.getByLabel("Senha", { exact: true }).fill("senha-1234");
  await page.getByLabel("Confirmar senha").fill("outra-1234");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByLabel("Confirmar senha")).toHaveAccessibleDescription("Senhas precisam ser iguais");
  // The passwords are not sent back to the page.
  await page.getByLabel("Senha", { exact: true }).fill("senha-1234");
  await page.getByLabel("Confirmar senha").fill("senha-1234");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "O usuário foi cadastrado com sucesso.", "status")).toBeVisible();
  await expect(page).toHaveURL("/listagem-usuarios");

  await search(page, prefix);
  await expect(bodyRows(page)).toHaveCount(1);
  for (const text of ["Filial Messejana", name, masked(cpf), email, "(85) 9 8877-6655", "12/04/1990"])
    await expect(bodyRows(page)).toContainText(text);
  const listUrl = page.url();

  // The same CPF again: 'Erro ao cadastrar!' with the server's reason, on the field too.
  await tabs(page).getByRole("link", { name: "Cadastrar usuário" }).click();
  await level.selectOption({ label: "Auditor" });
  await page.getByLabel("Nome", { exact: true }).fill(`${prefix} Outra`);
  await page.getByLabel("E-mail").fill(`outra.${email}`);
  await page.getByLabel("CPF").fill(cpf);
  await page.getByLabel("Data de Nascimento").fill("01/02/1980");
  await page.getByLabel("Telefone").fill("8533334444");
  await page.getByLabel("Senha", { exact: true }).fill("senha-1234");
  await page.getByLabel("Confirmar senha").fill("senha-1234");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Erro ao cadastrar!")).toContainText("CPF já cadastrado");
  await expect(page.getByLabel("CPF")).toHaveAccessibleDescription("CPF já cadastrado");

  // 'Editar Usuário': name, phone, inactive; the password rules when one is typed.
  await page.goto(listUrl);
  await userRow(page, name)
    .getByRole("link", { name: `Editar ${name}` })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: "Editar Usuário" })).toBeVisible();
  await expect(page.getByText(`CPF: ${masked(cpf)}`)).toBeVisible();
  await expect(page.getByText(`E-mail: ${email}`)).toBeVisible();
  const edit = page.getByRole("navigation", { name: "Abas do usuário" });
  await expect(edit.getByRole("link", { name: "Alterar informações" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("Nome", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Telefone")).toHaveValue("(85) 9 8877-6655");
  await expect(page.getByLabel("Ativo")).toBeChecked();
  await page.getByLabel("Nome", { exact: true }).fill("");
  await page.getByLabel("Senha", { exact: true }).fill("abc");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, "Campos em branco")).toBeVisible();
  await expect(page.getByLabel("Nome", { exact: true })).toHaveAccessibleDescription("Nome obrigatório");
  await expect(page.getByLabel("Senha", { exact: true })).toHaveAccessibleDescription("No mínimo 6 dígitos");
  await expect(page.getByLabel("Confirmar senha")).toHaveAccessibleDescription("Senhas precisam ser iguais");
  await page.getByLabel("Nome", { exact: true }).fill(`${name} Santos`);
  await page.getByLabel("Telefone").fill("8532221111");
  await page.getByLabel("Ativo").uncheck();
  await page.getByLabel("Senha", { exact: true }).fill("");
  await page.getByLabel("Confirmar senha").fill("");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, "O usuário foi alterado com sucesso.", "status")).toBeVisible();
  // Back to the list as it was (its search kept).
  await expect(page).toHaveURL(listUrl);
  await expect(bodyRows(page)).toContainText(`${name} Santos (Inativo)`);
  await expect(bodyRows(page)).toContainText("(85) 3222-1111");

  // 'Alterar nível de acesso': 'Sem nível' changes nothing; Coordenador in another branch.
  await userRow(page, name)
    .getByRole("link", { name: `Editar ${name} Santos` })
    .click();
  await openTab(page, "Abas do usuário", "Alterar nível de acesso");
  await expect(page).toHaveURL(/aba=nivel/);
  await expect(page.getByText("Nível atual: ASG")).toBeVisible();
  await expect(level.locator("option")).toHaveText(["Administrador", "Coordenador", "Auditor", "ASG", "Sem nível"]);
  await level.selectOption({ label: "Sem nível" });
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, "É necessário escolher um nível para o usuário!", "status")).toBeVisible();
  await expect(page.getByText("Nível atual: ASG")).toBeVisible();
  await level.selectOption({ label: "Coordenador" });
  await branch.selectOption({ label: "2 - Filial Aldeota" });
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, "O acesso do usuário foi alterado com sucesso.", "status")).toBeVisible();
  await expect(page).toHaveURL(listUrl);
  await expect(bodyRows(page)).toContainText("Filial Aldeota");
  await userRow(page, name)
    .getByRole("link", { name: `Editar ${name} Santos` })
    .click();
  await openTab(page, "Abas do usuário", "Alterar nível de acesso");
  await expect(page.getByText("Nível atual: Coordenador")).toBeVisible();
  // Cancelar goes back to the list as it was.
  await page.getByRole("link", { name: "Cancelar" }).click();
  await expect(page).toHaveURL(listUrl);

  // 'Nomes do Usuário': the name given on create is there; add, rename, remove (after a 'Não').
  await userRow(page, name)
    .getByRole("link", { name: `Nomes do Usuário: ${name} Santos` })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: "Nomes do Usuário" })).toBeVisible();
  const names = page.getByRole("table", { name: "Nomes do Usuário" });
  await expect(names.locator("tbody tr")).toHaveText([new RegExp(name)]);
  await expect(names.getByRole("columnheader")).toHaveText(["Nome", "Ações"]); // spec 000 §2 'Users'
  await openTab(page, "Abas de nomes", "Cadastrar Nome");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByLabel("Nome do Usuário")).toHaveAccessibleDescription("Nome obrigatório");
  await page.getByLabel("Nome do Usuário").fill(`${prefix} Jojô`);
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, "Nome foi alterado com sucesso.", "status")).toBeVisible();
  await expect(names.locator("tbody tr")).toHaveCount(2);
  await names.getByRole("link", { name: `Editar ${prefix} Jojô` }).click();
  await expect(
    page.getByRole("navigation", { name: "Abas de nomes" }).getByRole("link", { name: "Editar Nome" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("Nome do Usuário")).toHaveValue(`${prefix} Jojô`);
  await page.getByLabel("Nome do Usuário").fill(`${prefix} Jojó`);
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, "Nome foi alterado com sucesso.", "status")).toBeVisible();
  await expect(names).toContainText(`${prefix} Jojó`);

  const remove = () => names.getByRole("link", { name: `Remover ${prefix} Jojó` }).click();
  await remove();
  await expect(page.getByText("Tem certeza que deseja remover?")).toBeVisible();
  await page.getByRole(javaScriptEnabled ? "button" : "link", { name: "Não" }).click();
  await expect(names.locator("tbody tr")).toHaveCount(2);
  await remove();
  await page.getByRole("button", { name: "Sim" }).click();
  await expect(toast(page, "Nome foi removido com sucesso.", "status")).toBeVisible();
  await expect(names.locator("tbody tr")).toHaveCount(1);
  await expect(names).not.toContainText("Jojó");

  // Voltar: the list as it was.
  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page).toHaveURL(listUrl);
});

test("who may edit whom: the Administrador (P) is not editable by an administrator", async ({ page, signInAs }) => {
  await signInAs("admin");
  await page.goto("/listagem-usuarios");
  await search(page, "principal@demo");
  const row = userRow(page, "Paula Principal");
  // A button that does nothing, not a link.
  await expect(row.getByRole("link", { name: "Editar Paula Principal" })).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Editar Paula Principal" })).toBeDisabled();
  // Its names can be read, not changed.
  const id = await userIdOf(row);
  await row.getByRole("link", { name: "Nomes do Usuário: Paula Principal" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Nomes do Usuário" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Cadastrar Nome" })).toHaveCount(0);
  // The edit page's address, typed: back to the list with 'Permissão negada!'.
  await page.goto(`/listagem-usuarios/${id}/editar`);
  await expect(page).toHaveURL("/listagem-usuarios");
  await expect(toast(page, "Permissão negada!")).toContainText("Seu nível de acesso não permite editar este usuário.");

  // The own row is editable: name and phone; the password and the status are the profile's (it asks the current one).
  await search(page, "admin@demo");
  await userRow(page, "Antônio Administrador").getByRole("link", { name: "Editar Antônio Administrador" }).click();
  await expect(page.getByText("A sua própria senha se troca em Meu perfil, que pede a senha atual.")).toBeVisible();
  await expect(page.getByLabel("Senha", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Ativo")).toHaveCount(0);
  await page.getByLabel("Nome", { exact: true }).fill("Antônio Administrador");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, "O usuário foi alterado com sucesso.", "status")).toBeVisible();
});

test("a coordinator lists the own branch's users, without the register tab; other users are not found", async ({
  page,
  signInAs,
}) => {
  await signInAs("principal");
  await page.goto("/listagem-usuarios");
  await search(page, "admin@demo");
  const adminId = await userIdOf(userRow(page, "Antônio Administrador"));

  await page.context().clearCookies();
  await signInAs("coordenador");
  await page.goto("/listagem-usuarios");
  await expect(page.getByRole("heading", { level: 1, name: "Listagem de usuários" })).toBeVisible();
  await expect(tabs(page).getByRole("link", { name: "Cadastrar usuário" })).toHaveCount(0);
  // No master CPF: no 'Nível' column.
  await expect(headers(page).filter({ hasText: "Nível" })).toHaveCount(0);
  await search(page, "@demo.com.br");
  await expect(bodyRows(page).first()).toBeVisible();
  for (const row of await bodyRows(page).all()) await expect(row).toContainText("Filial Aldeota");
  await expect(userRow(page, "Sebastião ASG").getByRole("link", { name: "Editar Sebastião ASG" })).toBeVisible();
  await expect(bodyRows(page).filter({ hasText: "Antônio Administrador" })).toHaveCount(0);

  const register = await page.request.get("/listagem-usuarios/cadastrar", { maxRedirects: 0 });
  expect(register.status()).toBe(403);
  const outside = await page.request.get(`/listagem-usuarios/${adminId}/editar`, { maxRedirects: 0 });
  expect(outside.status()).toBe(404);
});
