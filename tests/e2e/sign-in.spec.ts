import { DEMO_PASSWORD } from "../support/e2e-data.ts";
import { expect, submitSignIn, test, toast } from "../support/e2e-fixtures.ts";

/** Spec 000 §2 'Sign-in', §5, §6 (blocked users), §8 'Access'. Runs with and without JavaScript. */

const UPPER_CASE = "Seu e-mail possui letra maiúscula, por favor verifique se está correto";
const ACCENT = "Seu e-mail possui acento, por favor verifique se está correto";
const CEDILLA = "Seu e-mail possui 'ç', por favor verifique se está correto";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
});

test("good credentials land on /dashboard with the user's name in the top bar", async ({ page }) => {
  await submitSignIn(page, "coordenador@demo.com.br");
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("banner").getByRole("link", { name: /Carla Coordenadora/ })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("a wrong password shows 'Erro na autenticação' and stays signed out", async ({
  page,
  context,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 400/);
  await submitSignIn(page, "auditor@demo.com.br", "senha-errada");
  await expect(toast(page, "Erro na autenticação")).toContainText(
    "Ocorreu um erro ao fazer login, cheque as credenciais.",
  );
  await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("auditor@demo.com.br");
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("sessao");
});

test("empty fields show the required messages and 'Erro na autenticação'", async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(toast(page, "Erro na autenticação")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("E-mail")).toHaveAccessibleDescription("E-mail obrigatório");
  await expect(page.getByLabel("Senha", { exact: true })).toHaveAccessibleDescription("Senha obrigatória");
});

test("an ASG is refused with 'Acesso bloqueado!' and stays signed out", async ({
  page,
  context,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 403/);
  await submitSignIn(page, "asg@demo.com.br");
  await expect(toast(page, "Acesso bloqueado!", "status")).toContainText(
    "Caso queira alterar suas permissões, entre em contato com seu coordenador ou o administrador do sistema.",
  );
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("sessao");
  await page.goto("/dashboard");
  await expect(page).toHaveURL("/?redirectTo=%2Fdashboard");
  await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
});

test("e-mail warnings show while typing (JS)", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "live warnings need JavaScript; without it they show after submit");
  const email = page.getByLabel("E-mail");
  const notice = page.getByRole("status").filter({ hasText: "Seu e-mail possui" });
  await email.fill("Paula@demo.com.br");
  await expect(notice).toHaveText(UPPER_CASE);
  await email.fill("joão@demo.com.br");
  await expect(notice).toHaveText(ACCENT);
  await email.fill("conceicaço@demo.com.br");
  await expect(notice).toHaveText(CEDILLA);
  await email.fill("Conceição@demo.com.br");
  await expect(notice.getByText(UPPER_CASE)).toBeVisible();
  await expect(notice.getByText(ACCENT)).toBeVisible();
  await expect(notice.getByText(CEDILLA)).toBeVisible();
  await email.fill("paula@demo.com.br");
  await expect(notice).toHaveCount(0);
});

test("e-mail warnings show after submit without JS", async ({ page, javaScriptEnabled, allowConsoleErrors }) => {
  test.skip(javaScriptEnabled, "with JavaScript they show while typing");
  allowConsoleErrors(/status of 400/);
  await submitSignIn(page, "Conceição@Demo.com.br", DEMO_PASSWORD);
  await expect(toast(page, "Erro na autenticação")).toBeVisible();
  const notice = page.getByRole("status").filter({ hasText: "Seu e-mail possui" });
  await expect(notice.getByText(UPPER_CASE)).toBeVisible();
  await expect(notice.getByText(ACCENT)).toBeVisible();
  await expect(notice.getByText(CEDILLA)).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("Conceição@Demo.com.br");
});

test("the password can be shown and hidden again (JS)", async ({ page, javaScriptEnabled }) => {
  const password = page.getByLabel("Senha", { exact: true });
  await password.fill("segredo123");
  await expect(password).toHaveAttribute("type", "password");
  if (!javaScriptEnabled) {
    // Without JavaScript the toggle is not drawn and the field stays masked.
    await expect(page.getByRole("button", { name: "Mostrar senha" })).toHaveCount(0);
    return;
  }
  await page.getByRole("button", { name: "Mostrar senha" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await expect(page.getByRole("button", { name: "Ocultar senha" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Ocultar senha" }).click();
  await expect(password).toHaveAttribute("type", "password");
  await expect(password).toHaveValue("segredo123");
});

test("the links lead to password recovery and sign-up", async ({ page }) => {
  await page.getByRole("link", { name: "Esqueci minha senha" }).click();
  await expect(page).toHaveURL("/forgot-password");
  await expect(page.getByRole("heading", { name: "Recuperar senha" })).toBeVisible();
  await page.getByRole("link", { name: "Voltar ao início" }).click();
  await page.getByRole("link", { name: "Cadastrar" }).click();
  await expect(page).toHaveURL("/signup");
  await expect(page.getByRole("heading", { name: "Cadastro" })).toBeVisible();
});
