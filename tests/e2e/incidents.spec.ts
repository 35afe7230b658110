import { gzipSync } from "node:zlib";

import { uniquePrefix } from "../support/e2e-catalogues.ts";
import { createEnvironments } from "../support/e2e-environments.ts";
import { expect, SCANNING_PHONE, test } from "../support/e2e-fixtures.ts";
import { tinyPng } from "../support/files.ts";

/**
 * Issue 28, the visitor's side (docs/incidents.md): a phone that scanned a room's QR code rates the cleaning and
 * reports a problem with a photo, with no account and no script, and the room page then shows that a problem was
 * reported. The room page has no script in either project, so this runs once, JS off.
 */
test("a visitor's phone rates the room, reports a problem with a photo, and the room page shows it", async ({
  browser,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== "no-js", "the room page has no script: once, JS off");
  const name = `${uniquePrefix(testInfo)} Banheiro do térreo`;
  const [id] = await createEnvironments(request, [{ name, andar: "Térreo", branch: "aldeota" }]);
  const phone = await browser.newContext(SCANNING_PHONE);
  const page = await phone.newPage();
  const room = `/info/ambiente/${id}`;
  await page.goto(room);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  expect(await page.locator("script").count()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Still a light page with both forms: its HTML (CSS inline) at most 30 KB compressed.
  expect(gzipSync(await page.content()).length).toBeLessThanOrEqual(30 * 1024);
  await expect(page.getByText("Como está a limpeza deste ambiente?")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("room-with-forms.png"), fullPage: true });

  // A person takes more than 2 s to choose (a post sooner is a robot's, dropped quietly).
  await page.waitForTimeout(2_100);
  await page.getByRole("button", { name: "Boa", exact: true }).click();
  await expect(page).toHaveURL(`${room}/obrigado?envio=avaliacao`);
  await expect(page.getByRole("heading", { level: 1, name: "Obrigado pela avaliação!" })).toBeVisible();
  await page.getByRole("link", { name: "Voltar ao ambiente" }).click();

  await page.getByText("Relatar problema", { exact: true }).click();
  await page.getByLabel("Vazamento ou dano").check();
  await page.getByLabel("Descreva (opcional)").fill("Torneira da pia pingando");
  await page.getByLabel("Foto (opcional, até 5 MB)").setInputFiles({
    name: "torneira.png",
    mimeType: "image/png",
    buffer: Buffer.from(tinyPng(40, 30)),
  });
  await expect(page.getByText("Não pedimos seu nome nem seus dados.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("room-report-form.png"), fullPage: true });
  await page.waitForTimeout(2_100);
  await page.getByRole("button", { name: "Enviar relato" }).click();
  await expect(page).toHaveURL(`${room}/obrigado?envio=relato`);
  await expect(page.getByRole("heading", { level: 1, name: "Obrigado! Seu relato foi enviado." })).toBeVisible();
  await expect(page.getByText("A equipe responsável por este ambiente foi avisada")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("thanks.png"), fullPage: true });

  // Back on the room page (not an old copy): the report's time and state, nothing of its text.
  await page.getByRole("link", { name: "Voltar ao ambiente" }).click();
  await expect(page.getByRole("status")).toHaveText(/^Problema relatado às \d{2}:\d{2} — aguardando atendimento$/);
  await expect(page.getByText("Torneira da pia pingando")).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: testInfo.outputPath("room-after-report.png"), fullPage: true });
  await phone.close();
});
