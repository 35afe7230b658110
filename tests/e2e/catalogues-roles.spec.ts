import { BRANCHES, KINDS, bodyRows, importItems, itemRow, search, uniquePrefix } from "../support/e2e-catalogues.ts";
import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * Spec 000 §6: a branch-level user (Coordenador, roleId 3) sees its own branch's list only, with no tick boxes,
 * no duplicate button, no edit or remove columns and no register tab (decision 004: the API refuses their writes).
 * coordenador@demo.com.br belongs to Filial Aldeota.
 */

const spec = KINDS.setores;

test("coordenador sees the sectors of its branch only, read only", async ({
  page,
  context,
  signInAs,
  allowConsoleErrors,
}, testInfo) => {
  allowConsoleErrors(/status of 403/);
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  await importItems(page, spec, "aldeota", [{ name: `${prefix} da Aldeota` }]);
  await importItems(page, spec, "matriz", [{ name: `${prefix} da Matriz` }]);
  await context.clearCookies();
  await signInAs("coordenador");

  await page.goto(`/${spec.kind}?tamanho=todos`);
  await expect(page.getByRole("heading", { level: 1, name: spec.titlePlural })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Abas" });
  await expect(tabs.getByRole("link", { name: spec.listTab, exact: true })).toBeVisible();
  await expect(tabs.getByRole("link", { name: spec.registerTab })).toHaveCount(0);
  await expect(page.getByText(spec.registerTab)).toHaveCount(0);

  // Only data columns: Empresa and Setor.
  await expect(page.getByRole("columnheader")).toHaveCount(2);
  await expect(page.getByRole("columnheader", { name: "Empresa" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: spec.column, exact: true })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Editar" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Remover" })).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByText("Marcar Todos")).toHaveCount(0);
  await expect(page.getByRole("button", { name: spec.duplicateButton })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^(Editar|Remover) / })).toHaveCount(0);
  // Read-only screens keep the export.
  await expect(page.getByRole("link", { name: "Exportar Excel" })).toBeVisible();

  // Every row is of Filial Aldeota.
  const branches = await bodyRows(page).locator("td:first-child").allTextContents();
  expect(branches.length).toBeGreaterThan(0);
  expect(new Set(branches)).toEqual(new Set([BRANCHES.aldeota.nome]));

  await search(page, spec, prefix);
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(itemRow(page, `${prefix} da Aldeota`, "aldeota")).toBeVisible();

  // The register tab's URL goes back to the list; edit and remove pages refuse.
  await page.goto(`/${spec.kind}/cadastrar`);
  await expect(page).toHaveURL(`/${spec.kind}`);
  const edit = await page.goto(`/${spec.kind}/1/editar`);
  expect(edit?.status()).toBe(403);
  const remove = await page.goto(`/${spec.kind}/1/remover`);
  expect(remove?.status()).toBe(403);
});
