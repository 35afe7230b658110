import {
  KINDS,
  REMOVE_QUESTION,
  branchOption,
  hydrated,
  importItems,
  itemRow,
  listReady,
  search,
  uniquePrefix,
} from "../support/e2e-catalogues.ts";
import { expect, screenshot, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Pictures of the catalogue screens, with and without JS, for a person to look at (tests/.tmp/screens, not
 * committed): list, register (individual and lote), edit, remove confirmation, duplicate dialog or page. They
 * assert only that each state is the one meant; layout is judged by eye. Nothing compares the pictures, so they
 * are taken only on demand: `SCREENSHOTS=1 npx playwright test tests/e2e/catalogues-screens.spec.ts` (after
 * `npm run build`); otherwise every test here is skipped.
 */
test.skip(!process.env.SCREENSHOTS, "screenshots only on demand: set SCREENSHOTS=1");

const spec = KINDS.riscos;

test("risk screens: list, register, batch, edit, remove, duplicate", async ({
  page,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  test.slow();
  allowConsoleErrors(/status of 400/);
  const shot = (name: string) => screenshot(page, testInfo.project.name, `catalogues-riscos-${name}`);
  await signInAs("admin");
  const prefix = uniquePrefix(testInfo);
  await importItems(page, spec, "matriz", [
    { name: `${prefix} Biológico`, color: "#c62828" },
    { name: `${prefix} Químico`, color: "#f9a825" },
    { name: `${prefix} Físico`, color: "#1565c0" },
  ]);

  await page.goto(`/${spec.kind}`);
  await search(page, spec, prefix);
  await listReady(page, javaScriptEnabled);
  await itemRow(page, `${prefix} Químico`).getByRole("checkbox").check();
  await shot("list");

  await page.goto(`/${spec.kind}/cadastrar`);
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, "Campos em branco")).toBeVisible();
  await shot("register-blank");

  await page.goto(`/${spec.kind}/cadastrar?modo=lote`);
  await hydrated(page, javaScriptEnabled, "#arquivos");
  await page
    .getByLabel("Arraste os arquivos CSV para cá ou clique para procurar")
    .setInputFiles([
      { name: "riscos-com-erro.csv", mimeType: "text/csv", buffer: Buffer.from(`nome;cor\n${prefix} Novo;azul\n`) },
    ]);
  await shot("batch-chosen");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, spec.batchFailed)).toBeVisible();
  await shot("batch-errors");

  await page.goto(`/${spec.kind}`);
  await search(page, spec, prefix);
  await itemRow(page, `${prefix} Físico`).getByRole("link", { name: "Editar" }).click();
  await expect(page.getByRole("heading", { name: /Editar risco/ })).toBeVisible();
  await shot("edit");

  await page.getByRole("link", { name: "Cancelar" }).click();
  await listReady(page, javaScriptEnabled);
  await itemRow(page, `${prefix} Físico`).getByRole("link", { name: "Remover" }).click();
  await expect(page.getByText(REMOVE_QUESTION)).toBeVisible();
  await shot("remove");

  // 'Não' goes back to the list (a button in the dialog with JS, a link on the confirmation page without).
  await page.getByRole(javaScriptEnabled ? "button" : "link", { name: "Não" }).click();
  await listReady(page, javaScriptEnabled);
  await itemRow(page, `${prefix} Químico`).getByRole("checkbox").check();
  await itemRow(page, `${prefix} Biológico`).getByRole("checkbox").check();
  await page.getByRole("button", { name: spec.duplicateButton }).click();
  await page.getByLabel("Filial de destino").selectOption({ label: branchOption("messejana") });
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Ver itens" }).click();
  await expect(page.getByRole("list", { name: "Itens que serão duplicados" }).getByRole("listitem")).toHaveCount(2);
  await shot("duplicate");
});

test("sector screens: list as coordenador", async ({ page, signInAs }, testInfo) => {
  await signInAs("coordenador");
  await page.goto("/setores");
  await expect(page.getByRole("heading", { level: 1, name: "Setores" })).toBeVisible();
  await screenshot(page, testInfo.project.name, "catalogues-setores-coordenador");
});
