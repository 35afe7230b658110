/**
 * Exports as jobs through the whole server (server.ts; docs/exports.md): a download that is not ready within
 * EXPORT_WAIT_MS goes to its progress page, which waits in the queue, refreshes itself without JS and then offers
 * the file; the page and the file are the requester's only; a refused export says why and links back; in Chromium, the
 * page with JS starts the download by itself and without JS reloads itself until it offers the file. EXPORT_WAIT_MS=0
 * so every download goes through the progress page. Needs `npm run build` first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import ExcelJS from "exceljs";
import { chromium, type Browser, type Download } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { startServer } from "../../server.ts";
import { CHROMIUM_LAUNCH } from "../support/chromium.ts";
import { signInOverHttp } from "../support/e2e-global-setup.ts";
import { testServerConfig } from "../support/server-config.ts";

let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "export-web-"));
  server = await startServer(testServerConfig(dataDir, { EXPORT_WAIT_MS: "0", EXPORT_PER_COMPANY: "1" }));
  for (const email of ["principal@demo.com.br", "admin@demo.com.br", "outra@demo.com.br"])
    cookies[email] = `sessao=${await signInOverHttp(server.url, email, DEMO_PASSWORD)}`;
}, 180_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (pathAndQuery: string, email = "principal@demo.com.br") =>
  fetch(`${server.url}${pathAndQuery}`, { redirect: "manual", headers: { cookie: cookies[email] } });

const companyOf = async (email: string) =>
  (
    await server.database.db
      .selectFrom("users")
      .select("company_id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow()
  ).company_id;

/**
 * Holds the company's one export slot (EXPORT_PER_COMPANY=1) with a job 'running' on another instance (a live lease),
 * so the next one waits in the queue; `release` ends it and lets the runner take the next.
 */
async function holdCompanySlot(email: string) {
  const blocker = await server.database.db
    .insertInto("export_jobs")
    .values({
      company_id: await companyOf(email),
      user_id: (
        await server.database.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
      ).id,
      caminho: "/setores/exportar.xlsx",
      origem: server.url,
      status: "gerando",
      claimed_until: new Date(Date.now() + 3_600_000),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return async () => {
    await server.database.db
      .updateTable("export_jobs")
      .set({ status: "falhou", claimed_until: null })
      .where("id", "=", blocker.id)
      .execute();
  };
}

/** Reads the progress page until `done` holds (the runner polls every 2 s), at most 40 s. */
async function progressUntil(page: string, done: (html: string) => boolean) {
  for (let tries = 0; tries < 80; tries++) {
    const html = await (await get(page)).text();
    if (done(html)) return html;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${page} never reached the state`);
}

describe("a download that is not ready at once", () => {
  let page: string;
  let release: () => Promise<void>;

  beforeAll(async () => {
    release = await holdCompanySlot("principal@demo.com.br");
    const answer = await get("/setores/exportar.xlsx?tamanho=todos");
    page = answer.headers.get("location") ?? "";
  });

  test("goes to its progress page (303)", () => {
    expect(page).toMatch(/^\/exportacoes\/\d+$/);
  });

  test("which says it is waiting its turn, and refreshes itself without JS", async () => {
    const html = await (await get(page)).text();
    expect([
      html.includes("Na fila: 1 exportação antes desta."),
      /<noscript><meta http-equiv="refresh" content="3"\/?><\/noscript>/.test(html),
      html.includes("<progress"),
    ]).toEqual([true, true, true]);
  });

  test("is another user's 404: the same company's administrator and another company's", async () => {
    const answers = await Promise.all([get(page, "admin@demo.com.br"), get(page, "outra@demo.com.br")]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 404]);
  });

  test("once its turn comes, offers the file, which is the sectors' sheet", async () => {
    await release();
    const html = await progressUntil(page, (text) => text.includes("Arquivo pronto"));
    expect(html).toContain(`href="${page}/arquivo"`);
    const file = await get(`${page}/arquivo`);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="listagem-setores-[\d-]+\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await file.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect([sheet.getRow(1).getCell(1).text, sheet.rowCount > 1]).toEqual([expect.stringMatching(/\S/), true]);
  });

  test("the file is another user's 404 too", async () => {
    await progressUntil(page, (text) => text.includes("Arquivo pronto"));
    const answers = await Promise.all([
      get(`${page}/arquivo`, "admin@demo.com.br"),
      get(`${page}/arquivo`, "outra@demo.com.br"),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 404]);
  });

  test("is listed in 'Minhas exportações' of its requester, not of another user", async () => {
    const [own, other] = await Promise.all([get("/exportacoes"), get("/exportacoes", "admin@demo.com.br")]);
    const [ownHtml, otherHtml] = [await own.text(), await other.text()];
    expect([ownHtml.includes(`href="${page}"`), otherHtml.includes(`href="${page}"`)]).toEqual([true, false]);
  });
});

describe("a refused export", () => {
  test("says why on its progress page and links back to the report", async () => {
    const answer = await get("/historico-ambientes/exportar.pdf?inicio=2099-01-01&fim=2099-01-02");
    const page = answer.headers.get("location") ?? "";
    const html = await progressUntil(page, (text) => text.includes("Não foi possível gerar o arquivo."));
    expect([
      html.includes("Intervalo de datas inválidos, favor verificar"),
      html.includes('href="/historico-ambientes'),
    ]).toEqual([true, true]);
  });
});

describe("the progress page in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** A page signed in as the requester, on /setores, whose 'Exportar Excel' has to wait for the company's slot. */
  async function sectorsPage(javaScriptEnabled: boolean) {
    const context = await browser.newContext({ javaScriptEnabled, acceptDownloads: true, locale: "pt-BR" });
    const [name, value] = cookies["principal@demo.com.br"]!.split("=") as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/setores`);
    return page;
  }

  /** The downloaded workbook's first sheet: its header cell and whether it holds rows. */
  async function sheetOf(file: Download) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await file.path())!);
    const sheet = workbook.worksheets[0]!;
    return { name: file.suggestedFilename(), header: sheet.getRow(1).getCell(1).text, rows: sheet.rowCount > 1 };
  }

  test("with JS: 'Exportar Excel' shows the queue, then the download starts by itself", async () => {
    const release = await holdCompanySlot("principal@demo.com.br");
    const page = await sectorsPage(true);
    await page.getByRole("link", { name: "Exportar Excel" }).click();
    await page.getByText("Na fila: 1 exportação antes desta.").waitFor();
    expect(page.url()).toMatch(/\/exportacoes\/\d+$/);
    const download = page.waitForEvent("download", { timeout: 30_000 });
    await release();
    expect(await sheetOf(await download)).toEqual({
      name: expect.stringMatching(/^listagem-setores-[\d-]+\.xlsx$/),
      header: expect.stringMatching(/\S/),
      rows: true,
    });
    await page.context().close();
  }, 60_000);

  test("without JS: the page reloads itself until it offers 'Baixar arquivo', which downloads the file", async () => {
    const release = await holdCompanySlot("principal@demo.com.br");
    const page = await sectorsPage(false);
    await page.getByRole("link", { name: "Exportar Excel" }).click();
    await page.getByText("Na fila: 1 exportação antes desta.").waitFor();
    await release();
    // No script runs: only the page's own refresh can bring the file's link.
    const link = page.getByRole("link", { name: "Baixar arquivo" });
    await link.waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(await sheetOf(download)).toEqual({
      name: expect.stringMatching(/^listagem-setores-[\d-]+\.xlsx$/),
      header: expect.stringMatching(/\S/),
      rows: true,
    });
    await page.context().close();
  }, 60_000);
});
