import ExcelJS from "exceljs";

import { BRANCHES, uniquePrefix } from "../support/e2e-catalogues.ts";
import { readPdf } from "../support/e2e-environments.ts";
import { agendaToday, ASG_NAME } from "../support/e2e-execution.ts";
import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * The incomplete tasks report (spec 001 §2.11, issue 24 §1; docs/incomplete-tasks.md), with JS (dialogs) and without
 * (page sections): the grid, 'Histórico do Procedimento' with the card's detail side, the room's incomplete tasks
 * and back, the Excel and PDF of the procedure's history; 'Filtrar por' showing the search or the dates.
 */

test("a slot reported incomplete: the procedure left undone, its history, its room, and the files", async ({
  page,
  request,
  signInAs,
}, testInfo) => {
  const room = `${uniquePrefix(testInfo)} Incompleta`;
  const reason = `${room}: paciente em isolamento`;
  const phone = await agendaToday(
    request,
    { name: room, andar: "Térreo", mandatory: ["Limpar piso"], optional: ["Recolher lixo"] },
    [["05:00", "05:30"]],
  );
  const slot = phone.slot("05:00");
  await phone.call(`${slot}/start`);
  await phone.call(`${slot}/procedures`, { multipart: { procedureId: phone.procedure("Limpar piso") } });
  await phone.call(`${slot}/incomplete`, { data: { justificativa: reason } });

  await signInAs("coordenador");
  await page.goto(`/tarefas-incompletas?campo=ambiente&q=${encodeURIComponent(room)}`);
  await expect(page.getByRole("heading", { name: "Tarefas Incompletas", level: 1 })).toBeVisible();
  const grid = page.getByRole("list", { name: "Procedimentos com tarefas incompletas" });
  // 'Limpar piso' was done before the slot was closed: only 'Recolher lixo' was left undone.
  await expect(grid.getByRole("link")).toHaveText(["Recolher lixo1"]);

  await grid.getByRole("link", { name: /Recolher lixo/ }).click();
  await expect(page).toHaveURL(/\/tarefas-incompletas\/procedimento\?/);
  await expect(page.getByRole("heading", { name: "Histórico do Procedimento" })).toBeVisible();
  const dialog = page.locator(".report-dialog");
  const card = dialog.locator(".task-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("heading")).toHaveText("Recolher lixo");
  await expect(card).toContainText(reason);
  // The detail side: the room, the collaborator, the formatted CPF (the coordinator may read it).
  await card.getByText("Ver detalhes").click();
  await expect(card.getByRole("link", { name: room })).toBeVisible();
  await expect(card).toContainText(ASG_NAME);
  await expect(card.locator("dd").filter({ hasText: /^\d{3}\.\d{3}\.\d{3}-\d{2}$/ })).toHaveCount(1);

  // The files of the procedure's history.
  const [excel] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(excel.suggestedFilename()).toMatch(/^relatorio-procedimentos-\d{2}-\d{2}-\d{4}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await excel.path());
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header.slice(0, 7)).toEqual([
    "Procedimento",
    "Data",
    "Início",
    "Fim",
    "Observação",
    "Ambiente",
    "Colaborador",
  ]);
  expect(sheet.rowCount).toBe(2);
  const row = (sheet.getRow(2).values as unknown[]).slice(1);
  expect(row[0]).toBe("Recolher lixo");
  expect(row[4]).toBe(reason);
  expect(row[5]).toBe(room);
  expect(row[6]).toBe(ASG_NAME);
  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("link", { name: "Exportar PDF" }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/^relatorio-procedimentos-\d{2}-\d{2}-\d{4}\.pdf$/);
  const { text } = await readPdf(pdf);
  expect(text[0]).toContain("Histórico do Procedimento");
  expect(text[0]).toContain(room);

  // The room's incomplete tasks, 'Voltar' to the procedure, 'Ok' to the list.
  await card.getByRole("link", { name: room }).click();
  await expect(page.getByRole("heading", { name: `Tarefas Incompletas de ${room}` })).toBeVisible();
  const tasks = page.locator(".room-incomplete-tasks li");
  await expect(tasks).toHaveText(["Limpar pisoCOMPLETO", "Recolher lixoIMCOMPLETO"]);
  await expect(page.locator(".room-incomplete")).toContainText(`Motivo: ${reason}`);
  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page.getByRole("heading", { name: "Histórico do Procedimento" })).toBeVisible();
  await page.getByRole("link", { name: "Ok" }).click();
  await expect(page).toHaveURL(/\/tarefas-incompletas\?/);
  await expect(page.getByRole("heading", { name: "Histórico do Procedimento" })).toHaveCount(0);
  await expect(grid.getByRole("link")).toHaveText(["Recolher lixo1"]);
});

test("'Filtrar por' is one choice: 'Intervalo de datas' shows the dates instead of the search", async ({
  page,
  signInAs,
}) => {
  await signInAs("admin");
  await page.goto(`/tarefas-incompletas?filial=${BRANCHES.aldeota.id}`);
  const search = page.getByRole("searchbox", { name: "Buscar" });
  await expect(search).toBeVisible();
  await expect(page.getByLabel("Data inicial")).toBeHidden();
  await page.getByText("Filtrar por", { exact: true }).first().click();
  await page.getByRole("radio", { name: "Intervalo de datas" }).check();
  // No JS needed: the page's CSS follows the choice.
  await expect(search).toBeHidden();
  await expect(page.getByLabel("Data inicial")).toBeVisible();
  await page.getByRole("button", { name: "Aplicar", exact: true }).click();
  await expect(page).toHaveURL(/campo=datas/);
  await expect(page.locator('input[name="campo"][value="datas"]')).toBeChecked();
  await expect(page.getByLabel("Data inicial")).toBeVisible();
});
