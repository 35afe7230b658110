import AxeBuilder from "@axe-core/playwright";

import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * DESIGN.md 'Accessibility': axe finds no serious or critical violation on the main screens. axe runs inside the
 * page, so only the JS project runs it; the markup is the server's either way.
 */
test.beforeEach(({ javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe runs inside the page: it needs JavaScript");
});
const PUBLIC_PAGES = ["/", "/signup", "/forgot-password", "/reset-password?token=x"];
const SIGNED_IN_PAGES = [
  "/dashboard",
  "/profile",
  "/faq",
  "/setores",
  "/riscos/cadastrar",
  "/categorias/cadastrar?modo=lote",
  "/procedimentos?q=limpar&ordem=empresa&dir=desc",
  "/ambientes",
  "/ambientes?q=banheiro&campos=ambiente&campos=setor&ordem=riscos&dir=desc",
  "/ambientes/cadastrar",
  // The users' dialogs as pages (user 4 is the demo auditor, editable by the administrator).
  "/listagem-usuarios/4/editar",
  "/listagem-usuarios/4/editar?aba=nivel",
  "/listagem-usuarios/4/nomes",
  "/listagem-usuarios/4/nomes?aba=cadastrar",
  "/historico-agenda",
  "/agendamentos",
  "/agendamentos/cadastrar?empresa=2",
];

async function seriousViolations(page: import("@playwright/test").Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
}

for (const path of PUBLIC_PAGES) {
  test(`no serious accessibility violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

for (const path of SIGNED_IN_PAGES) {
  test(`no serious accessibility violation on ${path} (signed in)`, async ({ page, signInAs }) => {
    await signInAs("admin");
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

// Branches and main companies: opened by the demo principal (roleId 1, owner of the company's master CPF); the edit
// pages are reached from their lists, and the forms are checked once more with their messages showing.
const PRINCIPAL_PAGES = [
  "/filiais",
  "/filiais/cadastrar",
  "/empresa-principal",
  "/empresa-principal/cadastrar",
  "/listagem-usuarios",
  "/listagem-usuarios/cadastrar",
];
for (const path of PRINCIPAL_PAGES) {
  test(`no serious accessibility violation on ${path} (signed in as roleId 1)`, async ({ page, signInAs }) => {
    await signInAs("principal");
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    if (path.endsWith("/cadastrar")) {
      await page.getByRole("button", { name: "Cadastrar" }).click();
      await expect(page.locator(".field-errors").first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    } else {
      await page
        .locator("table.data-table tbody tr")
        .first()
        .getByRole("link", { name: /^Editar / })
        .click();
      await expect(page.getByRole("heading", { level: 2, name: /^Editar / })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    }
  });
}
