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
