import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * 'Mostrar dados anteriores à Agosto/2022' (docs/legacy-data.md 'In the reports'), with JS and without: the demo's
 * old-system rows of June 2022 (tests/support/e2e-prepare.ts imports them) are not in the collaborators and
 * environments reports until the box is ticked, then they are, down to the days marked 'sistema anterior'; the
 * incomplete tasks' grid shows the old rows the old-system rule calls incomplete. An old day opens its 'Detalhes do
 * Histórico', and the collaborator's Excel holds the old rows.
 */

const JUNE = "inicio=2022-06-01&fim=2022-06-30";

/** Ticks the report form's box and sends the form (a GET form: the box travels in the URL). */
async function tickLegacy(page: Page) {
  const box = page.getByLabel("Mostrar dados anteriores à Agosto/2022");
  await box.check();
  await expect(box).toBeChecked();
  await page
    .getByRole("search")
    .getByRole("button", { name: /^Buscar/ })
    .click();
  await expect(page).toHaveURL(/anteriores=1/);
}

test("the old system's rows of June 2022 appear in the reports only with the box ticked", async ({
  page,
  signInAs,
}) => {
  // Two reports walked down to a day, and an Excel opened: a long walk, which a loaded machine took past 30 s.
  test.slow();
  await signInAs("admin");

  // The collaborators report: nothing in June 2022, then the old rows' collaborators and their old days.
  await page.goto(`/historico-colaboradores?${JUNE}`);
  await expect(page.getByText("Nenhum colaborador tem agendamentos no período.")).toBeVisible();
  await tickLegacy(page);
  await expect(page.getByLabel("Mostrar dados anteriores à Agosto/2022")).toBeChecked();
  const rows = page.getByRole("table", { name: "Colaboradores" }).getByRole("row");
  await expect(rows.nth(1)).toBeVisible();
  await rows.nth(1).getByRole("link").last().click();
  await expect(page.getByRole("heading", { name: "Histórico do Colaborador" })).toBeVisible();
  const oldDays = page.locator(".report-day").filter({ hasText: "sistema anterior" });
  await expect(oldDays.first()).toContainText(/\d{2}\/06\/2022/);

  // An old day's 'Detalhes do Histórico': its old rows, each with its times and old-system status.
  await oldDays.first().click();
  await expect(page.getByRole("heading", { name: "Detalhes do Histórico" })).toBeVisible();
  const oldRows = page.getByRole("region", { name: "Sistema anterior" }).locator(".report-task");
  await expect(oldRows.first()).toContainText(/realizado das \d{2}:\d{2}:\d{2} às/);
  await expect(oldRows.first().locator(".report-status")).toHaveText(/^(Completo|Incompleto)$/);
  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page.getByRole("heading", { name: "Histórico do Colaborador" })).toBeVisible();

  // The history's Excel holds the old rows too: no agenda, days of June 2022.
  const [excel] = await Promise.all([
    page.waitForEvent("download"),
    page.locator("a[href*='/relatorio.xlsx']", { hasText: "Exportar Excel" }).click(),
  ]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await excel.path());
  const sheet = workbook.worksheets[0];
  expect(sheet.getRow(1).getCell(10).text).toBe("Data");
  expect(sheet.rowCount).toBeGreaterThan(1);
  for (let row = 2; row <= sheet.rowCount; row++) {
    expect(sheet.getRow(row).getCell(1).text).toBe("");
    expect(sheet.getRow(row).getCell(10).text).toMatch(/^\d{2}\/06\/2022$/);
  }

  // The environments report: the same, a card per room with old rows, down to a collaborator's old days there.
  await page.goto(`/historico-ambientes?${JUNE}`);
  await expect(page.getByText("Não existe um histórico de ambientes para o intervalo de datas atual")).toBeVisible();
  await expect(page.locator(".report-card")).toHaveCount(0);
  await tickLegacy(page);
  const cards = page.locator(".report-card");
  await expect(cards.first()).toBeVisible();
  await cards.first().click();
  await expect(page.getByRole("heading", { name: "Histórico do Ambiente" })).toBeVisible();
  await expect(page).toHaveURL(/\/historico-ambientes\/\d+\?.*anteriores=1/);
  await page.locator(".report-day").first().click();
  await expect(page).toHaveURL(/\/historico-ambientes\/\d+\/\d+\?.*anteriores=1/);
  await expect(oldDays.first()).toContainText(/\d{2}\/06\/2022/);

  // The incomplete tasks: the old rows with an observation, as procedures with incomplete tasks.
  await page.goto(`/tarefas-incompletas?campo=datas&${JUNE}`);
  await expect(page.getByText("Nenhuma tarefa incompleta no período.")).toBeVisible();
  await page.goto(`/tarefas-incompletas?campo=datas&${JUNE}&anteriores=1`);
  const grid = page.getByRole("list", { name: "Procedimentos com tarefas incompletas" });
  await expect(grid.getByRole("link").first()).toBeVisible();
  await expect(page.getByText("Nenhuma tarefa incompleta no período.")).toHaveCount(0);
});
