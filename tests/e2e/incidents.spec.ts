import { gzipSync } from "node:zlib";

import type { APIRequestContext } from "@playwright/test";

import { uniquePrefix } from "../support/e2e-catalogues.ts";
import { createEnvironments } from "../support/e2e-environments.ts";
import { expect, SCANNING_PHONE, test, toast } from "../support/e2e-fixtures.ts";
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

/** A visitor's report of a new room through the public API (the page's token, 2 s later), as a phone would post it. */
async function reportThroughApi(request: APIRequestContext, roomId: number, kind: string, descricao: string) {
  const room = await request.get(`/api/info/ambiente/${roomId}`);
  const { formToken, kinds } = (await room.json()) as { formToken: string; kinds: { id: number; nome: string }[] };
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const answer = await request.post(`/api/info/ambiente/${roomId}/relato`, {
    multipart: { tipo: String(kinds.find((item) => item.nome === kind)!.id), descricao, formToken, site: "" },
  });
  expect(answer.status()).toBe(202);
}

test("the coordinator finds the report on /ocorrencias at 360 px, takes it on and discards it with a reason", async ({
  page,
  request,
  signInAs,
  allowConsoleErrors,
}, testInfo) => {
  allowConsoleErrors(/status of 400/); // the discard without a reason is answered 400, with its message
  await page.setViewportSize({ width: 360, height: 740 });
  const name = `${uniquePrefix(testInfo)} Copa`;
  const [id] = await createEnvironments(request, [{ name, andar: "1º andar", branch: "aldeota" }]);
  await reportThroughApi(request, id!, "Sujeira", "Café derramado no balcão");

  await signInAs("coordenador");
  await page.goto("/ocorrencias?status=aberta");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Sujeira");
  await expect(row).toContainText("Aberta");
  await expect(row).toContainText("Coordenadores da filial");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await row.getByRole("link", { name }).click();

  await expect(page.getByRole("heading", { level: 1, name: /^Ocorrência nº \d+$/ })).toBeVisible();
  await expect(page.getByText("Café derramado no balcão")).toBeVisible();
  await page.getByRole("button", { name: "Iniciar atendimento" }).click();
  await expect(toast(page, "Ocorrência atualizada.", "status")).toBeVisible();
  await expect(page.locator(".incident-facts")).toContainText("Em atendimento");

  // Discarding needs a reason: the server says so, by the form.
  await page.getByRole("button", { name: "Descartar" }).click();
  await expect(page.getByText("Informe o motivo do descarte.")).toBeVisible();
  await page.getByLabel("Motivo do descarte").fill("Já limpo pela equipe da copa");
  await page.getByRole("button", { name: "Descartar" }).click();
  await expect(page.locator(".incident-facts")).toContainText("Descartada");
  await expect(page.locator(".incident-facts")).toContainText("Já limpo pela equipe da copa");
  const timeline = page.getByRole("region", { name: "Histórico" }).getByRole("listitem");
  await expect(timeline).toHaveCount(3);
  await expect(timeline.nth(0)).toContainText("Relatada · Visitante");
  await expect(timeline.nth(1)).toContainText("Atendimento iniciado · Carla Coordenadora");
  await expect(timeline.nth(2)).toContainText("Descartada · Carla Coordenadora");
  await expect(page.getByRole("button", { name: "Descartar" })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: testInfo.outputPath("incident-detail.png"), fullPage: true });
});
