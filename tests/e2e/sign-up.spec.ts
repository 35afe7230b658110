import { DEMO_FREE_CPFS } from "../support/e2e-data.ts";
import { expect, submitSignIn, test, toast } from "../support/e2e-fixtures.ts";

/** Spec 000 §2 'Sign-up', §5 'Sign-up', §8 'Access'. Runs with and without JavaScript. */

test.beforeEach(async ({ page }) => {
  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Cadastro" })).toBeVisible();
});

test("sign-up with a free pre-registered CPF, then sign in with the new account", async ({
  page,
  javaScriptEnabled,
}) => {
  // Each project uses its own free CPF of the demo data: a CPF signs up once.
  const cpf = javaScriptEnabled ? DEMO_FREE_CPFS.coordenador : DEMO_FREE_CPFS.admin;
  const email = `novo.${javaScriptEnabled ? "js" : "nojs"}@demo.com.br`;
  const nome = javaScriptEnabled ? "Nina Nova Coordenadora" : "Nuno Novo Administrador";

  await page.getByLabel("Nome").fill(nome);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Confirmação de e-mail").fill(email);
  await page.getByLabel("CPF").fill(cpf);
  await page.getByLabel("Data de nascimento").fill("12/04/1990");
  await page.getByLabel("Telefone").fill("85988887777");
  await page.getByLabel("Senha", { exact: true }).fill("senha-nova-1");
  await page.getByLabel("Confirmar senha").fill("senha-nova-1");
  if (javaScriptEnabled) {
    // The masks format while typing.
    await expect(page.getByLabel("CPF")).toHaveValue(
      `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
    );
    await expect(page.getByLabel("Telefone")).toHaveValue("(85) 9 8888-7777");
  }
  await page.getByRole("button", { name: "Cadastrar" }).click();

  await expect(page).toHaveURL("/");
  await expect(toast(page, "Cadastro realizado!", "status")).toContainText("Você já pode fazer seu login.");
  await submitSignIn(page, email, "senha-nova-1");
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("banner").getByRole("link", { name: new RegExp(nome) })).toBeVisible();
});

test("empty fields show every required message and 'Erro no Cadastro'", async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Erro no Cadastro")).toBeVisible();
  // Each message is shown under its field and tied to it (aria-describedby).
  for (const [label, message] of [
    ["Nome", "Nome obrigatório"],
    ["E-mail", "E-mail obrigatório"],
    ["CPF", "CPF obrigatório"],
    ["Data de nascimento", "Data de nascimento obrigatória"],
    ["Telefone", "Telefone obrigatório"],
    ["Senha", "No mínimo 6 dígitos"],
  ]) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(message);
  }
  await expect(page).toHaveURL(/\/signup/);
});

test("different e-mails and passwords are refused with the spec's messages", async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  await page.getByLabel("Nome").fill("Fulano de Tal");
  await page.getByLabel("E-mail", { exact: true }).fill("fulano@demo.com.br");
  await page.getByLabel("Confirmação de e-mail").fill("fulano2@demo.com.br");
  await page.getByLabel("CPF").fill(DEMO_FREE_CPFS.asg);
  await page.getByLabel("Data de nascimento").fill("01/02/1980");
  await page.getByLabel("Telefone").fill("85988887777");
  await page.getByLabel("Senha", { exact: true }).fill("abcdef");
  await page.getByLabel("Confirmar senha").fill("abcdeg");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Erro no Cadastro")).toBeVisible();
  await expect(page.getByLabel("Confirmação de e-mail")).toHaveAccessibleDescription("E-mails precisam ser iguais");
  await expect(page.getByLabel("Confirmar senha")).toHaveAccessibleDescription("Senhas precisam ser iguais");
  // The typed values are kept (passwords are not sent back).
  await expect(page.getByLabel("Nome")).toHaveValue("Fulano de Tal");
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("fulano@demo.com.br");
});

test("a CPF that is not pre-registered gives 'Erro ao cadastrar!'", async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  await page.getByLabel("Nome").fill("Sem Convite");
  await page.getByLabel("E-mail", { exact: true }).fill("sem.convite@demo.com.br");
  await page.getByLabel("Confirmação de e-mail").fill("sem.convite@demo.com.br");
  await page.getByLabel("CPF").fill("11144477735");
  await page.getByLabel("Data de nascimento").fill("01/02/1980");
  await page.getByLabel("Telefone").fill("85988887777");
  await page.getByLabel("Senha", { exact: true }).fill("abcdef");
  await page.getByLabel("Confirmar senha").fill("abcdef");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Erro ao cadastrar!")).toContainText("Verifique os dados!");
  await expect(page.getByLabel("CPF")).toHaveAccessibleDescription("CPF não pré-cadastrado");
});

test("'Voltar ao início' leads back to the sign-in page", async ({ page }) => {
  await page.getByRole("link", { name: "Voltar ao início" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
});
