import AxeBuilder from "@axe-core/playwright";

import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * DESIGN.md 'Accessibility': axe finds no serious or critical violation on the main screens. axe runs inside the
 * page, so only the JS project runs it; the markup is the server's either way.
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe runs inside the page: it needs JavaScript");
const PUBLIC_PAGES = ["/", "/signup", "/forgot-password", "/reset-password?token=x", "/info/ambiente/1"];
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
  "/ocorrencias?tipo=2&atrasadas=1",
  "/ocorrencias/tipos",
  "/inspecoes?agrupar=filial",
  "/inspecoes/nova/3",
  "/inspecoes/checklists/cadastrar?filial=2",
  "/historico-colaboradores",
  "/historico-ambientes",
  "/tarefas-incompletas/procedimento?tarefa=Limpar%20piso",
  "/auditoria",
  "/auditoria/filtros",
  "/relatorio-cliente?filial=2",
  "/historico-tarefas",
  "/imagens-tarefas?atividade=todos",
  "/agendamentos",
  "/agendamentos/cadastrar?empresa=2",
];

async function seriousViolations(page: import("@playwright/test").Page) {
  // The WCAG 2.x A/AA rules: what 'no serious violation' is about (axe's best-practice rules take as long again).
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
}

/** Opens each page in turn and checks it; a page's violations fail the test with the page named, the others go on. */
async function checkPages(page: import("@playwright/test").Page, paths: string[]) {
  for (const path of paths) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect.soft(await seriousViolations(page), path).toEqual([]);
    });
  }
}

/** Pages in groups of `size`: one test per group (a sign-in and a browser context each), two workers share them. */
function groups(paths: string[], size = 6) {
  return Array.from({ length: Math.ceil(paths.length / size) }, (_, index) =>
    paths.slice(index * size, (index + 1) * size),
  );
}

for (const paths of groups(PUBLIC_PAGES)) {
  test(`no serious accessibility violation on ${paths.join(", ")}`, async ({ page }) => {
    test.setTimeout(15_000 * paths.length);
    await checkPages(page, paths);
  });
}

for (const paths of groups(SIGNED_IN_PAGES)) {
  test(`no serious accessibility violation on ${paths.join(", ")} (signed in)`, async ({ page, signInAs }) => {
    test.setTimeout(15_000 * paths.length);
    await signInAs("admin");
    await checkPages(page, paths);
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
test("no serious accessibility violation on the principal's pages, their messages and edit pages (signed in as roleId 1)", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(20_000 * PRINCIPAL_PAGES.length);
  await signInAs("principal");
  for (const path of PRINCIPAL_PAGES) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect.soft(await seriousViolations(page), path).toEqual([]);
      if (path.endsWith("/cadastrar")) {
        await page.getByRole("button", { name: "Cadastrar" }).click();
        await expect(page.locator(".field-errors").first()).toBeVisible();
        expect.soft(await seriousViolations(page), `${path} with its messages`).toEqual([]);
      } else {
        await page
          .locator("table.data-table tbody tr")
          .first()
          .getByRole("link", { name: /^Editar / })
          .click();
        await expect(page.getByRole("heading", { level: 2, name: /^Editar / })).toBeVisible();
        expect.soft(await seriousViolations(page), `the first row's edit page of ${path}`).toEqual([]);
      }
    });
  }
});
