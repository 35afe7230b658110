import type { APIRequestContext } from "@playwright/test";

import { businessToday } from "../support/e2e-agendas.ts";
import { BRANCHES, uniquePrefix } from "../support/e2e-catalogues.ts";
import { DEMO_PASSWORD } from "../support/e2e-data.ts";
import { apiToken, createEnvironments } from "../support/e2e-environments.ts";
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
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const [environmentId] = await createEnvironments(request, [
    { name: `${prefix} Foto`, andar: "Térreo", branch: "aldeota", mandatory: ["Limpar piso"] },
  ]);
  const asgs = await request.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${BRANCHES.aldeota.id}`, {
    headers: admin,
  });
  const asg = ((await asgs.json()) as { id: number; nome: string }[]).find((user) => user.nome === ASG.nome)!;
  const today = businessToday();
  const saved = await request.post("/api/agendas/v2/saveAgenda", {
    headers: admin,
    data: [
      {
        Id_EmpresasFilial: BRANCHES.aldeota.id,
        Id_Environments: environmentId,
        Id_Users: asg.id,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: "05:00",
          hora_base_final: "05:30",
          Revisoes: [],
        },
        revisionPhotos: false,
        vigIni: today,
        vigFim: today,
      },
    ],
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const [{ ID: agendaId }] = (await saved.json()) as { ID: number }[];

  // The ASG's phone.
  const session = await request.post("/api/sessions", { data: { email: ASG.email, password: DEMO_PASSWORD } });
  expect(session.status()).toBe(200);
  const phone = { authorization: `Bearer ${((await session.json()) as { token: string }).token}` };
  const day = await request.get(`/api/execution/bookings?date=${today}`, { headers: phone });
  expect(day.status(), await day.text()).toBe(200);
  const mine = (
    (await day.json()) as { bookings: { agendaId: number; procedures: { id: number }[]; slots: { id: number }[] }[] }
  ).bookings.find((booking) => booking.agendaId === agendaId)!;
  const slot = mine.slots[0].id;
  const started = await request.post(`/api/execution/bookings/${slot}/start`, { headers: phone });
  expect(started.status(), await started.text()).toBe(200);
  const done = await request.post(`/api/execution/bookings/${slot}/procedures`, {
    headers: phone,
    multipart: {
      procedureId: String(mine.procedures[0].id),
      photo: { name: "foto.png", mimeType: "image/png", buffer: Buffer.from(tinyPng(800, 600)) },
    },
  });
  expect(done.status(), await done.text()).toBe(201);
  return ((await done.json()) as { image: string }).image;
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
