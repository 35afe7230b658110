import { readFileSync } from "node:fs";

import type { Page } from "@playwright/test";

import {
  BRANCHES,
  CSV_INVALID,
  KINDS,
  bodyRows,
  branchOption,
  hydrated,
  itemRow,
  search,
  uniquePrefix,
  type KindSpec,
} from "../support/e2e-catalogues.ts";
import { expect, test, toast } from "../support/e2e-fixtures.ts";

/**
 * Spec 000 §2 'Cadastro em lote' (branch, CSV files, 'Cadastrar', 'Baixar Modelo'), §5 (a CSV file is needed:
 * 'Erro ao cadastrar lista de ... !' with the .CSV message), decision 004 (UTF-8 or Windows-1252, comma or
 * semicolon, header compared without case, every problem named by its line, each file all or nothing). With JS the
 * files are listed and sent one by one; without JS the form posts them all and the page lists each file's result.
 * The flows run for sectors; the risks' colour column (template, colours kept in lower case, invalid colours named
 * by line) is checked here through 'Baixar Modelo' and in tests/api/catalogue-kinds.test.ts, every kind's
 * messages in tests/unit/catalogue-kinds.test.ts.
 */

const FILE_INPUT = "Arraste os arquivos CSV para cá ou clique para procurar";
const csv = (name: string, text: string, encoding: BufferEncoding = "utf8") => ({
  name,
  mimeType: "text/csv",
  buffer: Buffer.from(text, encoding),
});

async function openBatch(page: Page, spec: KindSpec, javaScriptEnabled: boolean) {
  await page.goto(`/${spec.kind}/cadastrar`);
  await page
    .getByRole("navigation", { name: "Tipo de cadastro" })
    .getByRole("link", { name: "Cadastro em lote" })
    .click();
  await expect(page).toHaveURL(`/${spec.kind}/cadastrar?modo=lote`);
  await expect(page.getByRole("link", { name: "Cadastro em lote" })).toHaveAttribute("aria-current", "page");
  await hydrated(page, javaScriptEnabled, "#arquivos");
}

/** The line of the file list (JS) or of the result list (no JS) that names this file. */
function fileEntry(page: Page, javaScriptEnabled: boolean, fileName: string) {
  return page
    .getByRole("list", { name: javaScriptEnabled ? "Arquivos" : "Resultado do envio" })
    .getByRole("listitem")
    .filter({ hasText: fileName })
    .first();
}

{
  const spec = KINDS.setores;
  test(`${spec.kind}: imports a UTF-8 comma file and a Windows-1252 semicolon file into a branch`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }, testInfo) => {
    test.slow();
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const utf8 = `nome\n${prefix} Lavanderia\n${prefix} Recepção\n`;
    // 'CSV (separado por vírgulas)' from Excel in pt-BR: Windows-1252, semicolons, CRLF, a header in other case.
    const cp1252 = `NOME\r\n${prefix} Ação Higiênica\r\n${prefix} Órgão Único\r\n`;

    await openBatch(page, spec, javaScriptEnabled);
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("aldeota") });
    await page
      .getByLabel(FILE_INPUT)
      .setInputFiles([csv("lista-utf8.csv", utf8), csv("lista-1252.csv", cp1252, "latin1")]);
    if (javaScriptEnabled) {
      await expect(fileEntry(page, true, "lista-utf8.csv")).toBeVisible();
      await expect(fileEntry(page, true, "lista-1252.csv")).toBeVisible();
    }
    // With JS the script sends the files one by one and opens the list as soon as the last one went in, so a
    // file's 'Enviado' may show only for an instant: the second upload is held until the first shows it.
    let releaseSecond = () => {};
    if (javaScriptEnabled) {
      const held = new Promise<void>((resolve) => (releaseSecond = resolve));
      let uploads = 0;
      await page.route(`**/${spec.kind}/importar`, async (route) => {
        if (++uploads === 2) await held;
        await route.continue();
      });
    }
    await page.getByRole("button", { name: "Cadastrar" }).click();
    if (javaScriptEnabled) {
      await expect(fileEntry(page, true, "lista-utf8.csv")).toContainText("Enviado");
      await expect(fileEntry(page, true, "lista-1252.csv")).not.toContainText("Enviado");
      releaseSecond();
    }
    await expect(page).toHaveURL(`/${spec.kind}`);
    await expect(toast(page, spec.batchCreated, "status")).toBeVisible();

    await search(page, spec, prefix);
    await expect(bodyRows(page)).toHaveCount(4);
    for (const name of ["Lavanderia", "Recepção", "Ação Higiênica", "Órgão Único"]) {
      await expect(itemRow(page, `${prefix} ${name}`, "aldeota")).toBeVisible();
    }
  });

  test(`${spec.kind}: a file with errors is refused whole, naming its lines; the other file goes in`, async ({
    page,
    signInAs,
    javaScriptEnabled,
    allowConsoleErrors,
  }, testInfo) => {
    test.slow();
    allowConsoleErrors(/status of 400/);
    await signInAs("admin");
    const prefix = uniquePrefix(testInfo);
    const bad = `nome\n${prefix} Bom\n${prefix} Repetido\n${prefix} repetido\n`;
    const errors = [`Linha 4: '${prefix} repetido' está repetido no arquivo (linha 3).`];
    const good = `nome\n${prefix} Certo\n`;

    await openBatch(page, spec, javaScriptEnabled);
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("messejana") });
    await page.getByLabel(FILE_INPUT).setInputFiles([csv("com-erros.csv", bad), csv("certo.csv", good)]);
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.batchFailed)).toBeVisible();
    const badEntry = fileEntry(page, javaScriptEnabled, "com-erros.csv");
    for (const error of errors) await expect(badEntry).toContainText(error);
    if (javaScriptEnabled) {
      await expect(toast(page, spec.batchFailed)).toContainText("Nenhuma linha dos arquivos com erro foi gravada.");
      await expect(fileEntry(page, true, "certo.csv")).toContainText("Enviado");
    } else {
      await expect(badEntry).toContainText("Não cadastrado");
      await expect(fileEntry(page, false, "certo.csv")).toContainText("Cadastrado");
      await expect(fileEntry(page, false, "certo.csv")).not.toContainText("Não cadastrado");
    }
    await expect(page).toHaveURL(`/${spec.kind}/cadastrar?modo=lote`);
    // The branch stays chosen for the next try (without JS the answer is a new page).
    await expect(page.getByLabel("Empresa / filial")).toHaveValue(String(BRANCHES.messejana.id));

    // A name the branch already has (any case) is refused with its line.
    await openBatch(page, spec, javaScriptEnabled);
    await page.getByLabel("Empresa / filial").selectOption({ label: branchOption("messejana") });
    const clash = `nome\n${prefix} Novo\n${prefix} CERTO\n`;
    await page.getByLabel(FILE_INPUT).setInputFiles(csv("repetido.csv", clash));
    await page.getByRole("button", { name: "Cadastrar" }).click();
    const clashError = `Linha 3: já existe um ${spec.singular} '${prefix} Certo' nesta filial.`;
    await expect(fileEntry(page, javaScriptEnabled, "repetido.csv")).toContainText(clashError);
    // Without JS a single error is the toast's description.
    await expect(toast(page, spec.batchFailed)).toContainText(
      javaScriptEnabled ? "Nenhuma linha dos arquivos com erro foi gravada." : clashError,
    );

    // Only the good file's row was written.
    await page.goto(`/${spec.kind}`);
    await search(page, spec, prefix);
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(itemRow(page, `${prefix} Certo`, "messejana")).toBeVisible();
  });

  test(`${spec.kind}: no CSV file is refused; 'Baixar Modelo' downloads the template`, async ({
    page,
    signInAs,
    javaScriptEnabled,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 400/);
    await signInAs("admin");
    await openBatch(page, spec, javaScriptEnabled);
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.batchFailed)).toContainText(CSV_INVALID);

    // A file that is not a CSV gets the same answer.
    await openBatch(page, spec, javaScriptEnabled);
    await page
      .getByLabel(FILE_INPUT)
      .setInputFiles({ name: "notas.txt", mimeType: "text/plain", buffer: Buffer.from("nome\nqualquer\n") });
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, spec.batchFailed)).toContainText(CSV_INVALID);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Baixar Modelo" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`modelo-${spec.kind}.csv`);
    const text = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
    const lines = text.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toBe(spec.csvHeader);
    expect(lines.length).toBeGreaterThan(1);
  });
}

{
  const spec = KINDS.riscos;
  test(`${spec.kind}: 'Baixar Modelo' has the colour column, an example colour on every line`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }) => {
    await signInAs("admin");
    await openBatch(page, spec, javaScriptEnabled);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Baixar Modelo" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`modelo-${spec.kind}.csv`);
    const text = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
    const lines = text.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toBe(spec.csvHeader);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toMatch(/^[^;]+;#[0-9a-f]{6}$/i);
  });
}
