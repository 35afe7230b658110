import path from "node:path";

import type { Locator, Page, TestInfo } from "@playwright/test";

import {
  BRANCHES,
  KINDS,
  bodyRows,
  importItems,
  itemRow,
  listReady,
  search,
  uniquePrefix,
} from "../support/e2e-catalogues.ts";
import { drawer, expect, screenshot, test, toast, toggleDrawer } from "../support/e2e-fixtures.ts";

/**
 * Issue 8: the phone-first shared components at 360 × 740, with and without JS. No page is wider than the viewport,
 * list rows are cards with their actions on screen, the drawer closes after a navigation or on its backdrop, toasts
 * close (after 5 s with JS, by × without) and cover no control, dialogs name their subject and give focus back, the
 * skip link reaches <main>. `SCREENSHOTS=1` also saves every state to tests/.tmp/screens (phone-*, and wide-* at 1366).
 */
test.use({ viewport: { width: 360, height: 740 } });

const spec = KINDS.setores;

/** The viewport only (what the person sees first), and the whole page as <name>-full. */
async function snap(page: Page, testInfo: TestInfo, name: string) {
  if (!process.env.SCREENSHOTS) return;
  await screenshot(page, testInfo.project.name, `${name}-full`);
  const dir = path.join(import.meta.dirname, "..", ".tmp", "screens");
  await page.screenshot({ path: path.join(dir, `${testInfo.project.name}-${name}.png`) });
}

/** The page is no wider than the viewport (nothing scrolls sideways). */
async function expectNoSideScroll(page: Page, what: string) {
  const { scrollWidth, viewport } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(scrollWidth, `${what}: page width`).toBeLessThanOrEqual(viewport);
}

/** The element's box lies inside the viewport's width. */
async function expectInsideViewport(locator: Locator, what: string) {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  const width = locator.page().viewportSize()!.width;
  expect(box!.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right`).toBeLessThanOrEqual(width);
}

/** No visible link, button or field of the page lies under the toast. */
async function expectToastCoversNothing(page: Page, toastBox: Locator) {
  const covered = await toastBox.evaluate((element) => {
    const region = element.closest(".toast-region")!;
    const box = region.getBoundingClientRect();
    const controls = [...document.querySelectorAll<HTMLElement>("a, button, input, select, textarea, summary")].filter(
      (control) => !region.contains(control) && control.getClientRects().length > 0,
    );
    return controls
      .filter((control) => {
        const other = control.getBoundingClientRect();
        if (other.width === 0 || other.height === 0) return false;
        return other.left < box.right && other.right > box.left && other.top < box.bottom && other.bottom > box.top;
      })
      .map((control) => control.outerHTML.slice(0, 80));
  });
  expect(covered, "controls under the toast").toEqual([]);
}

test("signed-out pages fit a phone", async ({ page }, testInfo) => {
  for (const [path, name] of [
    ["/", "sign-in"],
    ["/signup", "sign-up"],
    ["/forgot-password", "forgot-password"],
    ["/reset-password?token=x", "reset-password"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSideScroll(page, path);
    await snap(page, testInfo, `phone-${name}`);
  }
});

test("signed-in pages, list cards, forms, dialogs and help fit a phone", async ({
  page,
  signInAs,
  javaScriptEnabled,
}, testInfo) => {
  test.slow();
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  const long = `${prefix} Centro de material e esterilização do bloco cirúrgico ala norte segundo andar sala 12`;
  const word = `${prefix} Pneumoultramicroscopicossilicovulcanoconiótico-Otorrinolaringológico`;
  await importItems(page, spec, "matriz", [{ name: long }, { name: word }, { name: `${prefix} Copa` }]);

  for (const [path, name] of [
    ["/dashboard", "dashboard"],
    ["/profile", "profile"],
    ["/faq", "faq"],
    ["/ambientes", "list-ambientes"],
    ["/ambientes/cadastrar", "register-ambientes"],
    ["/procedimentos/cadastrar", "register-procedimentos"],
    ["/listagem-usuarios/4/editar?aba=nivel", "edit-level-usuarios"],
    ["/listagem-usuarios/4/nomes", "names-usuarios"],
    ["/listagem-usuarios/4/nomes?aba=cadastrar", "register-names-usuarios"],
    ["/historico-agenda", "historico-agenda"],
    ["/historico-colaboradores", "historico-colaboradores"],
    ["/historico-ambientes", "historico-ambientes"],
    ["/tarefas-incompletas", "tarefas-incompletas"],
    ["/auditoria", "auditoria"],
    ["/auditoria/filtros", "auditoria-filtros"],
    ["/relatorio-cliente?filial=2", "relatorio-cliente"],
    ["/historico-tarefas", "historico-tarefas"],
    ["/imagens-tarefas?atividade=todos", "imagens-tarefas"],
    ["/agendamentos", "agendamentos"],
    ["/agendamentos/cadastrar?empresa=2", "register-agendamentos"],
    // Last: the checks below read the tabs and register modes of the batch page.
    ["/setores/cadastrar", "register"],
    ["/setores/cadastrar?modo=lote", "register-batch"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSideScroll(page, path);
    await snap(page, testInfo, `phone-${name}`);
  }

  // The tabs and 'Cadastro individual / em lote' sit on one line each.
  const tabs = page.getByRole("navigation", { name: "Abas" }).getByRole("link");
  const tabTops = await tabs.evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
  expect(new Set(tabTops).size, "tabs on one line").toBe(1);
  const modes = page.getByRole("navigation", { name: "Tipo de cadastro" }).getByRole("link");
  const modeTops = await modes.evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
  expect(new Set(modeTops).size, "register modes on one line").toBe(1);

  // The help popover opens inside the viewport.
  await page.goto(`/${spec.kind}`);
  await page.getByText("?", { exact: true }).click();
  const help = page.locator(".help p");
  await expect(help).toBeVisible();
  await expectInsideViewport(help, "help text");
  await expectNoSideScroll(page, "help open");
  await snap(page, testInfo, "phone-help-open");

  // The list: cards with the name first, every action on screen; long names wrap.
  await search(page, spec, prefix);
  await listReady(page, javaScriptEnabled);
  await expect(bodyRows(page)).toHaveCount(3);
  await expectNoSideScroll(page, "list");
  for (const row of await bodyRows(page).all()) {
    await expectInsideViewport(row, "card");
    for (const action of await row.getByRole("link", { name: /^(Editar|Remover) / }).all()) {
      await expect(action).toBeVisible();
      await expectInsideViewport(action, "row action");
    }
    await expectInsideViewport(row.getByRole("checkbox"), "tick box");
  }
  const longRow = itemRow(page, long);
  const [nameBox, tickBox, branchBox] = await Promise.all([
    longRow.locator(".col-primary").boundingBox(),
    longRow.getByRole("checkbox").boundingBox(),
    longRow.getByRole("cell", { name: BRANCHES.matriz.nome, exact: true }).boundingBox(),
  ]);
  expect(nameBox!.y, "the name comes before the other columns").toBeLessThan(branchBox!.y);
  expect(Math.abs(tickBox!.y - nameBox!.y), "the tick box is beside the name").toBeLessThan(12);
  expect(nameBox!.height, "a long name wraps").toBeGreaterThan(40);
  await snap(page, testInfo, "phone-list");

  // Edit, remove and duplicate pages (the no-JS forms of the dialogs) fit too.
  const id = await longRow.getByRole("checkbox").getAttribute("value");
  for (const [path, name] of [
    [`/${spec.kind}/${id}/editar`, "edit"],
    [`/${spec.kind}/${id}/remover`, "remove-page"],
    [`/${spec.kind}/duplicar?ids=${id}`, "duplicate-page"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 2 })).toBeVisible();
    await expectNoSideScroll(page, path);
    await snap(page, testInfo, `phone-${name}`);
  }

  if (javaScriptEnabled) {
    await page.goto(`/${spec.kind}?q=${encodeURIComponent(prefix)}`);
    await listReady(page, true);
    await itemRow(page, long)
      .getByRole("link", { name: `Remover ${long}` })
      .click();
    await expect(page.getByRole("dialog", { name: `Remover ${long}` })).toBeVisible();
    await expectNoSideScroll(page, "remove dialog");
    await snap(page, testInfo, "phone-remove-dialog");
    await page.getByRole("button", { name: "Não" }).click();
    await itemRow(page, long).getByRole("checkbox").check();
    await page.getByRole("button", { name: spec.duplicateButton }).click();
    await expect(page.getByLabel("Filial de destino")).toBeVisible();
    await expectNoSideScroll(page, "duplicate dialog");
    await snap(page, testInfo, "phone-duplicate-dialog");
  }
});

test("the drawer closes after a navigation and on its backdrop", async ({
  page,
  signInAs,
  javaScriptEnabled,
}, testInfo) => {
  await signInAs("coordenador");
  await page.goto("/dashboard");
  const nav = drawer(page);
  await expect(nav).toBeHidden();

  await toggleDrawer(page, "Abrir menu");
  await expect(nav).toBeVisible();
  await expect(page.getByRole("button", { name: "Fechar menu" })).toBeVisible();
  // The keyboard focus stays on the toggle (with JS) or moves into the drawer (without: it is the page's #menu).
  if (javaScriptEnabled) await expect(page.getByRole("button", { name: "Fechar menu" })).toBeFocused();
  else await expect(nav).toBeFocused();
  await expectNoSideScroll(page, "drawer open");
  await snap(page, testInfo, "phone-drawer-open");
  await nav.getByRole("link", { name: "FAQ" }).click();
  await expect(page).toHaveURL("/faq");
  await expect(page.getByRole("heading", { level: 1, name: "Perguntas frequentes" })).toBeVisible();
  await expect(nav).toBeHidden();
  await expect(page.getByRole("button", { name: "Abrir menu" })).toBeVisible();

  // The backdrop (the page beside the drawer) closes it.
  await toggleDrawer(page, "Abrir menu");
  await expect(nav).toBeVisible();
  await page.mouse.click(330, 500);
  await expect(nav).toBeHidden();
  await expect(page.getByRole("button", { name: "Abrir menu" })).toBeVisible();

  // 'Fechar menu' still closes it, and a reload keeps it closed.
  await toggleDrawer(page, "Abrir menu");
  await toggleDrawer(page, "Fechar menu");
  await expect(nav).toBeHidden();
  await page.goto("/faq");
  await expect(nav).toBeHidden();
});

test("the skip link moves the focus to the main content; the focus ring contrasts with white", async ({
  page,
  signInAs,
}) => {
  await signInAs("admin");
  await page.goto(`/${spec.kind}`);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Pular para o conteúdo" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  // The next Tab goes into the page (the help '?'), not back to the top bar.
  await page.keyboard.press("Tab");
  await expect(page.getByText("?", { exact: true })).toBeFocused();

  await page.getByLabel(spec.searchLabel).focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  const outline = await page
    .getByLabel(spec.searchLabel)
    .evaluate((element) => getComputedStyle(element).outlineColor.match(/\d+/g)!.map(Number));
  const luminance = (rgb: number[]) => {
    const [r, g, b] = rgb.map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  expect((1 + 0.05) / (luminance(outline) + 0.05), "focus ring on white").toBeGreaterThanOrEqual(3);
});

test("toasts cover no control and close: after 5 s with JS, by × without", async ({
  page,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  allowConsoleErrors(/status of 400/);
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  await importItems(page, spec, "matriz", [{ name: `${prefix} Um` }, { name: `${prefix} Dois` }]);

  // The import's flash toast says how many went in.
  await page.goto(`/${spec.kind}`);
  const imported = toast(page, spec.batchCreated, "status");
  await expect(imported).toContainText("2 setores cadastrados");
  await expectNoSideScroll(page, "toast showing");
  await expectToastCoversNothing(page, imported);
  await snap(page, testInfo, "phone-toast");
  await page.getByLabel("Fechar aviso").click();
  await expect(imported).toHaveCount(0);

  // A validation (error) toast: 'Campos em branco'.
  await page.goto(`/${spec.kind}/cadastrar`);
  if (javaScriptEnabled) await expect(page.getByRole("button", { name: "Cadastrar" })).toBeEnabled();
  await page.getByRole("button", { name: "Cadastrar" }).click();
  const blank = toast(page, "Campos em branco");
  await expect(blank).toBeVisible();
  await expectToastCoversNothing(page, blank);
  await expectNoSideScroll(page, "form toast");
  if (javaScriptEnabled) {
    await expect(blank).toBeHidden({ timeout: 6_500 });
    // A second failed submit shows it again.
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(blank).toBeVisible();
  }
  await page.getByLabel("Fechar aviso").click();
  await expect(blank).toBeHidden();
});

test("dialogs name their subject, open on a useful branch and give focus back", async ({
  page,
  signInAs,
  javaScriptEnabled,
}, testInfo) => {
  test.skip(!javaScriptEnabled, "without JS the dialogs are pages (checked in the test above)");
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  const name = `${prefix} Expurgo`;
  await importItems(page, spec, "aldeota", [{ name }]);
  await page.goto(`/${spec.kind}?q=${encodeURIComponent(prefix)}`);
  await listReady(page, true);

  const remove = itemRow(page, name, "aldeota").getByRole("link", { name: `Remover ${name}` });
  await remove.click();
  const dialog = page.getByRole("dialog", { name: `Remover ${name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(BRANCHES.aldeota.nome);
  await dialog.getByRole("button", { name: "Não" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await remove.click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(remove).toBeFocused();

  // Ticked items of Aldeota: the dialog opens on the first other branch (the list's first is Aldeota itself).
  await itemRow(page, name, "aldeota").getByRole("checkbox").check();
  const opener = page.getByRole("button", { name: spec.duplicateButton });
  await opener.click();
  const duplicate = page.getByRole("dialog", { name: spec.duplicateDialog });
  await expect(duplicate.getByLabel("Filial de destino")).toHaveValue(String(BRANCHES.messejana.id));
  await expect(duplicate.getByRole("listitem")).toHaveText([name]);
  await expect(duplicate.getByRole("button", { name: "Duplicar", exact: true })).toBeEnabled();
  await duplicate.getByRole("button", { name: "Cancelar" }).click();
  await expect(duplicate).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test("forms start on the main company's first branch; the list options fold on a phone and apply", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  await signInAs("admin");
  await page.goto(`/${spec.kind}/cadastrar`);
  await expect(page.getByLabel("Empresa / filial")).toHaveValue(String(BRANCHES.matriz.id));
  await page.getByRole("link", { name: "Cadastro em lote" }).click();
  await expect(page.getByLabel("Empresa / filial")).toHaveValue(String(BRANCHES.matriz.id));

  // Issue 27 §8: the search and the first record on the first screen (also on /ambientes, the widest list); the
  // sort, the page size and 'Filtrar por' folded in 'Opções da lista', the header sort links hidden.
  for (const list of ["/ambientes", `/${spec.kind}`]) {
    await page.goto(list);
    await expect(page.getByRole("searchbox")).toBeInViewport();
    const first = await bodyRows(page).first().boundingBox();
    expect(first!.y + 150, `${list}: the first record's top part on the first screen`).toBeLessThanOrEqual(740);
    await expect(page.getByLabel("Itens por página")).toBeHidden();
    await expect(page.getByLabel("Ordenar por")).toBeHidden();
    await expect(page.getByRole("link", { name: /^Empresa/ })).toBeHidden();
  }
  await page.getByText("Opções da lista").click();
  const apply = page.getByRole("search").getByRole("button", { name: /^Buscar/ });
  if (javaScriptEnabled) {
    // Each choice applies at once.
    await expect(apply).toHaveText("Buscar");
    await page.getByLabel("Ordenar por").selectOption({ label: "Empresa" });
    await expect(page).toHaveURL(/ordem=empresa/);
    await page.getByLabel("Ordem", { exact: true }).selectOption({ label: "Decrescente" });
    await expect(page).toHaveURL(/dir=desc/);
    await page.getByLabel("Itens por página").selectOption("40");
    await expect(page).toHaveURL(/tamanho=40/);
  } else {
    // The choices apply with the button, which now sits under them.
    await expect(apply).toHaveText("Buscar e aplicar");
    await page.getByLabel("Ordenar por").selectOption({ label: "Empresa" });
    await page.getByLabel("Ordem", { exact: true }).selectOption({ label: "Decrescente" });
    await page.getByLabel("Itens por página").selectOption("40");
    const options = await page.getByLabel("Itens por página").boundingBox();
    expect((await apply.boundingBox())!.y).toBeGreaterThan(options!.y);
    await apply.click();
    await expect(page).toHaveURL(/ordem=empresa/);
    await expect(page).toHaveURL(/dir=desc/);
    await expect(page).toHaveURL(/tamanho=40/);
  }
  await expect(page.locator('th[aria-sort="descending"]')).toHaveText(/^Empresa/);
});

test("wide screenshots (1366 × 768)", async ({ page, signInAs, javaScriptEnabled, allowConsoleErrors }, testInfo) => {
  test.skip(!process.env.SCREENSHOTS, "screenshots only on demand: set SCREENSHOTS=1");
  allowConsoleErrors(/status of 400/);
  test.slow();
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto("/");
  await snap(page, testInfo, "wide-sign-in");
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  await importItems(page, spec, "matriz", [
    { name: `${prefix} Centro de material e esterilização` },
    { name: `${prefix} Copa` },
  ]);
  await page.goto(`/${spec.kind}`);
  await snap(page, testInfo, "wide-list-toast");
  await search(page, spec, prefix);
  await listReady(page, javaScriptEnabled);
  await page.getByText("?", { exact: true }).click();
  await snap(page, testInfo, "wide-list-help");
  if (javaScriptEnabled) {
    await bodyRows(page)
      .first()
      .getByRole("link", { name: /^Remover / })
      .click();
    await snap(page, testInfo, "wide-remove-dialog");
    await page.keyboard.press("Escape");
  }
  for (const [path, name] of [
    ["/setores/cadastrar", "register"],
    ["/setores/cadastrar?modo=lote", "register-batch"],
    ["/profile", "profile"],
    ["/faq", "faq"],
  ]) {
    await page.goto(path);
    await snap(page, testInfo, `wide-${name}`);
  }
  await page.goto("/setores/cadastrar");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await snap(page, testInfo, "wide-register-toast");
});

test("branches and main companies at 360 px: lists as cards, forms and the boards table fit", async ({
  page,
  signInAs,
  allowConsoleErrors,
}, testInfo) => {
  allowConsoleErrors(/status of 400/); // the empty forms' answer without JS
  await signInAs("principal");
  for (const [path, name] of [
    ["/filiais", "list-filiais"],
    ["/filiais/cadastrar", "register-filiais"],
    ["/empresa-principal", "list-empresas"],
    ["/empresa-principal/cadastrar", "register-empresas"],
    ["/listagem-usuarios", "list-usuarios"],
    ["/listagem-usuarios/cadastrar", "register-usuarios"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSideScroll(page, path);
    if (path.endsWith("/cadastrar")) {
      await page.getByRole("button", { name: "Cadastrar" }).click();
      await expect(page.locator(".field-errors").first()).toBeVisible();
      await expectNoSideScroll(page, `${path} with its messages`);
      await snap(page, testInfo, `phone-${name}`);
      continue;
    }
    for (const row of await bodyRows(page).all()) {
      await expectInsideViewport(row, `${path} card`);
      await expectInsideViewport(row.getByRole("link", { name: /^Editar / }), `${path} edit action`);
    }
    await snap(page, testInfo, `phone-${name}`);
    await bodyRows(page)
      .first()
      .getByRole("link", { name: /^Editar / })
      .click();
    await expect(page.getByRole("heading", { level: 2, name: /^Editar / })).toBeVisible();
    await expectNoSideScroll(page, `${path} edit`);
    await snap(page, testInfo, `phone-edit-${name}`);
  }
});
