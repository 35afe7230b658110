import type { Locator, Page } from "@playwright/test";

import {
  businessToday,
  CALENDAR_TEXTS as T,
  createCalendarAgendas,
  daysOf,
  KNOWN_AGENDA,
  monthFrom,
  monthTitle,
} from "../support/e2e-agendas.ts";
import { branchOption, uniquePrefix } from "../support/e2e-catalogues.ts";
import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * /historico-agenda, the agenda calendar (spec 001 §2.4, §2.5), with JS and without: the month in the URL and its
 * previous/next links, the day strip (today and the days with bookings marked), the day's bookings grouped by start
 * hour with their texts, the empty text, and the branch scope. Each test schedules its own agendas next month (a
 * validity cannot start in the past) in environments named with its prefix, and searches for that prefix.
 */

const PATH = "/historico-agenda";

function strip(page: Page) {
  return page.getByRole("navigation", { name: T.strip });
}

function dayLink(page: Page, day: number) {
  return strip(page).getByRole("link", { name: new RegExp(`^[a-zçá-]+, ${day} de `) });
}

/** The group of bookings that start at this hour ('7h'). */
function hourGroup(page: Page, hour: string) {
  return page.getByRole("region", { name: `Agendamentos das ${hour}` });
}

function card(group: Locator, environment: string) {
  return group.getByRole("listitem").filter({ hasText: environment });
}

test("the current month opens first, and the previous and next links move the month in the URL", async ({
  page,
  signInAs,
}) => {
  await signInAs("admin");
  const today = businessToday();
  const mes = today.slice(0, 7);
  await page.goto(PATH);
  await expect(page.getByRole("heading", { level: 1, name: T.title })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: monthTitle(mes) })).toBeVisible();

  // Today is marked (and is the day shown), in its week: seven days, Sunday to Saturday.
  const todayLink = dayLink(page, Number(today.slice(8)));
  await expect(todayLink).toHaveAttribute("aria-label", /, hoje, /);
  await expect(todayLink).toHaveAttribute("aria-current", "date");
  await expect(strip(page).getByRole("link", { name: /^[a-zçá-]+, \d+ de / })).toHaveCount(7);
  await expect(strip(page).getByRole("link", { name: /^domingo, / })).toHaveCount(1);

  await page.getByRole("link", { name: T.next }).click();
  await expect(page).toHaveURL(`${PATH}?mes=${monthFrom(today, 1)}`);
  await expect(page.getByRole("heading", { level: 2, name: monthTitle(monthFrom(today, 1)) })).toBeVisible();
  await expect(strip(page).getByRole("link", { name: /, hoje, / })).toHaveCount(0);

  await page.getByRole("link", { name: T.previous }).click();
  await page.getByRole("link", { name: T.previous }).click();
  await expect(page).toHaveURL(`${PATH}?mes=${monthFrom(today, -1)}`);
  await expect(page.getByRole("heading", { level: 2, name: monthTitle(monthFrom(today, -1)) })).toBeVisible();

  // 'Hoje' comes back to today's month and day.
  await page.getByRole("link", { name: "Hoje", exact: true }).click();
  await expect(page).toHaveURL(`${PATH}?mes=${mes}&dia=${today}`);
  await expect(page.getByRole("heading", { level: 2, name: monthTitle(mes) })).toBeVisible();

  // 'Semana anterior' shows the same weekday a week before, in its own month.
  const weekAgo = new Date(Date.parse(`${today}T12:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
  await page.getByRole("link", { name: T.previousWeek }).click();
  await expect(page).toHaveURL(`${PATH}?mes=${weekAgo.slice(0, 7)}&dia=${weekAgo}`);
  await expect(dayLink(page, Number(weekAgo.slice(8)))).toHaveAttribute("aria-current", "date");
});

test("the day strip marks the days with bookings; a day shows its bookings by start hour", async ({
  page,
  signInAs,
  request,
}, testInfo) => {
  const prefix = uniquePrefix(testInfo);
  const mes = monthFrom(businessToday(), 1);
  const [agenda] = await createCalendarAgendas(request, prefix, mes, ["aldeota"]);
  await signInAs("admin");

  await page.goto(`${PATH}?mes=${mes}`);
  await page.getByLabel("Buscar").fill(prefix);
  await page.getByRole("button", { name: T.filter }).click();
  await expect(page).toHaveURL(new RegExp(`mes=${mes}.*q=`));

  // With no day in the URL, a later month opens on its first day with bookings.
  const firstWeekday = daysOf(mes).find((day) => day.weekday !== 0 && day.weekday !== 6)!;
  await expect(dayLink(page, firstWeekday.day)).toHaveAttribute("aria-current", "date");

  // The strip shows that day's week; 'Próxima semana' moves on a week (the same weekday), keeping the search. The
  // first Monday after that day is in the next week.
  await expect(strip(page).getByRole("link", { name: /^[a-zçá-]+, \d+ de / })).toHaveCount(7);
  await page.getByRole("link", { name: T.nextWeek }).click();
  await expect(page).toHaveURL(new RegExp(`dia=${daysOf(mes)[firstWeekday.day + 6].iso}.*q=`));
  const monday = daysOf(mes).find((day) => day.weekday === 1 && day.iso > firstWeekday.iso)!;
  await dayLink(page, monday.day).click();
  await expect(page).toHaveURL(new RegExp(`dia=${monday.iso}`));
  await expect(dayLink(page, monday.day)).toHaveAttribute("aria-current", "date");
  await expect(page.getByRole("heading", { level: 3, name: /^Segunda-feira, \d+ de [a-zç]+ de \d{4}$/ })).toBeVisible();

  // Monday to Friday of that week have the main cleaning and its revision; its weekend has nothing.
  for (const day of daysOf(mes).filter((other) => other.day >= monday.day - 1 && other.day <= monday.day + 5)) {
    const weekend = day.weekday === 0 || day.weekday === 6;
    await expect(dayLink(page, day.day)).toHaveAttribute(
      "aria-label",
      weekend ? /, sem agendamentos$/ : /, 2 agendamentos$/,
    );
  }

  const seven = hourGroup(page, "7h");
  await expect(seven.getByRole("heading", { level: 4, name: "7h" })).toBeVisible();
  await expect(card(seven, agenda.environment)).toHaveCount(1);
  await expect(card(seven, agenda.environment)).toContainText(agenda.asg);
  await expect(card(seven, agenda.environment)).toContainText(`${KNOWN_AGENDA.main.ini} - ${KNOWN_AGENDA.main.fim}`);
  await expect(card(seven, agenda.environment)).toContainText("Principal");

  const nine = hourGroup(page, "9h");
  await expect(card(nine, agenda.environment)).toHaveCount(1);
  await expect(card(nine, agenda.environment)).toContainText(agenda.asg);
  await expect(card(nine, agenda.environment)).toContainText(
    `${KNOWN_AGENDA.revision.ini} - ${KNOWN_AGENDA.revision.fim}`,
  );
  await expect(card(nine, agenda.environment)).toContainText("Revisão");
  await expect(hourGroup(page, "8h")).toHaveCount(0);

  // The hour groups come in the day's order.
  const hours = await page.locator(".calendar-hour").allTextContents();
  expect(hours).toEqual(["7h", "9h"]);

  // A weekend day of the same search: nothing found, said as the other lists say it.
  const saturday = daysOf(mes)[monday.day + 4]; // the Saturday of Monday's week
  await dayLink(page, saturday.day).click();
  await expect(page).toHaveURL(new RegExp(`dia=${saturday.iso}`));
  await expect(page.getByText(T.noResults)).toBeVisible();
  await expect(page.getByRole("region", { name: /^Agendamentos das / })).toHaveCount(0);

  // At 360 px nothing is wider than the screen: the week's seven days are all in view.
  await page.setViewportSize({ width: 360, height: 780 });
  await dayLink(page, monday.day).click();
  await expect(card(hourGroup(page, "7h"), agenda.environment)).toBeVisible();
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(360);
  for (const link of await strip(page).getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
  }

  // The next month keeps the search and has no booking of this agenda.
  await page.getByRole("link", { name: T.next }).click();
  await expect(page).toHaveURL(new RegExp(`mes=${monthFrom(mes, 1)}.*q=`));
  await expect(page.getByText(T.noResults)).toBeVisible();
  await expect(strip(page).getByRole("link", { name: /, \d+ agendamentos?$/ })).toHaveCount(0);
});

test("a branch-level user sees only their branch; a company user may choose one", async ({
  page,
  signInAs,
  request,
  allowConsoleErrors,
}, testInfo) => {
  const prefix = uniquePrefix(testInfo);
  const mes = monthFrom(businessToday(), 1);
  const [aldeota, messejana] = await createCalendarAgendas(request, prefix, mes, ["aldeota", "messejana"]);
  const monday = daysOf(mes).find((day) => day.weekday === 1)!;
  const url = `${PATH}?mes=${mes}&dia=${monday.iso}&q=${encodeURIComponent(prefix)}`;

  // The coordinator of Filial Aldeota: no branch choice, only Aldeota's booking.
  await signInAs("coordenador");
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1, name: T.title })).toBeVisible();
  await expect(page.getByLabel("Filial")).toHaveCount(0);
  await expect(card(hourGroup(page, "7h"), aldeota.environment)).toHaveCount(1);
  await expect(page.getByText(messejana.environment)).toHaveCount(0);
  // Another branch in the URL is the 404 page, never its bookings nor their own under its name (docs/security.md).
  allowConsoleErrors(/status of 404/);
  const other = await page.goto(`${url}&filial=3`);
  expect(other?.status()).toBe(404);
  await expect(page.getByText("Filial não encontrada")).toBeVisible();
  await expect(page.getByText(messejana.environment)).toHaveCount(0);

  // The administrator sees every branch (each card names its branch), then picks Messejana with 'Filtrar'.
  await signInAs("admin");
  await page.goto(url);
  const seven = hourGroup(page, "7h");
  await expect(card(seven, aldeota.environment)).toContainText("Filial Aldeota");
  await expect(card(seven, messejana.environment)).toContainText(messejana.asg);
  await expect(card(seven, messejana.environment)).toContainText("Filial Messejana");
  await page.getByLabel("Filial").selectOption({ label: branchOption("messejana") });
  await page.getByRole("button", { name: T.filter }).click();
  await expect(page).toHaveURL(new RegExp(`dia=${monday.iso}.*filial=3`));
  await expect(page.getByLabel("Filial")).toHaveValue("3");
  await expect(card(hourGroup(page, "7h"), messejana.environment)).toHaveCount(1);
  await expect(page.getByText(aldeota.environment)).toHaveCount(0);
  // The day links keep the branch.
  await dayLink(page, monday.day + 1).click();
  await expect(page).toHaveURL(new RegExp(`filial=3`));
  await expect(card(hourGroup(page, "7h"), messejana.environment)).toHaveCount(1);
});

test("signed out, the page sends to sign-in keeping the month", async ({ page }) => {
  await page.goto(`${PATH}?mes=2026-11`);
  await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(`${PATH}?mes=2026-11`)}`);
});
