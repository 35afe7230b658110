import { expect, resetLinkFor, submitSignIn, test, toast } from "../support/e2e-fixtures.ts";

/** Spec 000 §2 'Forgot password' / 'Reset password', §5, §8 'Access'. Runs with and without JavaScript. */

test("recover the password by e-mail, set a new one and sign in with it", async ({
  page,
  createUser,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 400/);
  const user = await createUser();

  await page.goto("/");
  await page.getByRole("link", { name: "Esqueci minha senha" }).click();
  await expect(page.getByRole("heading", { name: "Recuperar senha" })).toBeVisible();
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Recuperar" }).click();
  await expect(page).toHaveURL("/");
  await expect(toast(page, "E-mail de recuperação enviado", "status")).toBeVisible();

  const link = await resetLinkFor(user.email);
  expect(new URL(link).pathname).toBe("/reset-password");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Resetar senha" })).toBeVisible();
  await page.getByLabel("Nova senha", { exact: true }).fill("recuperada-1");
  await page.getByLabel("Confirmar nova senha").fill("recuperada-1");
  await page.getByRole("button", { name: "Alterar senha" }).click();
  await expect(page).toHaveURL("/");
  await expect(toast(page, "Sucesso", "status")).toContainText("Senha resetada com sucesso");

  // The link works once.
  await page.goto(link);
  await page.getByLabel("Nova senha", { exact: true }).fill("outra-senha-2");
  await page.getByLabel("Confirmar nova senha").fill("outra-senha-2");
  await page.getByRole("button", { name: "Alterar senha" }).click();
  await expect(toast(page, "Erro")).toContainText("Falha ao resetar senha");

  // The old password no longer works; the new one does.
  await page.goto("/");
  await submitSignIn(page, user.email, user.password);
  await expect(toast(page, "Erro na autenticação")).toBeVisible();
  await submitSignIn(page, user.email, "recuperada-1");
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("banner").getByRole("link", { name: new RegExp(user.nome) })).toBeVisible();
});

test("an unknown e-mail gives 'Falha ao recuperar e-mail'", async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 404/);
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill("ninguem@demo.com.br");
  await page.getByRole("button", { name: "Recuperar" }).click();
  await expect(toast(page, "Falha ao recuperar e-mail")).toContainText("E-mail não cadastrado");
  await expect(page.getByLabel("E-mail")).toHaveValue("ninguem@demo.com.br");
});

test("an invalid e-mail is refused with 'Digite um email válido!'", async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill("nao-e-um-email");
  await page.getByRole("button", { name: "Recuperar" }).click();
  await expect(page.getByLabel("E-mail")).toHaveAccessibleDescription("Digite um email válido!");
});

test("the reset page needs the token and a confirmed password of at least 6", async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  await page.goto("/reset-password");
  await expect(
    page.getByRole("alert").filter({ hasText: "Este endereço não tem o código de recuperação." }),
  ).toBeVisible();

  await page.goto("/reset-password?token=um-token-qualquer");
  await page.getByLabel("Nova senha", { exact: true }).fill("12345");
  await page.getByLabel("Confirmar nova senha").fill("12345");
  await page.getByRole("button", { name: "Alterar senha" }).click();
  await expect(page.getByLabel("Nova senha", { exact: true })).toHaveAccessibleDescription("No mínimo 6 dígitos");

  await page.getByLabel("Nova senha", { exact: true }).fill("123456");
  await page.getByLabel("Confirmar nova senha").fill("654321");
  await page.getByRole("button", { name: "Alterar senha" }).click();
  await expect(page.getByLabel("Confirmar nova senha")).toHaveAccessibleDescription("Senhas precisam ser iguais");

  await page.getByLabel("Nova senha", { exact: true }).fill("123456");
  await page.getByLabel("Confirmar nova senha").fill("123456");
  await page.getByRole("button", { name: "Alterar senha" }).click();
  await expect(toast(page, "Erro")).toContainText("Falha ao resetar senha");
});
