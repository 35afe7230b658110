import type { APIRequestContext, BrowserContext, Page, Route } from "@playwright/test";
import sharp from "sharp";

import { uniquePrefix } from "../support/e2e-catalogues.ts";
import { DEMO_PASSWORD } from "../support/e2e-data.ts";
import { apiToken } from "../support/e2e-environments.ts";
import { agendaToday } from "../support/e2e-execution.ts";
import { expect, screenshot, test } from "../support/e2e-fixtures.ts";

/**
 * The field app (docs/field-app.md) on a 360 × 740 phone: the demo ASG signs in to /campo, opens a room from its QR
 * link and records a cleaning. With JS and without (one small form per step); with JS also offline, where the steps
 * wait on the phone and arrive once, in order, when the signal returns. Each test has its own room and agenda.
 */
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, serviceWorkers: "allow" });

type Slot = {
  status: string | null;
  startDate: string | null;
  finishedAt: string | null;
  startReceivedAt: string | null;
  finishReceivedAt: string | null;
  viaQr: boolean | null;
  done: { procedureId: number; createdAt: string; observacao: string | null; image: string | null }[];
};

/** A 2 × 2 PNG, as a phone's camera input would hand it over (the server re-encodes it as a JPEG). */
const PHOTO = {
  name: "piso.png",
  mimeType: "image/png",
  buffer: Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
    "base64",
  ),
};

async function roomWithSlot(request: APIRequestContext, name: string) {
  const phone = await agendaToday(
    request,
    {
      name,
      andar: "Térreo",
      branch: "aldeota",
      category: "Banheiro",
      sector: "Recepção",
      mandatory: ["Limpar piso"],
      optional: ["Recolher lixo", "Desinfetar superfícies"],
    },
    [["00:00", "23:59"]],
  );
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const room = await request.get(`/api/environments/${phone.environmentId}`, { headers: admin });
  expect(room.status()).toBe(200);
  const { qrCodigo } = (await room.json()) as { qrCodigo: string };
  const bookingId = phone.slot("00:00");
  const session = await request.post("/api/sessions", { data: { email: "asg@demo.com.br", password: DEMO_PASSWORD } });
  const token = ((await session.json()) as { token: string }).token;
  const slot = async () => {
    const answer = await request.get(`/api/execution/bookings/${bookingId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status()).toBe(200);
    return (await answer.json()) as Slot;
  };
  return { ...phone, qrCodigo, bookingId, slot };
}

/**
 * With JS the page shows a step as done the moment it is taken, before it is sent (docs/field-app.md 'Offline'); the
 * finish time on the slot's state line comes only from the server's page, once it has recorded the finish.
 */
async function expectReceived(page: Page) {
  await expect(page.locator("[data-estado]").first()).toHaveText(
    /^Concluída · iniciada às \d\d:\d\d · encerrada às \d\d:\d\d$/,
  );
}

async function fieldSignIn(page: Page, back?: string) {
  await page.goto(back ? `/campo/entrar?voltar=${encodeURIComponent(back)}` : "/campo/entrar");
  await submitFieldSignIn(page);
}

/** Fills the field sign-in form the page shows as the demo ASG and submits it. */
async function submitFieldSignIn(page: Page) {
  await expect(page.getByRole("heading", { level: 1, name: "Entrar no app de limpeza" })).toBeVisible();
  await page.getByLabel("E-mail").fill("asg@demo.com.br");
  await page.getByLabel("Senha").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
}

test("from the room's QR code to a finished cleaning in four taps", async ({ page, request }, testInfo) => {
  const name = `${uniquePrefix(testInfo)} Campo QR`;
  const room = await roomWithSlot(request, name);
  await fieldSignIn(page);
  await expect(page.getByRole("heading", { level: 1, name: /^Olá, Sebastião!/ })).toBeVisible();

  await page.goto(`/info/ambiente/${room.environmentId}?qr=${room.qrCodigo}`);
  let taps = 0;
  const tap = async (name: string) => {
    taps += 1;
    await page.getByRole(name === "Sou da equipe de limpeza" ? "link" : "button", { name, exact: true }).click();
  };
  await tap("Sou da equipe de limpeza");
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await tap("Iniciar");
  await expect(page.getByText("Em andamento", { exact: false }).first()).toBeVisible();
  await tap("Tudo feito");
  await expect(page.getByRole("button", { name: "Tudo feito" })).toBeHidden();
  await tap("Finalizar");
  await expect(page.getByText("Esta limpeza está encerrada.")).toBeVisible();
  await expectReceived(page);
  expect(taps).toBeLessThanOrEqual(4);

  const slot = await room.slot();
  expect(slot.status).toBe("Completo");
  expect(slot.viaQr).toBe(true);
  expect(slot.done.map((row) => row.procedureId).sort()).toEqual(room.procedures.map((p) => p.id).sort());
});

test("a slot opened from 'Hoje' starts without the QR proof", async ({ page, request }, testInfo) => {
  const name = `${uniquePrefix(testInfo)} Campo Lista`;
  const room = await roomWithSlot(request, name);
  await fieldSignIn(page);
  await page.locator(`a[href="/campo/limpeza/${room.bookingId}"]`).first().click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.getByRole("button", { name: "Iniciar" }).click();
  await expect(page.getByRole("button", { name: "Finalizar" })).toBeVisible();
  await expect.poll(async () => (await room.slot()).status).toBe("Andamento");
  expect((await room.slot()).viaQr).toBe(false);
});

const column = (page: Page, title: string) => page.getByRole("region", { name: new RegExp(`^${title} \\(`) });

/**
 * The whole walk (docs/field-app.md), and the one that runs it without JS: the room's printed QR code, signed out,
 * through the field sign-in back to the room; 'Iniciar'; one procedure with its note and camera photo; the rest with
 * 'Tudo feito'; 'Finalizar'. Then the manager's board shows the slot done, and its history the photo and the note once.
 */
test("from the room's QR code, a procedure with its note and camera photo, to the slot done on the board", async ({
  page,
  request,
  signInAs,
  javaScriptEnabled,
}, testInfo) => {
  const name = `${uniquePrefix(testInfo)} Campo Foto`;
  const room = await roomWithSlot(request, name);
  const qrPage = `/campo/ambiente/${room.environmentId}?qr=${room.qrCodigo}`;
  await page.goto(`/info/ambiente/${room.environmentId}?qr=${room.qrCodigo}`);
  await page.getByRole("link", { name: "Sou da equipe de limpeza", exact: true }).click();
  await submitFieldSignIn(page);
  await expect(page).toHaveURL(qrPage);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const state = page.locator("[data-estado]").first();
  await expect(state).toHaveText("A fazer");

  await page.getByRole("button", { name: "Iniciar" }).click();
  await expect(state).toHaveText(/^Em andamento · iniciada às \d\d:\d\d$/);
  const first = room.procedures.find((procedure) => procedure.name === "Limpar piso")!;
  const rest = room.procedures.filter((procedure) => procedure !== first);
  const item = (procedure: { name: string }) =>
    page
      .getByRole("listitem")
      .filter({ has: page.getByRole("button", { name: `Marcar como feito: ${procedure.name}` }) });
  await item(first).getByText("Nota e foto").click();
  await item(first).getByLabel("Observação (opcional)").fill("Piso limpo e seco");
  await item(first).getByLabel("Foto (opcional)").setInputFiles(PHOTO);
  await item(first)
    .getByRole("button", { name: `Marcar como feito: ${first.name}` })
    .click();
  await expect(item(first)).toContainText(/^Limpar pisoobrigatório · feito às \d\d:\d\d✓/);
  await expect(item(first).getByRole("button", { name: `Marcar como feito: ${first.name}` })).toBeDisabled();

  await page.getByRole("button", { name: "Tudo feito" }).click();
  await expect(page.getByRole("button", { name: "Tudo feito" })).toBeHidden();
  for (const procedure of rest) await expect(item(procedure)).toContainText(/ · feito às \d\d:\d\d/);
  await page.getByRole("button", { name: "Finalizar" }).click();
  await expect(page.getByText("Esta limpeza está encerrada.")).toBeVisible();
  await expectReceived(page);
  await expect(page).toHaveURL(qrPage);
  // Without JS each step was a form and a redirect back to the room's page, which says what was recorded.
  if (!javaScriptEnabled) await expect(page.getByRole("status")).toHaveText(["Limpeza finalizada."]);
  await screenshot(page, testInfo.project.name, "field-walk-finished");

  const slot = await room.slot();
  expect(slot.status).toBe("Completo");
  expect(slot.viaQr).toBe(true);
  expect(slot.done.map((row) => row.procedureId).sort()).toEqual(room.procedures.map((p) => p.id).sort());
  expect(slot.done.filter((row) => row.image !== null || row.observacao !== null)).toEqual([
    expect.objectContaining({
      procedureId: first.id,
      observacao: "Piso limpo e seco",
      image: expect.stringMatching(/\.jpg$/),
    }),
  ]);

  // What a manager sees: the slot in 'Feito' on the board, with the times it was done; in its history the photo
  // and the note once.
  await signInAs("admin");
  await page.goto(`/dashboard?q=${encodeURIComponent(name)}&campos=ambiente`);
  const card = column(page, "Feito").getByRole("listitem");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(/^00:00 - 23:59 Principal/);
  await expect(card).toContainText(name);
  await expect(card).toContainText("Sebastião ASG");
  await expect(card).toContainText(/\d\d:\d\d - \d\d:\d\d$/);
  for (const title of ["A fazer", "Fazendo", "Intercorrência"])
    await expect(column(page, title)).toContainText("Não há registros");
  await screenshot(page, testInfo.project.name, "field-walk-board");

  await card.getByRole("link").click();
  const detail = javaScriptEnabled ? page.getByRole("dialog", { name }) : page.locator("#detalhe");
  await expect(detail.getByRole("table").getByRole("row").nth(1)).toHaveText(/^00:00 - 23:59\d\d:\d\d - \d\d:\d\d$/);
  await detail.getByRole("link", { name: "Histórico" }).click();
  const executions = detail
    .getByRole("heading", { level: 3, name: "Execuções" })
    .locator("xpath=following-sibling::ul[1]")
    .getByRole("listitem");
  await expect(executions).toHaveCount(room.procedures.length);
  await expect(executions.filter({ hasText: "com foto" })).toHaveText([
    /^\d\d:\d\d Limpar piso · Sebastião ASG \(00:00 - 23:59, com foto\)Observação: Piso limpo e seco$/,
  ]);
  await expect(detail.getByText("Observação: Piso limpo e seco")).toHaveCount(1);
});

/**
 * Holds the next page the script asks for after a step: answered by the server at once, handed to the page 2.5 s
 * later. `late` settles once it has been handed over and had time to be put in place.
 */
async function holdNextPage(page: Page, bookingId: number) {
  let late: Promise<void> | undefined;
  await page.route(`**/campo/limpeza/${bookingId}`, async (route) => {
    if (route.request().resourceType() !== "fetch" || late) return route.continue();
    late = route.fetch().then(async (response) => {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await route.fulfill({ response });
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    await late;
  });
  return {
    asked: () => expect.poll(() => late !== undefined).toBe(true),
    landed: () => late,
  };
}

// These two test the page's script, not the service worker: with it blocked the routes below see every request
// of the page (Playwright does not route what a service worker handles, and a POST sent while the worker took the page
// over was once not seen at all).
test.describe("the field page's script without its service worker", () => {
  test.use({ serviceWorkers: "block" });

  test("a page that comes back late does not undo a step taken after it was asked for", async ({
    page,
    request,
    javaScriptEnabled,
  }, testInfo) => {
    test.skip(!javaScriptEnabled, "without JS each step loads its page after the step");
    const room = await roomWithSlot(request, `${uniquePrefix(testInfo)} Campo Atraso`);
    await fieldSignIn(page, `/campo/limpeza/${room.bookingId}`);
    await page.getByRole("button", { name: "Iniciar" }).click();
    await expect(page.locator("[data-estado]").first()).toHaveText(/^Em andamento · iniciada às/);
    const held = await holdNextPage(page, room.bookingId);
    await page.getByRole("button", { name: "Tudo feito" }).click();
    await held.asked();
    await page.getByRole("button", { name: "Finalizar" }).click();
    await expectReceived(page);
    await held.landed();
    await expectReceived(page);
  });

  test("a page that comes back late does not wipe the note being typed", async ({
    page,
    request,
    javaScriptEnabled,
  }, testInfo) => {
    test.skip(!javaScriptEnabled, "without JS each step loads its page after the step");
    const room = await roomWithSlot(request, `${uniquePrefix(testInfo)} Campo Nota`);
    await fieldSignIn(page, `/campo/limpeza/${room.bookingId}`);
    const held = await holdNextPage(page, room.bookingId);
    await page.getByRole("button", { name: "Iniciar" }).click();
    await held.asked();
    const note = page.getByLabel("Observação (opcional)").first();
    await page.getByText("Nota e foto").first().click();
    await note.fill("Piso molhado");
    await held.landed();
    await expect(note).toHaveValue("Piso molhado");
  });

  test("with JS the steps load no page, and a 12 MP camera photo is shrunk on the phone under the 2 MB bound", async ({
    page,
    request,
    javaScriptEnabled,
  }, testInfo) => {
    test.skip(!javaScriptEnabled, "without JS each step is a form that loads its page");
    const room = await roomWithSlot(request, `${uniquePrefix(testInfo)} Campo Foto Grande`);
    // A camera's 4000 × 3000 picture, noisy so that it stays large as a JPEG: over the 2 MB the server accepts.
    const picture = await sharp({
      create: {
        width: 4000,
        height: 3000,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 30 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    expect(picture.length).toBeGreaterThan(2 * 1024 * 1024);
    await fieldSignIn(page, `/campo/limpeza/${room.bookingId}`);
    await expect(page.getByRole("button", { name: "Iniciar" })).toBeVisible();
    const loads: string[] = [];
    page.on("load", () => loads.push(page.url()));
    const sent: number[] = [];
    page.on("request", (asked) => {
      if (asked.method() === "POST" && new URL(asked.url()).pathname === `/campo/fila/${room.bookingId}`)
        sent.push(asked.postDataBuffer()?.length ?? 0);
    });

    await page.getByRole("button", { name: "Iniciar" }).click();
    const item = page.getByRole("listitem").filter({ has: page.getByRole("button", { name: /^Marcar como feito/ }) });
    await item.first().getByText("Nota e foto").click();
    await item.first().getByLabel("Foto (opcional)").setInputFiles({
      name: "camera.jpg",
      mimeType: "image/jpeg",
      buffer: picture,
    });
    await item
      .first()
      .getByRole("button", { name: /^Marcar como feito/ })
      .click();
    await page.getByRole("button", { name: "Tudo feito" }).click();
    await page.getByRole("button", { name: "Finalizar" }).click();
    await expectReceived(page);

    expect(loads).toEqual([]);
    expect(Math.max(...sent)).toBeLessThan(2 * 1024 * 1024);
    const slot = await room.slot();
    expect([slot.status, slot.done.filter((row) => row.image !== null).length]).toEqual(["Completo", 1]);
  });
});

/**
 * Playwright's setOffline does not cut a service worker's own requests (microsoft/playwright#2311): they are aborted
 * here too, so the page really is served from the phone's copies.
 */
async function setOffline(context: BrowserContext, offline: boolean) {
  const cut = (route: Route) =>
    route.request().serviceWorker() ? route.abort("internetdisconnected") : route.fallback();
  if (offline) {
    await context.setOffline(true);
    await context.route("**", cut);
  } else {
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await context.setOffline(false);
  }
}

test("offline: the steps wait on the phone and arrive once, in order, with both instants", async ({
  page,
  context,
  request,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  test.skip(!javaScriptEnabled, "the queue is the script's; without JS each form is sent as it is submitted");
  allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/);
  const name = `${uniquePrefix(testInfo)} Campo Offline`;
  const room = await roomWithSlot(request, name);
  expect(room.procedures.length).toBeGreaterThanOrEqual(3);
  await fieldSignIn(page, `/campo/ambiente/${room.environmentId}?qr=${room.qrCodigo}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  // The service worker controls the page from its second load on: reload once online so it keeps this page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  // Installable: the page names its manifest, which names the app, its start page and icons that load as PNGs.
  const install = await page.evaluate(async () => {
    const href = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.href;
    const manifest = (await (await fetch(href)).json()) as {
      short_name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string }[];
    };
    const icons = await Promise.all(
      manifest.icons.map(async (icon) => {
        const bitmap = await createImageBitmap(await (await fetch(icon.src)).blob());
        return `${icon.sizes} ${bitmap.width}x${bitmap.height}`;
      }),
    );
    return { name: manifest.short_name, start: manifest.start_url, display: manifest.display, icons };
  });
  expect(install).toEqual({
    name: "Limpeza",
    start: "/campo",
    display: "standalone",
    icons: ["192x192 192x192", "512x512 512x512"],
  });

  await page.getByRole("button", { name: "Iniciar" }).click();
  await expect(page.getByRole("button", { name: "Finalizar" })).toBeVisible();
  const [first, second, third] = room.procedures;
  const item = (procedure: { name: string }) =>
    page
      .getByRole("listitem")
      .filter({ has: page.getByRole("button", { name: `Marcar como feito: ${procedure.name}` }) });
  await item(first).getByText("Nota e foto").click();
  await item(first)
    .getByLabel("Foto (opcional)")
    .setInputFiles({
      name: "piso.png",
      mimeType: "image/png",
      buffer: Buffer.from(
        "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
        "base64",
      ),
    });
  await item(first)
    .getByRole("button", { name: `Marcar como feito: ${first.name}` })
    .click();
  await expect.poll(async () => (await room.slot()).done.length).toBe(1);

  await setOffline(context, true);
  await item(second)
    .getByRole("button", { name: `Marcar como feito: ${second.name}` })
    .click();
  await item(third)
    .getByRole("button", { name: `Marcar como feito: ${third.name}` })
    .click();
  await page.getByRole("button", { name: "Finalizar" }).click();
  await expect(page.getByText("3 registros aguardando envio")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("3 registros aguardando envio")).toBeVisible();
  expect((await room.slot()).status).toBe("Andamento");
  // The day, kept by the phone: 'Hoje' opens without signal and shows the slot as done, waiting to be sent.
  await page.getByRole("navigation", { name: "App de limpeza" }).getByRole("link", { name: "Hoje" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Limpezas de hoje" })).toBeVisible();
  await expect(page.locator(`[data-slot="${room.bookingId}"]`).first()).toContainText("Concluída · aguardando envio");
  await page.reload();
  await expect(page.getByRole("heading", { level: 2, name: "Limpezas de hoje" })).toBeVisible();
  // A field page never opened with signal: the phone's offline page, with the way back to 'Hoje'.
  await page.goto("/campo/limpeza/2147483000");
  await expect(page.getByRole("heading", { level: 1, name: "Sem conexão" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Voltar para Hoje" })).toHaveAttribute("href", "/campo");
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.waitForTimeout(1_100); // the records were done at least a second before they are received
  await setOffline(context, false);
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect(page.getByText("Esta limpeza está encerrada.")).toBeVisible();
  await expect(page.getByText(/registros? aguardando envio/)).toBeHidden();

  const slot = await room.slot();
  expect(slot.status).toBe("Completo");
  expect(slot.done.map((row) => row.procedureId)).toEqual([first.id, second.id, third.id]);
  const instants = slot.done.map((row) => Date.parse(row.createdAt));
  expect(instants).toEqual([...instants].sort((a, b) => a - b));
  expect(Date.parse(slot.finishReceivedAt!)).toBeGreaterThan(Date.parse(slot.finishedAt!) + 1_000);

  // The manager's board shows the slot done.
  await signInAs("admin");
  await page.goto(`/dashboard?q=${encodeURIComponent(name)}&campos=ambiente`);
  await expect(page.getByRole("region", { name: /^Feito \(/ }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("region", { name: /^A fazer \(/ })).toContainText("Não há registros");
});
