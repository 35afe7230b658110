import type { APIRequestContext, Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { BRANCHES, uniquePrefix } from "../support/e2e-catalogues.ts";
import { DEMO_PASSWORD } from "../support/e2e-data.ts";
import { readPdf } from "../support/e2e-environments.ts";
import { agendaToday } from "../support/e2e-execution.ts";
import { expect, test } from "../support/e2e-fixtures.ts";
import { tinyPng } from "../support/files.ts";

/**
 * The history reports' drill-downs and downloads (issue 23; docs/reports.md), with JS (dialogs) and without (page
 * sections): the collaborators report down to a revision's photo and back with 'Voltar' and 'Ok'; the environments
 * report opened signed out from a shared link, and its Excel and PDF holding the rows the drill-down shows.
 */

/**
 * A room of the test's own in Filial Aldeota (procedures 'Limpar piso' and 'Recolher lixo') with an agenda for
 * today (a main cleaning and one revision), and the ASG's phone: in the main slot 'Limpar piso' recorded with an
 * observation and the slot finished; in the revision 'Recolher lixo' recorded with a photo.
 */
/**
 * Ana, an ASG of Filial Aldeota whom no other browser test schedules: her history's first page (20 room-days, newest
 * first) holds only this file's rooms. Sebastião's today fills up with the other tests' rooms (the board, the incomplete
 * tasks, the activity reports), and this file's room fell to his second page.
 */
const ANA = { email: "ana@demo.com.br", nome: "Ana Souza" };
const ASG = ANA.nome;

async function roomWithHistory(request: APIRequestContext, room: string) {
  const phone = await agendaToday(
    request,
    { name: room, andar: "Térreo", branch: "aldeota", mandatory: ["Limpar piso"], optional: ["Recolher lixo"] },
    [
      ["05:00", "05:30"],
      ["05:40", "05:50"],
    ],
    ANA,
  );
  const [main, revision] = [phone.slot("05:00"), phone.slot("05:40")];
  await phone.call(`${main}/start`);
  await phone.call(`${main}/procedures`, {
    multipart: { procedureId: phone.procedure("Limpar piso"), observacao: "Piso limpo e seco" },
  });
  await phone.call(`${main}/finish`);
  await phone.call(`${revision}/start`);
  await phone.call(`${revision}/procedures`, {
    multipart: {
      procedureId: phone.procedure("Recolher lixo"),
      photo: { name: "lixo.png", mimeType: "image/png", buffer: Buffer.from(tinyPng(8, 8)) },
    },
  });
  return { today: phone.today };
}

/** The tasks 'Detalhes do Histórico' shows: procedure, type and status, slot after slot. */
async function tasksOnScreen(page: Page) {
  const tasks = page.locator(".report-task");
  await expect(tasks.first()).toBeVisible();
  return (await tasks.evaluateAll((items) =>
    items.map((item) => [
      item.querySelector(".report-task-name strong")!.textContent!.trim(),
      item.querySelector(".report-task-name .muted")!.textContent!.split("·")[0].trim(),
      item.querySelector(".report-status")!.textContent!.trim(),
    ]),
  )) as [string, string, string][];
}

test("collaborators: the history down to a revision's photo, back with 'Voltar' and out with 'Ok'", async ({
  page,
  request,
  signInAs,
}, testInfo) => {
  const room = `${uniquePrefix(testInfo)} Histórico`;
  const { today } = await roomWithHistory(request, room);
  await signInAs("admin");
  const list = `/historico-colaboradores?inicio=${today}&fim=${today}&filial=${BRANCHES.aldeota.id}`;
  await page.goto(list);
  await page.getByRole("link", { name: ASG, exact: true }).click();
  await expect(page.getByRole("heading", { name: "Histórico do Colaborador" })).toBeVisible();
  const day = page.locator(".report-day").filter({ hasText: room });
  // The main slot's 'Recolher lixo' was skipped and the revision's 'Limpar piso' is still to do: 2 of 4 tasks.
  await expect(day).toContainText("2 de 4 tarefas");
  await expect(day).toContainText("Incompleto");
  await day.click();

  await expect(page.getByRole("heading", { name: "Detalhes do Histórico" })).toBeVisible();
  await expect(page.getByText(`${ASG} · ${room}`)).toBeVisible();
  expect(await tasksOnScreen(page)).toEqual([
    ["Limpar piso", "Principal", "Completo"],
    ["Recolher lixo", "Principal", "A iniciar"],
  ]);
  await expect(page.getByText("Observação: Piso limpo e seco")).toBeVisible();
  await expect(page.getByText("Tempo estimado")).toBeVisible();
  await page.getByRole("link", { name: "Mostrar revisões" }).click();
  await expect(page.getByRole("link", { name: "Mostrar principal" })).toBeVisible();
  expect(await tasksOnScreen(page)).toEqual([
    ["Limpar piso", "Revisão", "A iniciar"],
    ["Recolher lixo", "Revisão", "Completo"],
  ]);
  const afterZoom = page.url();
  await page.getByRole("link", { name: "Ampliar a foto de Recolher lixo" }).click();
  await expect(page.getByRole("heading", { name: "Foto da execução" })).toBeVisible();
  const photo = page.getByRole("img", { name: "Foto registrada na execução do procedimento" });
  await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page).toHaveURL(afterZoom);
  await expect(page.getByRole("link", { name: "Mostrar principal" })).toBeVisible();
  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page.getByRole("heading", { name: "Histórico do Colaborador" })).toBeVisible();
  await page.getByRole("link", { name: "Ok" }).click();
  await expect(page).toHaveURL(list);
  await expect(page.getByRole("heading", { name: "Histórico do Colaborador" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Colaboradores" })).toBeVisible();
});

test("environments: a shared link opens after sign-in; the Excel and the PDF hold the rows the drill-down shows", async ({
  page,
  request,
}, testInfo) => {
  const room = `${uniquePrefix(testInfo)} Relatório`;
  const { today } = await roomWithHistory(request, room);
  const view = `/historico-ambientes?${new URLSearchParams({ inicio: today, fim: today, q: room })}`;
  await page.goto(view);
  await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(view)}`);
  await page.locator("input[name=email]").fill("admin@demo.com.br");
  await page.locator("input[name=password]").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(view);
  await expect(page.getByRole("heading", { level: 1, name: "Ambientes" })).toBeVisible();
  const cards = page.locator(".report-card");
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(room);
  // Two slots, neither with all its tasks done (the main one finished with one of two, the revision still open).
  await expect(cards.locator("dd").last()).toHaveText("2 (0 completos)");

  // The whole view, level by level: the room's collaborator, the day, its main slot and its revision.
  await cards.click();
  await expect(page.getByRole("heading", { name: "Histórico do Ambiente" })).toBeVisible();
  await page.locator(".report-day").filter({ hasText: ASG }).click();
  // Both levels are titled 'Histórico do Ambiente': wait for the days' URL before clicking one (with JS the list of
  // collaborators stays on screen until the next level has loaded).
  await expect(page).toHaveURL(/\/historico-ambientes\/\d+\/\d+\?/);
  await page
    .locator(".report-day")
    .filter({ hasText: today.split("-").reverse().join("/") })
    .click();
  await expect(page.getByRole("heading", { name: "Detalhes do Histórico" })).toBeVisible();
  const onScreen = await tasksOnScreen(page);
  await page.getByRole("link", { name: "Mostrar revisões" }).click();
  await expect(page.getByRole("link", { name: "Mostrar principal" })).toBeVisible();
  onScreen.push(...(await tasksOnScreen(page)));
  await page.getByRole("link", { name: "Ok" }).click();
  await expect(page).toHaveURL(view);

  const [excel] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  const fileDate = today.split("-").reverse().join("-");
  expect(excel.suggestedFilename()).toBe(`relatorio-ambientes-${fileDate}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await excel.path());
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header).toEqual([
    "Agenda",
    "Filial",
    "Ambiente",
    "Categoria",
    "Setor",
    "Andar",
    "Colaborador",
    "Procedimento",
    "Tipo",
    "Data",
    "Horário",
    "Tempo estimado",
    "Início realizado",
    "Fim realizado",
    "Tempo de execução",
    "Diferença",
    "Observação",
    "Descrição",
    "Status",
    "Leitura do QR",
    "Envio",
    "Registrado em",
    "Registro recebido",
    "Início recebido",
    "Fim recebido",
    "Foto",
  ]);
  const column = (name: string) => header.indexOf(name) + 1;
  const rows = Array.from({ length: sheet.actualRowCount - 1 }, (_, index) => sheet.getRow(index + 2));
  expect(
    rows.map((row) => [column("Procedimento"), column("Tipo"), column("Status")].map((at) => row.getCell(at).value)),
  ).toEqual(onScreen);
  for (const row of rows) {
    expect(row.getCell(column("Ambiente")).value).toBe(room);
    expect(row.getCell(column("Colaborador")).value).toBe(ASG);
    expect(row.getCell(column("Data")).value).toBe(today.split("-").reverse().join("/"));
  }
  expect(rows[0].getCell(column("Horário")).value).toBe("05:00 - 05:30");
  expect(rows[0].getCell(column("Tempo estimado")).value).toBe("00:30:00");
  expect(rows[0].getCell(column("Observação")).value).toBe("Piso limpo e seco");
  // The revision's photo: a link to the photo route (the streaming writer cannot embed the picture).
  const photos = rows.map((row) => row.getCell(column("Foto")).value);
  expect(photos.filter((value) => value === "-")).toHaveLength(rows.length - 1);
  const link = photos.find((value) => value !== "-") as { text: string; hyperlink: string };
  expect(link.text).toBe("Ver foto");
  expect(link.hyperlink).toMatch(/^http:\/\/[^/]+\/fotos\/[^/]+$/);
  expect((await page.request.get(link.hyperlink)).headers()["content-type"]).toMatch(/^image\//);

  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar PDF" }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`relatorio-ambientes-${fileDate}.pdf`);
  const { text } = await readPdf(pdf);
  expect(text[0]).toContain("Relatório de Agendamentos");
  expect(text[0]).toContain(room);
  expect(text[0]).toContain("Limpar piso");
  expect(text[0]).toContain("05:00 - 05:30");
});
