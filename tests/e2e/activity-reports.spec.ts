import type { APIRequestContext, Page } from "@playwright/test";
import ExcelJS from "exceljs";

import { BRANCHES, uniquePrefix } from "../support/e2e-catalogues.ts";
import { DEMO_PASSWORD } from "../support/e2e-data.ts";
import { agendaToday } from "../support/e2e-execution.ts";
import { expect, screenshot, test } from "../support/e2e-fixtures.ts";
import { tinyPng } from "../support/files.ts";

/**
 * The activity reports (spec 001 §2.12; issue 24 part 2; docs/activity-reports.md), with JS (the detail as a dialog)
 * and without (a section): a deep link after sign-in, the activity filter, the detail and back, the Excel file equal
 * to the table, /imagens-tarefas with its photos, and the client (roleId 7) who sees Filial Aldeota only.
 */

type Today = { today: string; aldeota: string; messejana: string };

/**
 * Two rooms of the test's own for today (the shared helper: the execution API does what the phone does): in Filial
 * Aldeota (procedures 'Limpar piso' and 'Recolher lixo') an agenda of Sebastião ASG with a main slot at 05:00, done
 * ('Limpar piso' with an observation, 'Recolher lixo' with a photo), and a revision at 05:40 left undone; in Filial
 * Messejana a slot of Bruno Lima at 06:00, undone.
 */
async function activitiesToday(request: APIRequestContext, prefix: string): Promise<Today> {
  const aldeota = `${prefix} Aldeota`;
  const messejana = `${prefix} Messejana`;
  const phone = await agendaToday(
    request,
    { name: aldeota, andar: "Térreo", mandatory: ["Limpar piso"], optional: ["Recolher lixo"] },
    [
      ["05:00", "05:30"],
      ["05:40", "05:50"],
    ],
  );
  await agendaToday(request, { name: messejana, andar: "1º andar", branch: "messejana" }, [["06:00", "06:30"]], {
    email: "bruno@demo.com.br",
    nome: "Bruno Lima",
  });
  const main = phone.slot("05:00");
  await phone.call(`${main}/start`);
  await phone.call(`${main}/procedures`, {
    multipart: { procedureId: phone.procedure("Limpar piso"), observacao: "Piso limpo e seco" },
  });
  await phone.call(`${main}/procedures`, {
    multipart: {
      procedureId: phone.procedure("Recolher lixo"),
      photo: { name: "lixo.png", mimeType: "image/png", buffer: Buffer.from(tinyPng(8, 8)) },
    },
  });
  await phone.call(`${main}/finish`);
  return { today: phone.today, aldeota, messejana };
}

const dateBR = (date: string) => date.split("-").reverse().join("/");

/** The list's rows as the table shows them (a card on phones is the same row): each cell's text. */
async function rowsOnScreen(page: Page, name: string) {
  const table = page.getByRole("table", { name });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  return (await table
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
    .evaluateAll((lines) =>
      lines.map((line) => [...line.querySelectorAll("td")].map((cell) => cell.textContent!.trim())),
    )) as string[][];
}

async function signIn(page: Page, email: string) {
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
}

async function chooseActivity(page: Page, label: string) {
  const combobox = page.getByRole("combobox", { name: "Atividades" });
  await combobox.selectOption({ label });
  const value = await combobox.inputValue();
  await page.getByRole("button", { name: "Pesquisar" }).click();
  await expect(page).toHaveURL(new RegExp(`atividade=${value}`));
}

/** Searches the text filter and waits for the view of it. */
async function searchFor(page: Page, text: string) {
  await page.getByRole("searchbox", { name: "Buscar" }).fill(text);
  await page.getByRole("button", { name: "Pesquisar" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "\\+")}(&|$)`));
}

test("a shared link opens after sign-in; the activity filter; the detail and back; the Excel file equals the table", async ({
  page,
  request,
}, testInfo) => {
  const prefix = uniquePrefix(testInfo);
  const { today, aldeota, messejana } = await activitiesToday(request, prefix);
  const view = `/historico-tarefas?${new URLSearchParams({ inicio: today, fim: today, q: prefix })}`;
  await page.goto(view);
  await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(view)}`);
  await signIn(page, "admin@demo.com.br");
  await expect(page).toHaveURL(view);
  await expect(page.getByRole("heading", { level: 1, name: "Atividades" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Filial" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Atividades" })).toHaveValue("todos");

  // Every slot of the day, in time order: the ASG's main slot done, its revision and Bruno's slot not.
  expect(await rowsOnScreen(page, "Atividades")).toEqual([
    [aldeota, "Filial Aldeota", dateBR(today), "05:00 às 05:30", "SIM"],
    [aldeota, "Filial Aldeota", dateBR(today), "05:40 às 05:50", "NÃO"],
    [messejana, "Filial Messejana", dateBR(today), "06:00 às 06:30", "NÃO"],
  ]);

  await chooseActivity(page, "Apenas atividades feitas");
  expect((await rowsOnScreen(page, "Atividades")).map((row) => row[3])).toEqual(["05:00 às 05:30"]);
  await chooseActivity(page, "Atividades pendentes");
  expect((await rowsOnScreen(page, "Atividades")).map((row) => row[3])).toEqual(["05:40 às 05:50", "06:00 às 06:30"]);
  await chooseActivity(page, "Imagens de tarefas executadas");
  expect((await rowsOnScreen(page, "Atividades")).map((row) => row[3])).toEqual(["05:00 às 05:30"]);
  // A search that finds nothing: the spec's empty state.
  await searchFor(page, `${prefix} nada`);
  await expect(page.getByText("Não existe um histórico de tarefas para o intervalo de datas atual.")).toBeVisible();

  // The detail of the done slot: a dialog with JS, a section without; its photo's zoom page and back.
  const list = `/historico-tarefas?${new URLSearchParams({ inicio: today, fim: today, q: prefix })}`;
  await page.goto(list);
  await page.getByRole("link", { name: `${aldeota}, ${dateBR(today)} 05:00 às 05:30: detalhes` }).click();
  await expect(page.getByRole("heading", { name: "Detalhes do Agendamento" })).toBeVisible();
  const detail = page.locator(".report-dialog");
  await expect(detail.getByText("Feito", { exact: true })).toBeVisible();
  await expect(detail.getByText("Sebastião ASG")).toBeVisible();
  await expect(detail.getByText("05:00 às 05:30 (Principal)")).toBeVisible();
  await expect(detail.locator(".report-task strong")).toHaveText(["Limpar piso", "Recolher lixo"]);
  await expect(detail.getByText("Observação: Piso limpo e seco")).toBeVisible();
  await expect(detail.getByText(/^Início \d{2}:\d{2}:\d{2} · Fim \d{2}:\d{2}:\d{2}$/)).toHaveCount(2);
  const detailUrl = page.url();
  await detail.getByRole("link", { name: "Ampliar a foto de Recolher lixo" }).click();
  await expect(page.getByRole("heading", { name: "Foto da execução" })).toBeVisible();
  const photo = page.getByRole("img", { name: "Foto registrada na execução do procedimento" });
  await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page).toHaveURL(detailUrl);
  await page.getByRole("link", { name: "Ok" }).click();
  await expect(page).toHaveURL(list);
  await expect(page.getByRole("heading", { name: "Detalhes do Agendamento" })).toHaveCount(0);

  // A pending slot: Pendente, nothing done.
  await page.getByRole("link", { name: `${messejana}, ${dateBR(today)} 06:00 às 06:30: detalhes` }).click();
  await expect(page.locator(".report-dialog").getByText("Pendente", { exact: true })).toBeVisible();
  await expect(page.getByText("Nenhuma atividade registrada neste agendamento.")).toBeVisible();
  await page.getByRole("link", { name: "Ok" }).click();
  await expect(page).toHaveURL(list);

  // 'Exportar Excel': the view, every page, the table's columns first, cell for cell.
  const onScreen = await rowsOnScreen(page, "Atividades");
  const headers = await page
    .getByRole("table", { name: "Atividades" })
    .getByRole("columnheader")
    .evaluateAll((cells) => cells.map((cell) => cell.textContent!.replace(/[▲▼↕]/g, "").trim()));
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`relatorio-atividades-${today.split("-").reverse().join("-")}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header).toEqual([...headers, "Tipo", "Colaborador", "Fotos", "Foto"]);
  const inFile = Array.from({ length: sheet.actualRowCount - 1 }, (_, index) =>
    (sheet.getRow(index + 2).values as unknown[]).slice(1),
  );
  expect(inFile.map((row) => row.slice(0, headers.length).map(String))).toEqual(onScreen);
  expect(inFile.map((row) => row.slice(headers.length, headers.length + 3))).toEqual([
    ["Principal", "Sebastião ASG", 1],
    ["Revisão", "Sebastião ASG", 0],
    ["Principal", "Bruno Lima", 0],
  ]);
  expect(inFile[0][headers.length + 3]).toMatchObject({ text: "Ver foto" });
});

test("/imagens-tarefas: the done slots with a photo by default, a thumbnail, 'Detalhes'", async ({
  page,
  request,
  signInAs,
}, testInfo) => {
  const prefix = uniquePrefix(testInfo);
  const { today, aldeota } = await activitiesToday(request, prefix);
  await signInAs("admin");
  const view = `/imagens-tarefas?${new URLSearchParams({ inicio: today, fim: today, q: prefix })}`;
  await page.goto(view);
  await expect(page.getByRole("heading", { level: 1, name: "Imagens de tarefas" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Atividades" })).toHaveValue("imagens");
  const rows = await rowsOnScreen(page, "Imagens de tarefas");
  expect(rows.map((row) => row.slice(1))).toEqual([
    [aldeota, "Filial Aldeota", dateBR(today), "05:00 às 05:30", "SIM"],
  ]);
  const thumbnail = page.getByRole("link", { name: `Ampliar a foto de ${aldeota}` }).locator("img");
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await page.setViewportSize({ width: 1366, height: 768 });
  await screenshot(page, testInfo.project.name, "activities-images-1366");
  await page.setViewportSize({ width: 360, height: 740 });
  await screenshot(page, testInfo.project.name, "activities-images-360");
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole("link", { name: `${aldeota}, ${dateBR(today)} 05:00 às 05:30: detalhes` }).click();
  await expect(page.getByRole("heading", { name: "Detalhes", exact: true })).toBeVisible();
  await expect(page.locator(".report-dialog .report-task strong")).toHaveText(["Limpar piso", "Recolher lixo"]);
  await page.getByRole("link", { name: "Ok" }).click();
  await expect(page).toHaveURL(view);

  // The other activities are one choice away; the choice stays in the URL.
  await chooseActivity(page, "Mostrar todas atividades");
  expect(await rowsOnScreen(page, "Imagens de tarefas")).toHaveLength(3);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exportar Excel" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`relatorio-imagens-${today.split("-").reverse().join("-")}.xlsx`);
});

test("the client (roleId 7) signs in to /historico-tarefas and sees Filial Aldeota only, on a wide screen and a phone", async ({
  page,
  request,
}, testInfo) => {
  const prefix = uniquePrefix(testInfo);
  const { today, aldeota, messejana } = await activitiesToday(request, prefix);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  await signIn(page, "cliente@demo.com.br");
  await expect(page).toHaveURL(/\/historico-tarefas/);
  await expect(page.getByRole("heading", { level: 1, name: "Atividades" })).toBeVisible();
  // No branch to choose: the client's scope is its client branch.
  await expect(page.getByRole("combobox", { name: "Filial" })).toHaveCount(0);
  await expect(page.getByLabel("Data inicial")).toHaveValue(today);
  const empresas = await rowsOnScreen(page, "Atividades");
  expect(new Set(empresas.map((row) => row[1]))).toEqual(new Set(["Filial Aldeota"]));

  await searchFor(page, prefix);
  expect(await rowsOnScreen(page, "Atividades")).toEqual([
    [aldeota, "Filial Aldeota", dateBR(today), "05:00 às 05:30", "SIM"],
    [aldeota, "Filial Aldeota", dateBR(today), "05:40 às 05:50", "NÃO"],
  ]);
  await expect(page.getByText(messejana)).toHaveCount(0);
  await screenshot(page, testInfo.project.name, "activities-client-1366");

  // On a phone: cards, nothing wider than the screen, the filters can be hidden.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Atividades" })).toBeVisible();
  const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
  await screenshot(page, testInfo.project.name, "activities-client-360");
  // Each card's cell is labelled 'Empresa:', 'Data:' …; the question stays one: 'Feito? SIM', not 'Feito?: SIM'.
  const labels = await page
    .locator("table.data-table tbody tr")
    .first()
    .locator("td[data-label]")
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute("data-label")));
  expect(labels.slice(-2)).toEqual(["Horário:", "Feito?"]);
  await page.getByText("Ocultar filtros").click();
  await expect(page.getByRole("button", { name: "Pesquisar" })).toBeHidden();
  await page.getByText("Mostrar filtros").click();
  await expect(page.getByRole("button", { name: "Pesquisar" })).toBeVisible();
  await page.getByRole("link", { name: `${aldeota}, ${dateBR(today)} 05:00 às 05:30: detalhes` }).click();
  await expect(page.getByRole("heading", { name: "Detalhes do Agendamento" })).toBeVisible();
  await screenshot(page, testInfo.project.name, "activities-client-detail-360");

  // Another branch, asked for by its address: the 404 page ('Filial não encontrada'), none of its rows.
  const other = await page.request.get(
    `/historico-tarefas?inicio=${today}&fim=${today}&filial=${BRANCHES.messejana.id}`,
  );
  expect(other.status()).toBe(404);
  expect(await other.text()).not.toContain(messejana);
});
