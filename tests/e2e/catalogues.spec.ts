import {
  BRANCHES,
  KINDS,
  NO_RESULTS,
  REMOVE_QUESTION,
  bodyRows,
  branchOption,
  importItems,
  itemRow,
  listReady,
  rgb,
  search,
  uniquePrefix,
} from "../support/e2e-catalogues.ts";
import { expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Spec 000 §2 'Catalogue screens', §5 'Catalogues', §8 'Catalogues and environments'; decision 004. Create, the
 * blank-name and duplicate-name refusals, edit and remove, with and without JavaScript. The same route modules
 * serve the four catalogues, so the flow runs for sectors; a shorter one drives the risks' colour (form, list, sort,
 * edit, duplicate dialog). The other kinds' texts, their gender and the delete rule are checked for all four in
 * tests/unit/catalogue-kinds.test.ts and tests/api/catalogue-kinds.test.ts.
 */

{
  const spec = KINDS.setores;
  test(`${spec.kind}: create, refuse blank and duplicate names, edit, remove`, async ({
    page,
    signInAs,
    javaScriptEnabled,
    allowConsoleErrors,
  }, testInfo) => {
    test.slow(); // a long flow on a shared, busy machine
    allowConsoleErrors(/status of 4(00|09)/);
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const first = `${prefix} Área`;
    const other = `${prefix} Bloco`;
    const renamed = `${prefix} Área editada`;
    await importItems(page, spec, "matriz", [{ name: other }]);

    await page.goto(`/${spec.kind}`);
    await expect(page.getByRole("heading", { level: 1, name: spec.titlePlural })).toBeVisible();
    const tabs = page.getByRole("navigation", { name: "Abas" });
    await expect(tabs.getByRole("link", { name: spec.listTab, exact: true })).toHaveAttribute("aria-current", "page");
    await tabs.getByRole("link", { name: spec.registerTab, exact: true }).click();
    await expect(page).toHaveURL(`/${spec.kind}/cadastrar`);
    const mode = page.getByRole("navigation", { name: "Tipo de cadastro" });
    await expect(mode.getByRole("link", { name: "Cadastro individual" })).toHaveAttribute("aria-current", "page");
    await expect(mode.getByRole("link", { name: "Cadastro em lote" })).not.toHaveAttribute("aria-current", "page");

    // A blank name: 'Campos em branco' and the field's own message.
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, "Campos em branco")).toContainText("Existem campos obrigatórios não preenchidos.");
    await expect(page.getByLabel(spec.nameLabel)).toHaveAccessibleDescription(spec.nameRequired);

    // Create.
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("matriz") });
    await page.getByLabel(spec.nameLabel).fill(first);
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.created, "status")).toBeVisible();
    await expect(page).toHaveURL(`/${spec.kind}`);

    // The same name again in the same branch, in other letter case: refused with an info toast.
    await page.goto(`/${spec.kind}/cadastrar`);
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("matriz") });
    await page.getByLabel(spec.nameLabel).fill(first.toUpperCase());
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.duplicateTitle, "status")).toContainText(spec.duplicateDescription);
    await expect(page).toHaveURL(`/${spec.kind}/cadastrar`);
    // ... but another branch may have it (names are unique per branch).
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("aldeota") });
    await page.getByLabel(spec.nameLabel).fill(first);
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.created, "status")).toBeVisible();

    // The list, searched by this test's prefix.
    await search(page, spec, prefix);
    await listReady(page, javaScriptEnabled);
    await expect(bodyRows(page)).toHaveCount(3);
    await expect(itemRow(page, first, "matriz")).toBeVisible();
    await expect(itemRow(page, first, "aldeota")).toBeVisible();
    const listUrl = page.url();

    // Edit: Cancelar goes back to the same list.
    await itemRow(page, first, "matriz")
      .getByRole("link", { name: `Editar ${first}` })
      .click();
    await expect(page.getByRole("heading", { name: `${spec.editHeading} (${BRANCHES.matriz.nome})` })).toBeVisible();
    await expect(page.getByLabel(spec.nameLabel)).toHaveValue(first);
    await page.getByRole("link", { name: "Cancelar" }).click();
    await expect(page).toHaveURL(listUrl);

    await itemRow(page, first, "matriz")
      .getByRole("link", { name: `Editar ${first}` })
      .click();
    await expect(page.getByLabel(spec.nameLabel)).toHaveValue(first);
    await page.getByLabel(spec.nameLabel).fill("");
    await page.getByRole("button", { name: "Salvar" }).click();
    await expect(toast(page, "Campos em branco")).toBeVisible();
    await expect(page.getByLabel(spec.nameLabel)).toHaveAccessibleDescription(spec.nameRequired);

    // Another item's name in the same branch (any case): refused with an error toast (sectors only: the other
    // kinds answer an info toast, see the risks' flow below).
    await page.getByLabel(spec.nameLabel).fill(other.toLowerCase());
    await page.getByRole("button", { name: "Salvar" }).click();
    await expect(toast(page, spec.duplicateTitle, "alert")).toContainText(spec.duplicateDescription);

    await page.getByLabel(spec.nameLabel).fill(renamed);
    await page.getByRole("button", { name: "Salvar" }).click();
    await expect(toast(page, spec.edited, "status")).toBeVisible();
    await expect(page).toHaveURL(listUrl);
    await expect(itemRow(page, renamed, "matriz")).toBeVisible();
    await expect(itemRow(page, first, "matriz")).toHaveCount(0);
    await expect(itemRow(page, first, "aldeota")).toBeVisible();

    // Remove: 'Não' keeps the item, 'Sim' removes it.
    await listReady(page, javaScriptEnabled);
    const removeLink = () => itemRow(page, renamed, "matriz").getByRole("link", { name: `Remover ${renamed}` });
    await removeLink().click();
    const confirm = javaScriptEnabled ? page.getByRole("dialog", { name: "Remover" }) : page.locator("body");
    if (!javaScriptEnabled) await expect(page.getByRole("heading", { name: `Remover ${renamed}` })).toBeVisible();
    await expect(confirm.getByText(REMOVE_QUESTION)).toBeVisible();
    await confirm.getByRole(javaScriptEnabled ? "button" : "link", { name: "Não" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(listUrl);
    await expect(itemRow(page, renamed, "matriz")).toBeVisible();

    await removeLink().click();
    await expect(confirm.getByText(REMOVE_QUESTION)).toBeVisible();
    await confirm.getByRole("button", { name: "Sim" }).click();
    await expect(toast(page, spec.deleted, "status")).toBeVisible();
    await expect(page).toHaveURL(listUrl);
    await expect(itemRow(page, renamed, "matriz")).toHaveCount(0);
    await expect(bodyRows(page)).toHaveCount(2);

    // A removed name can be used again (soft delete keeps no unique claim).
    await page.goto(`/${spec.kind}/cadastrar`);
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("matriz") });
    await page.getByLabel(spec.nameLabel).fill(renamed);
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.created, "status")).toBeVisible();

    // A search that matches nothing says so (the 'Não existem ... ainda.' text is for an empty catalogue).
    await search(page, spec, `${prefix} nada-disso`);
    await expect(page.getByText(NO_RESULTS)).toBeVisible();
    await expect(page.getByText(spec.empty)).toHaveCount(0);
    await expect(page.locator("table.data-table")).toHaveCount(0);
  });
}

{
  const spec = KINDS.riscos;
  test(`${spec.kind}: the colour in the form, the list (shown, sorted), on edit and in the duplicate dialog`, async ({
    page,
    signInAs,
    javaScriptEnabled,
    allowConsoleErrors,
  }, testInfo) => {
    test.slow(); // a long flow on a shared, busy machine
    allowConsoleErrors(/status of 409/);
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const first = `${prefix} Área`;
    const other = `${prefix} Bloco`;
    const renamed = `${prefix} Área editada`;
    // Bloco's colour sorts before Área's: sorting by 'Cor' is not the order by name.
    await importItems(page, spec, "matriz", [{ name: other, color: "#0d47a1" }]);

    // Create with a colour: shown as text and as the chip's background.
    await page.goto(`/${spec.kind}/cadastrar`);
    await expect(page.getByRole("heading", { level: 1, name: spec.titlePlural })).toBeVisible();
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("matriz") });
    await page.getByLabel(spec.nameLabel).fill(first);
    await page.getByLabel("Cor", { exact: true }).fill("#1e88e5");
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.created, "status")).toBeVisible();
    await expect(page).toHaveURL(`/${spec.kind}`);

    await search(page, spec, prefix);
    await listReady(page, javaScriptEnabled);
    await expect(bodyRows(page)).toHaveCount(2);
    await expect(itemRow(page, first, "matriz")).toContainText("#1e88e5");
    await expect(itemRow(page, first, "matriz").locator(".color-chip rect")).toHaveCSS("fill", rgb("#1e88e5"));
    await expect(itemRow(page, other, "matriz").locator(".color-chip rect")).toHaveCSS("fill", rgb("#0d47a1"));

    // The 'Cor' column sorts by colour, ascending then descending.
    const header = (label: string) => page.getByRole("columnheader", { name: label, exact: true });
    await header("Cor").getByRole("link").click();
    await expect(page).toHaveURL(/ordem=cor/);
    await expect(header("Cor")).toHaveAttribute("aria-sort", "ascending");
    await expect(header(spec.column)).toHaveAttribute("aria-sort", "none");
    await expect(bodyRows(page).first()).toContainText(other);
    await header("Cor").getByRole("link").click();
    await expect(header("Cor")).toHaveAttribute("aria-sort", "descending");
    await expect(bodyRows(page).first()).toContainText(first);
    const listUrl = page.url();

    // Edit: the colour is filled in; another item's name is refused with an info toast (only sectors use an
    // error toast there); a new name and colour are saved.
    await itemRow(page, first, "matriz")
      .getByRole("link", { name: `Editar ${first}` })
      .click();
    await expect(page.getByRole("heading", { name: `${spec.editHeading} (${BRANCHES.matriz.nome})` })).toBeVisible();
    await expect(page.getByLabel(spec.nameLabel)).toHaveValue(first);
    await expect(page.getByLabel("Cor", { exact: true })).toHaveValue("#1e88e5");
    await page.getByLabel(spec.nameLabel).fill(other.toLowerCase());
    await page.getByRole("button", { name: "Salvar" }).click();
    await expect(toast(page, spec.duplicateTitle, "status")).toContainText(spec.duplicateDescription);
    await page.getByLabel(spec.nameLabel).fill(renamed);
    await page.getByLabel("Cor", { exact: true }).fill("#43a047");
    await page.getByRole("button", { name: "Salvar" }).click();
    await expect(toast(page, spec.edited, "status")).toBeVisible();
    await expect(page).toHaveURL(listUrl);
    await expect(itemRow(page, renamed, "matriz")).toContainText("#43a047");

    // The duplicate dialog (a page without JS) shows each item's colour; the copy keeps it.
    await listReady(page, javaScriptEnabled);
    await itemRow(page, renamed, "matriz").getByRole("checkbox").check();
    await page.getByRole("button", { name: spec.duplicateButton, exact: true }).click();
    const dialog = javaScriptEnabled ? page.getByRole("dialog", { name: spec.duplicateDialog }) : page.locator("body");
    await page.getByLabel("Filial de destino").selectOption({ label: branchOption("messejana") });
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Ver itens" }).click();
    const toDuplicate = page.getByRole("list", { name: "Itens que serão duplicados" }).getByRole("listitem");
    await expect(toDuplicate).toHaveCount(1);
    await expect(toDuplicate).toContainText(renamed);
    await expect(toDuplicate).toContainText("(#43a047)");
    await dialog.getByRole("button", { name: "Duplicar", exact: true }).click();
    await expect(toast(page, spec.duplicated, "status")).toBeVisible();
    await expect(itemRow(page, renamed, "messejana")).toContainText("#43a047");
  });
}
