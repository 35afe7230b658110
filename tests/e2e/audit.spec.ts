import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { AUDIT_BOARDS } from "../../api/domain/audit.ts";
import { periodHeading } from "../../api/domain/board.ts";
import { readPdf } from "../support/e2e-environments.ts";
import { agendaToday } from "../support/e2e-execution.ts";
import { expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * /auditoria (issue 25; docs/audit-dashboard.md), with JS and without: a room of its own today (Sebastião's main slot
 * done through the phone's calls, his revision not started) read through the URL's filter; the eight charts with
 * their numbers in the tables beneath, drawn by the server as SVG without JS and by chart.js with it; the font size
 * and the filters in the URL; 'Filtrar' with nothing chosen; 'Remover filtros'.
 */

/** The rows of a chart's table ('Ver dados'): each row's cells' text. */
async function chartTable(page: Page, title: string) {
  const figure = page.getByRole("figure", { name: title });
  await figure.getByText("Ver dados").click();
  const rows = figure.getByRole("table").getByRole("row");
  await expect(rows.nth(1)).toBeVisible();
  const cells: string[][] = [];
  for (const row of (await rows.all()).slice(1)) {
    cells.push((await row.locator("th, td").allTextContents()).map((text) => text.trim()));
  }
  return cells;
}

test("the audit dashboard of one room today: nine charts, font, filters", async ({ page, request, signInAs }, info) => {
  test.setTimeout(90_000); // a long walk through the page: room for a loaded machine
  const phone = await agendaToday(
    request,
    { name: `Auditoria ${info.project.name} ${Date.now()}`, andar: "Térreo", mandatory: ["Limpar piso"] },
    [
      ["05:00", "05:30"],
      ["05:40", "05:50"],
    ],
  );
  const main = phone.slot("05:00");
  await phone.call(`${main}/start`);
  await phone.call(`${main}/procedures`, { multipart: { procedureId: phone.procedure("Limpar piso") } });
  await phone.call(`${main}/finish`);

  await signInAs("admin");
  await page.goto(`/auditoria?ambientes=${phone.environmentId}`);
  await expect(page.getByRole("heading", { name: "Auditoria", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("heading", { name: periodHeading({ from: phone.today, to: phone.today }) }),
  ).toBeVisible();
  const figures = page.getByRole("figure");
  // The demo company shows every board, the ninth ('Inspeções: pontuação média', issue 29) too.
  await expect(figures).toHaveCount(AUDIT_BOARDS.length);
  expect(await page.locator("figcaption").allInnerTexts()).toEqual(AUDIT_BOARDS.map((board) => board.title));

  // Drawn by the server without JS; by chart.js (its chunk loaded after hydration) with it.
  const js = info.project.name !== "no-js";
  // The room has no inspection: the ninth chart says 'Sem dados' and draws nothing.
  await expect(page.locator(".audit-chart-empty")).toHaveCount(1);
  if (js) await expect(page.locator("figure canvas")).toHaveCount(AUDIT_BOARDS.length - 1);
  else {
    await expect(page.locator("figure svg")).toHaveCount(AUDIT_BOARDS.length - 1);
    await expect(page.locator("figure svg text").first()).toHaveAttribute("font-size", "11");
  }

  expect(await chartTable(page, "Ambientes")).toEqual([
    ["Completo", "1 atividade"],
    ["A iniciar", "1 atividade"],
  ]);
  expect(await chartTable(page, "Atividades em aberto por funcionário")).toEqual([["Sebastião ASG", "1 atividade"]]);
  expect(await chartTable(page, "Utilização do App")).toEqual([["Sebastião ASG", "50,00%"]]);
  expect(await chartTable(page, "Resumo das Atividades")).toEqual([["Sebastião ASG", "1 atividade", "0 atividades"]]);

  // The downloads of the same view: 'DataSheet.xlsx' (a sheet per chart, §9's names) and the 'Resumo' PDF.
  const [excel] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(excel.suggestedFilename()).toBe("DataSheet.xlsx");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await excel.path());
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(AUDIT_BOARDS.map((board) => board.sheet));
  const statuses = workbook.getWorksheet("Ambientes")!;
  expect([statuses.getRow(2).getCell(1).text, statuses.getRow(2).getCell(2).value]).toEqual(["Completo", 1]);
  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar PDF" }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/^resumo-\d{2}-\d{2}-\d{4}\.pdf$/);
  const text = (await readPdf(pdf)).text.join(" ");
  expect(text).toContain("Resumo");
  expect(text).toContain("Completo: 1 atividade");
  expect(text).toContain("Sebastião ASG: 50,00%");

  // The font size lives in the URL: 12 after one click.
  await page.getByRole("link", { name: "Aumentar a fonte" }).click();
  await expect(page).toHaveURL(/fonte=12/);
  await expect(page.getByRole("group", { name: "Tamanho da fonte dos gráficos: 12" })).toBeVisible();
  if (!js) await expect(page.locator("figure svg text").first()).toHaveAttribute("font-size", "12");

  // 'Filtros': a collaborator added to the room; 'Filtrar' keeps both in the URL.
  await page.getByRole("link", { name: "Filtros", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Filtros", exact: true })).toBeVisible();
  await page.getByLabel("Colaborador", { exact: true }).selectOption({ label: "Sebastião ASG" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/colaboradores=\d+/);
  await expect(page).toHaveURL(new RegExp(`ambientes=${phone.environmentId}`));
  await expect(page).not.toHaveURL(/filtrar=/);
  await expect(page).toHaveURL(/fonte=12/);
  await expect(page.getByRole("heading", { name: "Filtros", exact: true })).toHaveCount(0);

  // 'Remover filtros' (only while a filter is on), then 'Filtrar' with nothing chosen: 'Selecione algum filtro'.
  await page.getByRole("link", { name: "Remover filtros" }).click();
  await expect(page).not.toHaveURL(/colaboradores=|ambientes=/);
  await expect(page.getByRole("link", { name: "Remover filtros" })).toHaveCount(0);
  await page.getByRole("link", { name: "Filtros", exact: true }).click();
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(toast(page, "Selecione algum filtro", "status")).toContainText("Favor selecionar pelo menos um filtro");
  await expect(page.getByRole("heading", { name: "Filtros", exact: true })).toBeVisible();

  // A choice with nothing to show (a day of 2020): 'Sem dados', and the charts say so.
  await page.goto("/auditoria/filtros?inicio=2020-01-01&fim=2020-01-01");
  await page.getByLabel("Colaborador", { exact: true }).selectOption({ label: "Sebastião ASG" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(toast(page, "Sem dados")).toContainText("Não há dados com esse filtro");
  await expect(page).toHaveURL(/colaboradores=\d+/);
  await expect(page.locator(".audit-chart-empty")).toHaveCount(AUDIT_BOARDS.length);
});
