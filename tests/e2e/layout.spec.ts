import type { Page } from "@playwright/test";

import { createTodayWithExecutions } from "../support/e2e-board.ts";
import { uniquePrefix } from "../support/e2e-catalogues.ts";
import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * Issue 27: every built page at a phone, a small desk and a common laptop width, with JS and without: no page wider
 * than the viewport, and no link, button or field outside it or inside a box scrolled sideways. One test walks all
 * pages, each loaded once and measured at the three widths (a page load is the cost; a test per page would pay the
 * sign-in and the fixtures each time).
 */
const WIDTHS = [360, 1024, 1366] as const;

/** What is off on the page now: the page's width, then each control off-screen or in a sideways-scrolled box. */
function offendersOnPage() {
  const viewport = window.innerWidth;
  const found: string[] = [];
  const pageWidth = document.scrollingElement!.scrollWidth;
  if (pageWidth > viewport) found.push(`page is ${pageWidth} px wide`);
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()} '${(element.getAttribute("aria-label") ?? element.textContent ?? element.getAttribute("name") ?? "").trim().slice(0, 40)}'`;
  const controls = document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]",
  );
  for (const control of controls) {
    const box = control.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue; // not rendered, or visually hidden (the skip link)
    if (control.closest("details:not([open]) > :not(summary)")) continue; // folded away
    if (getComputedStyle(control).visibility === "hidden") continue;
    if (box.left < -0.5 || box.right > viewport + 0.5) {
      found.push(`${describe(control)} at x ${Math.round(box.left)}–${Math.round(box.right)}`);
      continue;
    }
    for (let parent = control.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowX;
      if ((overflow === "auto" || overflow === "scroll") && parent.scrollWidth > parent.clientWidth + 1) {
        found.push(`${describe(control)} in a box scrolled sideways (${parent.className || parent.tagName})`);
        break;
      }
    }
  }
  return found;
}

const viewportOf = (width: number) => ({ width, height: width === 360 ? 740 : 768 });

/**
 * The page as it opens, then with every disclosure (filters, 'Ver dados') open, at each width: one load per page,
 * the window resized under it (the layout is CSS; a resize lays it out again as a load at that width would).
 */
async function audit(page: Page, url: string, problems: string[]) {
  await page.setViewportSize(viewportOf(WIDTHS[0]));
  const response = await page.goto(url);
  expect(response?.status(), url).toBeLessThan(400);
  const check = async (state: string) => {
    for (const width of WIDTHS) {
      await page.setViewportSize(viewportOf(width));
      for (const problem of await page.evaluate(offendersOnPage))
        problems.push(`${url} at ${width} px${state}: ${problem}`);
    }
  };
  await check("");
  const opened = await page.evaluate(() => {
    const closed = [...document.querySelectorAll("details:not([open])")];
    for (const details of closed) details.setAttribute("open", "");
    return closed.length;
  });
  if (opened) await check(" (open)");
}

/** The first link on `listUrl` whose href matches `pattern` (an id the demo data chose). */
async function firstHref(page: Page, listUrl: string, pattern: RegExp) {
  await page.goto(listUrl);
  const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
  const href = hrefs.find((candidate) => pattern.test(candidate));
  expect(href, `a link like ${pattern} on ${listUrl}`).toBeTruthy();
  return href!;
}

test(`every page fits ${WIDTHS.join(", ")} px`, async ({ page, signInAs, request }, testInfo) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  for (const url of ["/", "/signup", "/forgot-password", "/reset-password?token=x"]) await audit(page, url, problems);

  await signInAs("principal");
  const environment = await firstHref(page, "/ambientes", /^\/ambientes\/\d+\/editar/);
  const today = await createTodayWithExecutions(request, uniquePrefix(testInfo));
  const agenda = `/agendamentos/${today.agendaId}/editar`;
  const board = `/dashboard/agenda/${today.agendaId}`;
  const urls = [
    "/dashboard",
    "/dashboard?vista=tabela",
    board,
    "/setores",
    "/setores/cadastrar",
    "/setores/duplicar",
    "/riscos",
    "/procedimentos",
    "/categorias",
    "/ambientes",
    "/ambientes/cadastrar",
    environment,
    environment.replace("editar", "qrcode"),
    environment.replace("editar", "remover"),
    "/ambientes/importar",
    "/empresa-principal",
    "/empresa-principal/cadastrar",
    "/filiais",
    "/filiais/cadastrar",
    "/listagem-usuarios",
    "/listagem-usuarios/cadastrar",
    "/listagem-usuarios/4/editar",
    "/listagem-usuarios/4/editar?aba=nivel",
    "/listagem-usuarios/5/nomes",
    "/pre-cadastro-usuarios",
    "/pre-cadastro-usuarios/cadastrar",
    "/agendamentos",
    "/agendamentos/cadastrar",
    agenda,
    await firstHref(page, `/agendamentos?mes=${today.today.slice(0, 7)}&dia=${today.today}`, /\/remover\?/),
    "/historico-agenda",
    "/historico-ambientes",
    "/historico-colaboradores",
    "/historico-tarefas",
    "/imagens-tarefas",
    "/tarefas-incompletas",
    "/auditoria",
    "/relatorio-cliente",
    "/ocorrencias",
    await firstHref(page, "/ocorrencias", /^\/ocorrencias\/\d+$/),
    "/ocorrencias/tipos",
    "/inspecoes",
    "/inspecoes/nova",
    await firstHref(page, "/inspecoes/nova", /^\/inspecoes\/nova\/\d+$/),
    await firstHref(page, "/inspecoes", /^\/inspecoes\/\d+$/),
    "/inspecoes/checklists",
    "/inspecoes/checklists/cadastrar?filial=2",
    await firstHref(page, "/inspecoes/checklists", /^\/inspecoes\/checklists\/\d+\/editar$/),
    "/profile",
    "/faq",
    `/info/ambiente/${today.environmentId}`,
  ];
  for (const url of urls) await audit(page, url, problems);
  expect(problems).toEqual([]);
});
