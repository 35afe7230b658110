import { readFileSync, writeFileSync } from "node:fs";

import type { APIRequestContext, Download, Page, TestInfo } from "@playwright/test";
import ExcelJS from "exceljs";
import { getDocumentProxy } from "unpdf";

import { presetPeriod } from "../../api/domain/client-report.ts";
import type { ExecutionDay } from "../../api/routes/execution.ts";
import { businessToday } from "../support/e2e-agendas.ts";
import { BRANCHES, uniquePrefix } from "../support/e2e-catalogues.ts";
import { DEMO_PASSWORD } from "../support/e2e-data.ts";
import { apiToken, createEnvironments, readPdf } from "../support/e2e-environments.ts";
import { expect, makePng, screenshot, test } from "../support/e2e-fixtures.ts";

/**
 * The client report (/relatorio-cliente; issue 24 part 3; docs/decisions/006-client-report.md), with JS and without:
 * the client reads its own branch; a manager picks a branch and a preset; the page printed by Chromium fits A4 with
 * a section per page and no row cut; the PDF and Excel downloads hold the page's numbers.
 */

const A4 = { width: 595.28, height: 841.89 };

/** The rooms of a branch, by name (the demo data's). */
async function roomNames(request: Parameters<typeof apiToken>[0], branch: number) {
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const answer = await request.get(`/api/environments?filialId=${branch}`, { headers });
  expect(answer.status(), await answer.text()).toBe(200);
  const body = (await answer.json()) as { AMBIENTE_NOME?: string; name?: string; NOME?: string }[];
  return new Set(body.map((room) => room.AMBIENTE_NOME ?? room.name ?? room.NOME ?? ""));
}

const roomsTable = (page: Page) => page.getByRole("table", { name: "Limpezas por ambiente" });

/**
 * Today's cleanings in a room of its own in Filial Aldeota, made as the execution app makes them (the browser tests
 * start without history): the main slot done with a photo, the revision reported incomplete with a reason.
 */
async function cleaningsToday(request: APIRequestContext, testInfo: TestInfo) {
  const today = businessToday();
  const name = `${uniquePrefix(testInfo)} Sala do cliente`;
  const [room] = await createEnvironments(request, [{ name, andar: "1º andar", branch: "aldeota" }]);
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const asgs = await request.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${BRANCHES.aldeota.id}`, { headers });
  const asg = ((await asgs.json()) as { id: number; nome: string }[]).find((user) => user.nome === "Sebastião ASG")!;
  const saved = await request.post("/api/agendas/v2/saveAgenda", {
    headers,
    data: [
      {
        Id_EmpresasFilial: BRANCHES.aldeota.id,
        Id_Environments: room,
        Id_Users: asg.id,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: "06:00",
          hora_base_final: "06:30",
          Revisoes: [{ HORA_INICIAL: "07:00", HORA_FINAL: "07:30" }],
        },
        revisionPhotos: false,
        vigIni: today,
        vigFim: today,
      },
    ],
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const agendaId = ((await saved.json()) as { ID: number }[])[0].ID;
  const session = await request.post("/api/sessions", { data: { email: "asg@demo.com.br", password: DEMO_PASSWORD } });
  const asgHeaders = { authorization: `Bearer ${((await session.json()) as { token: string }).token}` };
  const day = (await (await request.get("/api/execution/bookings", { headers: asgHeaders })).json()) as ExecutionDay;
  const booking = day.bookings.find((entry) => entry.agendaId === agendaId)!;
  const [main, revision] = booking.slots;
  const exec = async (path: string, options: Parameters<APIRequestContext["post"]>[1] = {}) => {
    const answer = await request.post(`/api/execution/bookings/${path}`, { headers: asgHeaders, ...options });
    expect(answer.status(), await answer.text()).toBeLessThan(300);
  };
  await exec(`${main.id}/start`);
  await exec(`${main.id}/procedures`, {
    multipart: {
      procedureId: String(booking.procedures[0].id),
      photo: { name: "foto.png", mimeType: "image/png", buffer: makePng(40, 30) },
    },
  });
  await exec(`${main.id}/finish`);
  await exec(`${revision.id}/incomplete`, { data: { justificativa: "Sala trancada, sem chave" } });
  return { name, view: `/relatorio-cliente?inicio=${today}&fim=${today}` };
}

test("the client reads its own branch (Filial Aldeota), last month by default", async ({
  page,
  request,
  signInAs,
  javaScriptEnabled,
}, testInfo) => {
  await signInAs("cliente");
  await page.goto("/relatorio-cliente");
  const lastMonth = presetPeriod("mes-passado", businessToday());
  await expect(page.getByRole("heading", { level: 1, name: "Relatório do cliente" })).toBeVisible();
  await expect(page.getByLabel("Data inicial")).toHaveValue(lastMonth.from);
  await expect(page.getByLabel("Data final")).toHaveValue(lastMonth.to);
  // No branch to choose: the client's is fixed.
  await expect(page.getByRole("combobox", { name: "Filial" })).toHaveCount(0);
  await expect(page.getByText(/^Filial Aldeota · De /)).toBeVisible();
  await expect(page.getByText("Filial Messejana")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Imprimir" })).toHaveCount(javaScriptEnabled ? 1 : 0);

  // Today's view: the room's cleanings, its incident with the reason, its photo.
  const { name, view } = await cleaningsToday(request, testInfo);
  await page.goto(view);
  const ours = roomsTable(page).getByRole("row").filter({ hasText: name });
  // Agendadas, no prazo, com atraso, não realizadas, pendentes, % concluídas: the main slot started now is on time or
  // late by the clock; one of the two.
  const cells = ours.getByRole("cell");
  await expect(cells.nth(0)).toHaveText("2");
  const [onTime, late] = [Number(await cells.nth(1).textContent()), Number(await cells.nth(2).textContent())];
  expect(onTime + late).toBe(1);
  await expect(cells.nth(3)).toHaveText("1");
  await expect(cells.nth(4)).toHaveText("0");
  await expect(cells.nth(5)).toHaveText("50,0 %");
  const incidents = page.getByRole("table", { name: /incompletas/ });
  await expect(incidents.getByRole("row").filter({ hasText: name })).toContainText("Sala trancada, sem chave");
  await expect(page.getByRole("img", { name: new RegExp(`^${name}: `) })).toBeVisible();

  // Every room in the table is one of Aldeota's; none only Messejana's.
  const aldeota = await roomNames(request, BRANCHES.aldeota.id);
  const rows = roomsTable(page).locator("tbody th[scope=row]");
  await expect(rows.first()).toBeVisible();
  for (const name of await rows.allTextContents()) expect(aldeota.has(name), name).toBe(true);

  // The numbers: our room's row is the API's for the client (other tests add rooms meanwhile: only ours is fixed),
  // and the summary's 'Agendadas' is the sum of the rows the page shows.
  const headers = { authorization: `Bearer ${await apiToken(request, "cliente")}` };
  const today = businessToday();
  const api = await request.get(`/api/relatorios/cliente?dataIni=${today}&dataFim=${today}`, { headers });
  const room = ((await api.json()).ambientes as { ambiente: string; agendadas: number; naoRealizadas: number }[]).find(
    (entry) => entry.ambiente === name,
  )!;
  expect(room).toMatchObject({ agendadas: 2, naoRealizadas: 1 });
  const scheduled = await roomsTable(page).locator("tbody td:nth-of-type(1)").allTextContents();
  const total = scheduled.reduce((sum, text) => sum + Number(text.replace(/\./g, "")), 0);
  await expect(page.locator(".client-report-tile").first().locator(".tile-count")).toHaveText(
    total.toLocaleString("pt-BR"),
  );

  await page.setViewportSize({ width: 1366, height: 900 });
  await screenshot(page, testInfo.project.name, "relatorio-cliente-1366");
  await page.setViewportSize({ width: 360, height: 740 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "nothing wider than the phone").toBeLessThanOrEqual(360);
  await screenshot(page, testInfo.project.name, "relatorio-cliente-360");
});

test("a manager picks a branch, then a preset", async ({ page, signInAs }) => {
  await signInAs("admin");
  await page.goto("/relatorio-cliente");
  await expect(page.getByText("Escolha a filial e o período do relatório.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Exportar PDF" })).toHaveCount(0);
  const branch = page.getByRole("combobox", { name: "Filial" });
  await expect(branch.getByRole("option", { name: "Todos" })).toHaveCount(0);
  await branch.selectOption(String(BRANCHES.messejana.id));
  await page.getByRole("button", { name: "Semana passada" }).click();
  const week = presetPeriod("semana-passada", businessToday());
  await expect(page).toHaveURL(new RegExp(`/relatorio-cliente\\?.*filial=${BRANCHES.messejana.id}`));
  await expect(page).toHaveURL(new RegExp(`inicio=${week.from}&fim=${week.to}`));
  await expect(page).not.toHaveURL(/periodo=/);
  await expect(page.getByText(/^Filial Messejana · De /)).toBeVisible();
  await expect(page.getByLabel("Data inicial")).toHaveValue(week.from);

  await page.getByRole("button", { name: "Mês passado" }).click();
  const month = presetPeriod("mes-passado", businessToday());
  await expect(page).toHaveURL(new RegExp(`inicio=${month.from}&fim=${month.to}`));
  await expect(branch).toHaveValue(String(BRANCHES.messejana.id));

  // Custom dates after today: the §5 toast, the last view kept.
  await page.getByLabel("Data final").fill("2099-01-01");
  await page.getByRole("button", { name: "Gerar relatório" }).click();
  await expect(page.getByText("Intervalo de datas inválidos, favor verificar")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`inicio=${month.from}&fim=${month.to}`));
});

test("printed by Chromium: A4 pages, each section from a new page, no row cut", async ({
  page,
  request,
  signInAs,
}, testInfo) => {
  const { name, view } = await cleaningsToday(request, testInfo);
  await signInAs("cliente");
  await page.goto(view);
  await expect(roomsTable(page)).toBeVisible();
  await expect(roomsTable(page).locator("tbody th[scope=row]").filter({ hasText: name })).toHaveCount(1);
  await page.emulateMedia({ media: "print" });
  const file = test.info().outputPath("relatorio-cliente-impresso.pdf");
  writeFileSync(file, await page.pdf({ format: "A4", printBackground: true }));
  const printed = await readPdf({ path: async () => file } as unknown as Download);
  const proxy = await getDocumentProxy(new Uint8Array(readFileSync(file)));
  for (let index = 1; index <= printed.pages; index += 1) {
    const [, , width, height] = (await proxy.getPage(index)).view;
    expect(Math.abs(width - A4.width), `page ${index} width`).toBeLessThan(2);
    expect(Math.abs(height - A4.height), `page ${index} height`).toBeLessThan(2);
  }
  // The menu and the form are not printed; each section starts a page of its own.
  expect(printed.text.join(" ")).not.toContain("Gerar relatório");
  const pageOf = (heading: string) => printed.text.findIndex((text) => text.includes(heading));
  const sections = ["Resumo", "Por ambiente", "Por semana", "Ocorrências", "Fotos de evidência"].map(pageOf);
  expect(
    sections.every((index) => index >= 0),
    JSON.stringify(sections),
  ).toBe(true);
  for (let index = 1; index < sections.length; index += 1) expect(sections[index]).toBeGreaterThan(sections[index - 1]);
  // This test's room's row is not cut: its name is whole on one page; and every page with rooms on it repeats the
  // table's header. (Only this test's room: other tests add rooms of their own to the branch's day meanwhile, with
  // names of any length.)
  const roomPages = printed.text.slice(sections[1], sections[2]);
  expect(roomPages.filter((text) => text.includes(name)).length, name).toBe(1);
  for (const text of roomPages) expect(text).toContain("Agendadas");
});

test("the PDF and Excel downloads hold the page's numbers", async ({ page, request, signInAs }, testInfo) => {
  const { name, view } = await cleaningsToday(request, testInfo);
  await signInAs("cliente");
  await page.goto(view);
  await expect(roomsTable(page)).toBeVisible();
  const rooms = await roomsTable(page).locator("tbody th[scope=row]").allTextContents();
  const scheduled = (await page.locator(".client-report-tile .tile-count").first().textContent())!;

  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar PDF" }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/^relatorio-cliente-\d{2}-\d{2}-\d{4}\.pdf$/);
  const { text } = await readPdf(pdf);
  const all = text.join(" ");
  expect(all).toContain("Relatório do cliente");
  expect(all).toContain("Filial Aldeota");
  for (const heading of ["Resumo", "Por ambiente", "Por semana", "Ocorrências", "Fotos de evidência"])
    expect(all).toContain(heading);
  expect(all).toContain(`Agendadas ${scheduled}`);
  for (const room of rooms) expect(all).toContain(room);

  const [xlsx] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^relatorio-cliente-\d{2}-\d{2}-\d{4}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await xlsx.path());
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
    "Resumo",
    "Por ambiente",
    "Por semana",
    "Ocorrências",
  ]);
  const summary = workbook.getWorksheet("Resumo")!;
  const rowOf = (label: string) =>
    summary.getSheetValues().find((row) => Array.isArray(row) && row[1] === label) as unknown[];
  expect(rowOf("Filial")[2]).toBe("Filial Aldeota");
  expect(String(rowOf("Agendadas")[2])).toBe(scheduled.replace(/\./g, ""));
  const byRoom = workbook.getWorksheet("Por ambiente")!;
  const names = byRoom
    .getColumn(1)
    .values.slice(2)
    .map((value) => String(value));
  expect(names).toEqual(rooms);
  const incidents = workbook.getWorksheet("Ocorrências")!;
  expect(incidents.getRow(1).values).toContain("Motivo");
  const ours = incidents.getSheetValues().find((row) => Array.isArray(row) && row[4] === name) as unknown[];
  expect(ours[6]).toBe("Sala trancada, sem chave");
  expect(all).toContain("Sala trancada, sem chave");
});
