import type { Page } from "@playwright/test";

import {
  ALREADY_PRESENT,
  BRANCHES,
  KINDS,
  bodyRows,
  branchOption,
  importItems,
  itemRow,
  listReady,
  search,
  uniquePrefix,
  type BranchKey,
} from "../support/e2e-catalogues.ts";
import { expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Spec 000 §2 (tick boxes, 'Marcar Todos / Desmarcar Todos', 'Duplicar ...' shown when rows are ticked, the
 * duplicate dialog listing only the items the chosen branch lacks, 'Os itens já estão presentes na filial.'),
 * §5 ('Lista inválida'), §8 ('Setores duplicados com sucesso'). With JS the dialog opens in place; without JS
 * the tick boxes submit a GET form that opens /{kind}/duplicar as a page (decision 004). Sectors only: the risks'
 * colour in the dialog is in catalogues.spec.ts, the copy keeping it and every kind's texts in
 * tests/api/catalogues-duplicate.test.ts and tests/unit/catalogue-kinds.test.ts.
 */

async function chooseTarget(page: Page, branch: BranchKey, javaScriptEnabled: boolean) {
  await page.getByLabel("Filial de destino").selectOption({ label: branchOption(branch) });
  if (!javaScriptEnabled) {
    await page.getByRole("button", { name: "Ver itens" }).click();
    await expect(page).toHaveURL(new RegExp(`filial=${BRANCHES[branch].id}`));
  }
}

const toDuplicate = (page: Page) =>
  page.getByRole("list", { name: "Itens que serão duplicados" }).getByRole("listitem");

{
  const spec = KINDS.setores;
  test(`${spec.kind}: 'Marcar Todos' and duplicating the ticked items into another branch`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }, testInfo) => {
    test.slow(); // a long flow on a shared, busy machine
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const alfa = `${prefix} Alfa`;
    const beta = `${prefix} Beta`;
    await importItems(page, spec, "matriz", [{ name: alfa }, { name: beta }]);
    await importItems(page, spec, "aldeota", [{ name: beta }]);

    await page.goto(`/${spec.kind}`);
    await search(page, spec, prefix);
    await listReady(page, javaScriptEnabled);
    await expect(bodyRows(page)).toHaveCount(3);
    const boxes = bodyRows(page).getByRole("checkbox");
    await expect(boxes).toHaveCount(3);
    const duplicateButton = page.getByRole("button", { name: spec.duplicateButton, exact: true });
    // With JS the button shows once something is ticked; without JS it is always there.
    if (javaScriptEnabled) await expect(duplicateButton).toHaveCount(0);

    // 'Marcar Todos' ticks the page's rows, 'Desmarcar Todos' unticks them.
    const tickAll = (name: string) => page.getByRole(javaScriptEnabled ? "button" : "link", { name, exact: true });
    await tickAll("Marcar Todos").click();
    if (!javaScriptEnabled) await expect(page).toHaveURL(/marcar=todos/);
    for (const box of await boxes.all()) await expect(box).toBeChecked();
    await expect(duplicateButton).toBeVisible();
    await tickAll("Desmarcar Todos").click();
    if (!javaScriptEnabled) await expect(page).not.toHaveURL(/marcar=todos/);
    for (const box of await boxes.all()) await expect(box).not.toBeChecked();
    await expect(tickAll("Marcar Todos")).toBeVisible();

    if (!javaScriptEnabled) {
      // Nothing ticked: refused with 'Lista inválida'.
      await duplicateButton.click();
      await expect(toast(page, spec.duplicateFailed)).toContainText("Lista inválida");
      await expect(page).toHaveURL(new RegExp(`/${spec.kind}\\?q=`));
    }

    await itemRow(page, alfa, "matriz").getByRole("checkbox").check();
    await itemRow(page, beta, "matriz").getByRole("checkbox").check();
    await duplicateButton.click();
    const dialog = javaScriptEnabled ? page.getByRole("dialog", { name: spec.duplicateDialog }) : page.locator("body");
    if (javaScriptEnabled) await expect(dialog).toBeVisible();
    else await expect(page.getByRole("heading", { level: 2, name: spec.duplicateDialog })).toBeVisible();

    // The branches are offered by name; Matriz has both items: nothing to duplicate.
    await expect(page.getByLabel("Filial de destino").getByRole("option")).toHaveText([
      branchOption("aldeota"),
      branchOption("messejana"),
      branchOption("matriz"),
    ]);
    await chooseTarget(page, "matriz", javaScriptEnabled);
    await expect(dialog.getByText(ALREADY_PRESENT)).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Duplicar", exact: true })).toBeDisabled();

    // Messejana lacks both, Aldeota only Alfa.
    await chooseTarget(page, "messejana", javaScriptEnabled);
    await expect(toDuplicate(page)).toHaveCount(2);
    await expect(toDuplicate(page).nth(0)).toContainText(alfa);
    await expect(toDuplicate(page).nth(1)).toContainText(beta);
    await chooseTarget(page, "aldeota", javaScriptEnabled);
    await expect(toDuplicate(page)).toHaveCount(1);
    await expect(toDuplicate(page)).toContainText(alfa);
    await expect(dialog.getByText(ALREADY_PRESENT)).toHaveCount(0);

    await dialog.getByRole("button", { name: "Duplicar", exact: true }).click();
    await expect(toast(page, spec.duplicated, "status")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${spec.kind}\\?q=`));
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(bodyRows(page)).toHaveCount(4);
    await expect(itemRow(page, alfa, "aldeota")).toBeVisible();

    // Both are now in Aldeota and in Matriz: 'Os itens já estão presentes na filial.'; Cancelar closes.
    await listReady(page, javaScriptEnabled);
    await itemRow(page, alfa, "aldeota").getByRole("checkbox").check();
    await itemRow(page, beta, "aldeota").getByRole("checkbox").check();
    await duplicateButton.click();
    // The dialog (and the no-JS page) opens on the first branch the ticked items are not from: Messejana, lacking
    // both.
    await expect(page.getByLabel("Filial de destino")).toHaveValue(String(BRANCHES.messejana.id));
    await chooseTarget(page, "aldeota", javaScriptEnabled);
    await expect(dialog.getByText(ALREADY_PRESENT)).toBeVisible();
    await chooseTarget(page, "matriz", javaScriptEnabled);
    await expect(dialog.getByText(ALREADY_PRESENT)).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Duplicar", exact: true })).toBeDisabled();
    await dialog.getByRole(javaScriptEnabled ? "button" : "link", { name: "Cancelar" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/${spec.kind}\\?q=`));
    await expect(bodyRows(page)).toHaveCount(4);
  });
}
