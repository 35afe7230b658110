import type { Page } from "@playwright/test";

import { MONTHS } from "../support/e2e-agendas.ts";
import { createTodayWithExecutions, INCOMPLETE_REASON, TODAY_SLOTS } from "../support/e2e-board.ts";
import { uniquePrefix } from "../support/e2e-catalogues.ts";
import { expect, SCANNING_PHONE, test } from "../support/e2e-fixtures.ts";

/**
 * The dashboard board (spec 001 §2.6, §2.7, §2.8) and the public room page (§2.14), on data the ASG's phone wrote
 * today through the execution API (tests/support/e2e-board.ts): one card per column. The board is searched for this
 * test's own environment, so other tests' agendas of today do not show. Texts are written out, not imported.
 */

/** '22 de novembro de 2026' ('1º' on the first of the month), the board's one-day heading. */
function longDate(day: string) {
  const [year, month, date] = day.split("-").map(Number);
  return `${date === 1 ? "1º" : date} de ${MONTHS[month - 1]} de ${year}`;
}

const column = (page: Page, title: string) => page.getByRole("region", { name: new RegExp(`^${title} \\(`) });
const TIME_RANGE = /\d{2}:\d{2} - \d{2}:\d{2}/;

test("the board of today: each slot in the column of its status, the detail and its history", async ({
  page,
  context,
  request,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  const prefix = `${uniquePrefix(testInfo)} Quadro`;
  const { environment, today, agendaId } = await createTodayWithExecutions(request, prefix);
  await signInAs("admin");
  await page.goto(`/dashboard?q=${encodeURIComponent(environment)}&campos=ambiente`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: longDate(today) })).toBeVisible();
  await expect(page.getByLabel("Data inicial")).toHaveValue(today);
  await expect(page.getByLabel("Data final")).toHaveValue(today);

  for (const slot of TODAY_SLOTS) {
    const cards = column(page, slot.column).getByRole("listitem");
    await expect(cards, slot.column).toHaveCount(1);
    await expect(cards).toContainText(`${slot.ini} - ${slot.fim}`);
    await expect(cards).toContainText(slot.tipo);
    await expect(cards).toContainText(environment);
    await expect(cards).toContainText("Sebastião ASG");
  }
  await expect(column(page, "Feito").getByRole("listitem")).toContainText(TIME_RANGE);
  await expect(column(page, "Fazendo").getByRole("listitem")).toContainText("Em andamento desde");
  await page.screenshot({ path: testInfo.outputPath("board.png"), fullPage: true });

  // A card opens the schedule detail: a dialog over the board with JS, a section of the page without.
  await column(page, "A fazer").getByRole("link").click();
  const detail = javaScriptEnabled ? page.getByRole("dialog", { name: environment }) : page.locator("#detalhe");
  await expect(detail.getByRole("heading", { name: environment })).toBeVisible();
  await expect(page.getByLabel("Buscar")).toHaveValue(environment); // the board under it is still this test's
  const rows = detail.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(1)).toContainText(/06:00 - 07:00\s*\d{2}:\d{2} - \d{2}:\d{2}/);
  await expect(rows.nth(2)).toContainText(/10:00 - 10:30\s*Em andamento/);
  await expect(rows.nth(3)).toContainText(/13:00 - 13:30\s*Justificado às \d{2}:\d{2}/);
  await expect(rows.nth(4)).toContainText(/16:00 - 16:30\s*A iniciar/);
  await expect(detail).toContainText("Dias da semana");
  await expect(detail).not.toContainText("--:--");
  await page.screenshot({ path: testInfo.outputPath("detail.png") });

  await detail.getByRole("link", { name: "Histórico" }).click();
  await expect(detail.getByText("Observação: Piso limpo e seco")).toBeVisible();
  await expect(detail.getByText(`Justificativa: ${INCOMPLETE_REASON}`)).toBeVisible();

  await detail.getByRole("link", { name: javaScriptEnabled ? "Fechar" : "Voltar" }).click();
  await expect(page).toHaveURL(/\/dashboard\?q=/);
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // The second view: the same bookings as a table.
  await page.getByRole("link", { name: "Tabela" }).click();
  const table = page.getByRole("table", { name: /^Agendamentos do período/ });
  await expect(table.getByRole("row")).toHaveCount(5);
  for (const [index, slot] of TODAY_SLOTS.entries())
    await expect(table.getByRole("row").nth(index + 1)).toContainText(`${slot.column}${slot.ini} - ${slot.fim}`);

  // A client of Aldeota (roleId 7) sees its branch's board: the same four cards.
  await context.clearCookies();
  await signInAs("cliente");
  await page.goto(`/dashboard?q=${encodeURIComponent(environment)}&campos=ambiente`);
  for (const slot of TODAY_SLOTS) await expect(column(page, slot.column).getByRole("listitem")).toHaveCount(1);

  // Another tenant's administrator: the detail is not found (nothing of it shown); odd ids are 404, never a 500.
  allowConsoleErrors(/status of 404/);
  await context.clearCookies();
  await signInAs("outra");
  for (const id of [String(agendaId), "2147483648", "abc", "0"]) {
    const answer = await page.request.get(`/dashboard/agenda/${id}?dia=${today}`, { maxRedirects: 0 });
    expect(answer.status(), id).toBe(404);
    expect(await answer.text()).not.toContain(environment);
  }
});

test("a period across months gets its heading; a search with nothing found says 'Não há registros'", async ({
  page,
  signInAs,
}) => {
  await signInAs("coordenador");
  await page.goto("/dashboard?inicio=2026-02-28&fim=2026-03-03&q=ninguem-com-este-nome");
  await expect(page.getByRole("heading", { level: 2, name: "28 de fevereiro a 3 de março de 2026" })).toBeVisible();
  for (const title of ["A fazer", "Fazendo", "Feito", "Intercorrência"])
    await expect(column(page, title)).toContainText("Não há registros");
});

test("the room page on a phone without JS: the day's cleanings, the three views, no script", async ({
  browser,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== "no-js", "opened as a phone that scanned the code: once, JS off");
  const prefix = `${uniquePrefix(testInfo)} Sala`;
  const { environment, environmentId } = await createTodayWithExecutions(request, prefix);
  const phone = await browser.newContext(SCANNING_PHONE);
  const page = await phone.newPage();
  const answer = await page.goto(`/info/ambiente/${environmentId}`);
  expect(answer!.headers()["cache-control"]).toBe("public, max-age=60");
  await expect(page.getByRole("heading", { level: 1, name: environment })).toBeVisible();
  await expect(page.getByText("Filial Aldeota")).toBeVisible();
  expect(await page.locator("script").count()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // 'Todas Limpezas' (the default): the scheduled hours paired in order with what was done, the rest upcoming.
  await expect(page.getByRole("link", { name: "Todas Limpezas" })).toHaveAttribute("aria-current", "page");
  const cards = page.getByRole("list", { name: "Todas Limpezas" }).getByRole("listitem");
  await expect(cards).toHaveCount(4);
  await expect(cards.nth(0)).toContainText("Principal");
  await expect(cards.nth(0)).toContainText("Agendado:06:00 - 07:00");
  await expect(cards.nth(0)).toContainText(/Realizado:\d{2}:\d{2} - \d{2}:\d{2}/);
  await expect(cards.nth(1)).toContainText(/Agendado:10:00 - 10:30Em andamento, desde\d{2}:\d{2}/);
  await expect(cards.nth(2)).toContainText("Agendado:13:00 - 13:30");
  await expect(cards.nth(3)).toContainText("Agendado:16:00 - 16:30");
  await expect(cards.nth(0)).toContainText("Sebastião ASG");
  await page.screenshot({ path: testInfo.outputPath("room-page.png"), fullPage: true });

  // 'Próximas Limpezas': the two hours not yet performed; one whose end has passed (by the clock of the run, in
  // Fortaleza) is listed apart under 'Atrasadas', first.
  await page.getByRole("link", { name: "Próximas Limpezas" }).click();
  const now = new Intl.DateTimeFormat("en-GB", {
    timeZone: "America/Fortaleza",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date());
  const pending = ["13:00 - 13:30", "16:00 - 16:30"];
  const late = pending.filter((range) => range.slice(-5) < now);
  const stillUpcoming = pending.filter((range) => !late.includes(range));
  const listed = async (name: string) =>
    (await page.getByRole("list", { name }).getByRole("listitem").allTextContents()).map(
      (text) => /\d{2}:\d{2} - \d{2}:\d{2}/.exec(text)?.[0],
    );
  expect(await listed("Atrasadas")).toEqual(late);
  expect(await listed("Próximas Limpezas")).toEqual(stillUpcoming);
  await page.getByRole("link", { name: "Últimas Limpezas" }).click();
  const latest = page.getByRole("list", { name: "Últimas Limpezas" }).getByRole("listitem");
  await expect(latest).toHaveCount(2);
  await expect(latest.nth(0)).toContainText("Em andamento");

  await expect(page.locator("header")).toHaveCSS("background-color", "rgb(0, 105, 122)"); // the inline CSS applies
  // Another phone's scan within the minute is served from the server's cache (an Age header), and the nonce of its
  // inline <style> is still the one its Content-Security-Policy allows.
  const again = await page.request.get(`/info/ambiente/${environmentId}`);
  expect(Number(again.headers()["age"])).toBeGreaterThanOrEqual(0);
  const nonce = /<style nonce="([^"]+)"/.exec(await again.text())?.[1];
  expect(nonce).toBeTruthy();
  expect(again.headers()["content-security-policy"]).toContain(`style-src 'self' 'nonce-${nonce}'`);

  const missing = await page.goto("/info/ambiente/999999");
  expect(missing!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Ambiente não encontrado" })).toBeVisible();
  await phone.close();
});
