import type { APIRequestContext } from "@playwright/test";

import { uniquePrefix } from "../support/e2e-catalogues.ts";
import { agendaToday } from "../support/e2e-execution.ts";
import { expect, test } from "../support/e2e-fixtures.ts";
import { tinyPng } from "../support/files.ts";

/**
 * Execution photos in the web app (docs/photos.md): the zoom page /fotos/{name}/ampliar shows the photo through the
 * session (an <img> cannot send the API's bearer token) with 'Voltar', with JS and without; signed out it sends to
 * sign-in; another tenant gets 'Arquivo não encontrado'. The photo is this test's own: Cícero, an ASG of Filial
 * Aldeota whom no other browser test schedules, records a procedure with an 800×600 PNG through the execution API.
 */

const ASG = { email: "cicero@demo.com.br", nome: "Cícero Alves" };

async function recordPhoto(request: APIRequestContext, prefix: string) {
  const phone = await agendaToday(
    request,
    { name: `${prefix} Foto`, andar: "Térreo", branch: "aldeota", mandatory: ["Limpar piso"] },
    [["05:00", "05:30"]],
    ASG,
  );
  const slot = phone.slot("05:00");
  await phone.call(`${slot}/start`);
  const done = await phone.call(`${slot}/procedures`, {
    multipart: {
      procedureId: phone.procedure("Limpar piso"),
      photo: { name: "foto.png", mimeType: "image/png", buffer: Buffer.from(tinyPng(800, 600)) },
    },
  });
  return (done as { image: string }).image;
}

test("a photo's zoom page: the photo loads and 'Voltar' goes back; signed out it goes to sign-in", async ({
  page,
  context,
  request,
  signInAs,
  allowConsoleErrors,
}, testInfo) => {
  const name = await recordPhoto(request, uniquePrefix(testInfo));
  const zoom = (back: string) => `/fotos/${name}/ampliar?${new URLSearchParams({ voltar: back })}`;

  // Signed out: sign-in, keeping the target.
  await page.goto(zoom("/faq"));
  await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(zoom("/faq"))}`);
  await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();

  // The coordinator of Filial Aldeota (the booking's branch), on a phone-sized screen.
  await signInAs("coordenador");
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/faq");
  await page.goto(zoom("/faq"));
  await expect(page.getByRole("heading", { level: 1, name: "Foto da execução" })).toBeVisible();
  const photo = page.getByRole("img", { name: "Foto registrada na execução do procedimento" });
  await expect(photo).toHaveAttribute("src", `/fotos/${name}`);
  await expect
    .poll(() => photo.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
    .toBe(800);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: testInfo.outputPath("zoom-360.png"), fullPage: true });
  // On a wide screen the 800 × 600 photo is drawn as large as the space allows, scaled up: its height fills it.
  await page.setViewportSize({ width: 1366, height: 900 });
  const drawn = await photo.evaluate((element: HTMLImageElement) => {
    const scale = Math.min(element.clientWidth / element.naturalWidth, element.clientHeight / element.naturalHeight);
    return { height: Math.round(element.naturalHeight * scale), space: element.clientHeight };
  });
  expect(drawn.height).toBe(drawn.space);
  expect(drawn.height).toBeGreaterThan(600);
  await page.screenshot({ path: testInfo.outputPath("zoom-1366.png") });
  await page.setViewportSize({ width: 360, height: 740 });

  // The thumbnail, through the same session: a WebP, kept by the browser only.
  const thumb = await page.request.get(`/fotos/${name}/miniatura`);
  expect(thumb.status()).toBe(200);
  expect(thumb.headers()["content-type"]).toBe("image/webp");
  expect(thumb.headers()["cache-control"]).toBe("private, max-age=31536000, immutable");

  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page).toHaveURL("/faq");
  await expect(page.getByRole("heading", { level: 1, name: "Perguntas frequentes" })).toBeVisible();

  // 'Voltar' never leaves the site: another site's address gives the user's home.
  await page.goto(zoom("//exemplo.com/roubo"));
  await expect(page.getByRole("link", { name: "Voltar" })).toHaveAttribute("href", "/dashboard");

  // Another tenant's administrator: no such file, nothing of it shown.
  allowConsoleErrors(/status of 404/);
  await context.clearCookies();
  await signInAs("outra");
  const refused = await page.goto(zoom("/faq"));
  expect(refused!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Página não encontrada" })).toBeVisible();
  await expect(page.getByText("Arquivo não encontrado")).toBeVisible();
  await expect(page.getByRole("img", { name: "Foto registrada na execução do procedimento" })).toHaveCount(0);
});
