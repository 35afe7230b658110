import sharp from "sharp";

import { drawer, expect, makePng, submitSignIn, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Spec 000 §2 'Profile', §5 'Profile', §8 'Access'. Runs with and without JavaScript. Each test signs up a user of
 * its own: saving a new password ends that user's other sessions.
 */

const formatCpf = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
const AVATAR_LABEL = "Arraste uma imagem para cá ou clique para procurar";

test("shows the read-only facts and saves a new phone and e-mail", async ({ page, createUser, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  const user = await createUser({ signIn: true });
  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Meu perfil" })).toBeVisible();
  const facts = page.locator("dl");
  await expect(facts).toContainText(user.nome);
  await expect(facts).toContainText(formatCpf(user.cpf));
  await expect(facts).toContainText("12/04/1990");
  await expect(facts).toContainText("Hospital Boa Saúde");
  await expect(facts).toContainText("Administrador");
  await expect(page.getByLabel("E-mail")).toHaveValue(user.email);
  await expect(page.getByLabel("Telefone")).toHaveValue("(85) 9 9999-0000");

  // An invalid e-mail is refused and nothing is saved.
  await page.getByLabel("E-mail").fill("nao-e-email");
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(toast(page, "Erro ao atualizar")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveAccessibleDescription("Digite um email válido");

  const newEmail = `novo.${user.email}`;
  await page.getByLabel("E-mail").fill(newEmail);
  await page.getByLabel("Telefone").fill("(85) 3 1234-5678");
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(toast(page, "Dados atualizados!", "status")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("E-mail")).toHaveValue(newEmail);
  await expect(page.getByLabel("Telefone")).toHaveValue("(85) 3 1234-5678");
});

test("changes the password only with the right current password", async ({ page, createUser, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 400/);
  const user = await createUser({ signIn: true });
  await page.goto("/profile");

  // A new password without the current one.
  await page.getByLabel("Nova senha").fill("trocada-123");
  await page.getByLabel("Confirmar senha").fill("trocada-123");
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(page.getByLabel("Senha atual")).toHaveAccessibleDescription("Senha antiga é requirida");

  await page.getByLabel("Senha atual").fill("senha-errada");
  await page.getByLabel("Nova senha").fill("trocada-123");
  await page.getByLabel("Confirmar senha").fill("trocada-123");
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(toast(page, "Erro ao atualizar dados!")).toBeVisible();
  await expect(page.getByLabel("Senha atual")).toHaveAccessibleDescription("A senha atual está incorreta");

  await page.getByLabel("Senha atual").fill(user.password);
  await page.getByLabel("Nova senha").fill("trocada-123");
  await page.getByLabel("Confirmar senha").fill("trocada-123");
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(toast(page, "Dados atualizados!", "status")).toBeVisible();
  await expect(page).toHaveURL("/profile");

  // The session that changed the password goes on; after signing out only the new password works.
  await drawer(page).getByRole("button", { name: "Sair" }).click();
  await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
  await submitSignIn(page, user.email, user.password);
  await expect(toast(page, "Erro na autenticação")).toBeVisible();
  await submitSignIn(page, user.email, "trocada-123");
  await expect(page).toHaveURL("/dashboard");
});

test("uploads a PNG avatar that then shows in the top bar", async ({ page, createUser, javaScriptEnabled }) => {
  const user = await createUser({ signIn: true });
  await page.goto("/profile");
  await expect(page.getByRole("banner").getByRole("img", { name: "Avatar padrão" })).toBeVisible();

  await page
    .getByLabel(AVATAR_LABEL)
    .setInputFiles({ name: "minha-foto.png", mimeType: "image/png", buffer: makePng(64, 64) });
  if (javaScriptEnabled) {
    // With JS: a preview, the file name and 'Remover' before saving.
    await expect(page.getByText("minha-foto.png")).toBeVisible();
    await expect(page.getByRole("button", { name: "Remover" })).toBeVisible();
  }
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(toast(page, "Dados atualizados!", "status")).toBeVisible();

  const avatar = page.getByRole("banner").getByRole("img", { name: `Foto de ${user.nome}` });
  await expect(avatar).toBeVisible();
  const src = await avatar.getAttribute("src");
  expect(src).not.toContain("avatar-padrao");
  const image = await page.request.get(src!);
  expect(image.status()).toBe(200);
  // Stored re-encoded, as every upload (docs/photos.md 'Metadata'): a JPEG of the same size.
  expect(image.headers()["content-type"]).toBe("image/jpeg");
  const meta = await sharp(await image.body()).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 64, 64]);
});

test("refuses a file that is not an image with 'Arquivo não suportado'", async ({
  page,
  createUser,
  javaScriptEnabled,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 4(00|15)/);
  await createUser({ signIn: true });
  await page.goto("/profile");
  const input = page.getByLabel(AVATAR_LABEL);

  await input.setInputFiles({ name: "notas.txt", mimeType: "text/plain", buffer: Buffer.from("não sou uma imagem") });
  if (javaScriptEnabled) {
    // Refused in the browser at once, before anything is sent.
    await expect(page.getByRole("alert").filter({ hasText: "Arquivo não suportado" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Remover" })).toHaveCount(0);
  } else {
    await page.getByRole("button", { name: "Salvar alterações" }).click();
    await expect(toast(page, "Erro ao atualizar dados!")).toContainText("Arquivo não suportado");
  }

  // A text file named .png passes the browser's check; the server reads the bytes and refuses it.
  await page.goto("/profile");
  await page
    .getByLabel(AVATAR_LABEL)
    .setInputFiles({ name: "falsa.png", mimeType: "image/png", buffer: Buffer.from("não sou uma imagem") });
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(toast(page, "Erro ao atualizar dados!")).toContainText("Arquivo não suportado");
  await expect(page.getByRole("banner").getByRole("img", { name: "Avatar padrão" })).toBeVisible();
});
