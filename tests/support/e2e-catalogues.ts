/**
 * What the catalogue browser tests (tests/e2e/catalogues*.spec.ts) share: the exact Portuguese texts of the
 * catalogues they drive (spec 000 §2, §5, §8 — written out here, not imported from the product, so a changed text
 * fails a test), the demo branches, unique names, and a quick way to create items through the app's CSV upload.
 *
 * The four catalogues share one implementation, so each browser flow runs for sectors only, and for risks where
 * the colour is the point. What differs between the kinds (texts and their gender, the colour, the delete rule,
 * the CSV header) is checked for all four in tests/unit/catalogue-kinds.test.ts and tests/api/catalogue-kinds.test.ts.
 *
 * Every test runs twice (js, no-js) against one shared server and database, in parallel: each one works only
 * with items whose names start with its own random prefix and searches by that prefix.
 */
import { randomBytes } from "node:crypto";

import { test, type Page, type TestInfo } from "@playwright/test";

import { expect } from "./e2e-fixtures.ts";

export type CatalogueKind = "setores" | "riscos" | "procedimentos" | "categorias";

export type KindSpec = {
  kind: CatalogueKind;
  /** Page title (h1) and the name column's header. */
  titlePlural: string;
  column: string;
  hasColor: boolean;
  listTab: string;
  registerTab: string;
  nameLabel: string;
  searchLabel: string;
  nameRequired: string;
  created: string;
  edited: string;
  deleted: string;
  duplicated: string;
  batchCreated: string;
  batchFailed: string;
  duplicateTitle: string;
  duplicateDescription: string;
  /** Spec 000 §5: the sector edit check is an error toast (role alert), the others info (role status). */
  editDuplicateRole: "alert" | "status";
  duplicateFailed: string;
  duplicateDialog: string;
  duplicateButton: string;
  editHeading: string;
  empty: string;
  csvHeader: string;
  /** The singular used in the CSV import's line errors. */
  singular: string;
};

/** The kinds the browser flows drive (the others' texts: tests/unit/catalogue-kinds.test.ts). */
export const KINDS: { setores: KindSpec; riscos: KindSpec } = {
  setores: {
    kind: "setores",
    titlePlural: "Setores",
    column: "Setor",
    hasColor: false,
    listTab: "Listar setores",
    registerTab: "Cadastrar setor",
    nameLabel: "Nome do setor",
    searchLabel: "Buscar setor",
    nameRequired: "Nome do setor é obrigatório",
    created: "Setor cadastrado com sucesso",
    edited: "Setor editado com sucesso",
    deleted: "Setor deletado com sucesso",
    duplicated: "Setores duplicados com sucesso",
    batchCreated: "Setores cadastrados com sucesso",
    batchFailed: "Erro ao cadastrar lista de setores!",
    duplicateTitle: "Setor duplicado",
    duplicateDescription: "Já existe um setor cadastrado com o mesmo nome e empresa",
    editDuplicateRole: "alert",
    duplicateFailed: "Erro ao duplicar os setores",
    duplicateDialog: "Duplicar Setores",
    duplicateButton: "Duplicar setores",
    editHeading: "Editar setor",
    empty: "Não existem setores cadastrados ainda.",
    csvHeader: "nome",
    singular: "setor",
  },
  riscos: {
    kind: "riscos",
    titlePlural: "Riscos",
    column: "Risco",
    hasColor: true,
    listTab: "Listar riscos",
    registerTab: "Cadastrar risco",
    nameLabel: "Nome do risco",
    searchLabel: "Buscar risco",
    nameRequired: "Nome do risco é obrigatório",
    created: "Risco cadastrado com sucesso",
    edited: "Risco editado com sucesso",
    deleted: "Risco deletado com sucesso",
    duplicated: "Riscos duplicados com sucesso",
    batchCreated: "Riscos cadastrados com sucesso",
    batchFailed: "Erro ao cadastrar lista de riscos!",
    duplicateTitle: "Risco duplicado",
    duplicateDescription: "Já existe um risco cadastrado com o mesmo nome e empresa",
    editDuplicateRole: "status",
    duplicateFailed: "Erro ao duplicar os riscos",
    duplicateDialog: "Duplicar Riscos",
    duplicateButton: "Duplicar riscos",
    editHeading: "Editar risco",
    empty: "Não existem riscos cadastrados ainda.",
    csvHeader: "nome;cor",
    singular: "risco",
  },
};

export const CSV_INVALID =
  "É necessário inserir um arquivo .CSV válido. Favor baixar o arquivo modelo pré-formatado para o preenchimento correto.";
export const ALREADY_PRESENT = "Os itens já estão presentes na filial.";
export const NO_RESULTS = "Nenhum resultado para a busca.";
export const REMOVE_QUESTION = "Tem certeza que deseja remover?";

/** The demo tenant's active branches (api/db/seed.ts on a fresh database: ids in insertion order). */
export const BRANCHES = {
  matriz: { id: 1, nome: "Matriz Fortaleza" },
  aldeota: { id: 2, nome: "Filial Aldeota" },
  messejana: { id: 3, nome: "Filial Messejana" },
} as const;
export type BranchKey = keyof typeof BRANCHES;
/** How the branch selectors label an option: '2 - Filial Aldeota'. */
export const branchOption = (key: BranchKey) => `${BRANCHES[key].id} - ${BRANCHES[key].nome}`;

/** A prefix no other test (or project) uses: 'E2E js 3fa9c1'. Searching for it lists only this test's items. */
export function uniquePrefix(testInfo: TestInfo) {
  return `E2E ${testInfo.project.name} ${randomBytes(3).toString("hex")}`;
}

export type Row = { name: string; color?: string };

/** The CSV text of these rows with the template's header ('nome' or 'nome;cor'), in the given separator. */
export function csvText(spec: KindSpec, rows: Row[], separator = ";", newline = "\r\n") {
  const header = spec.hasColor ? ["nome", "cor"] : ["nome"];
  const lines = [header, ...rows.map((row) => (spec.hasColor ? [row.name, row.color ?? "#c62828"] : [row.name]))];
  return lines.map((cells) => cells.join(separator)).join(newline) + newline;
}

/** The answer of the web app's CSV upload route, POST /{kind}/importar. */
export type ImportAnswer = { files: { name: string; ok: boolean; errors: string[] }[] };

/**
 * Creates items in one branch through the web app's CSV upload route (`POST /{kind}/importar`, multipart with
 * `idEmpresaFilial` and the files as `arquivos`; 200 when every file went in, 400 with the same JSON otherwise),
 * sharing the page's session: fast set-up for tests about lists. All rows or none. The route also sets the success
 * toast cookie, as the batch form does; the toast shows on the test's next page and asserts nothing.
 */
export async function importItems(page: Page, spec: KindSpec, branch: BranchKey, rows: Row[]) {
  const url = `/${spec.kind}/importar`;
  const response = await page.request.post(url, {
    // Playwright's requests carry no Origin (a browser's posts do), and a post without one is refused.
    headers: { accept: "application/json", origin: test.info().project.use.baseURL! },
    multipart: {
      idEmpresaFilial: String(BRANCHES[branch].id),
      arquivos: { name: "preparo.csv", mimeType: "text/csv", buffer: Buffer.from(csvText(spec, rows), "utf8") },
    },
  });
  const body = await response.text();
  expect(response.status(), `POST ${url}: ${body}`).toBe(200);
  const answer = JSON.parse(body) as ImportAnswer;
  expect(answer.files, `POST ${url}: ${body}`).toEqual([{ name: "preparo.csv", ok: true, errors: [] }]);
}

/**
 * With JS, waits until React has hydrated the list (the 'Marcar Todos' link has become a button), so a click on
 * a tick box or 'Remover' is handled by the page's script and not as a plain link or lost to hydration.
 */
export async function listReady(page: Page, javaScriptEnabled: boolean) {
  await expect(page.locator("table.data-table")).toBeVisible();
  if (javaScriptEnabled) await expect(page.getByRole("button", { name: /^(Marcar|Desmarcar) Todos$/ })).toBeVisible();
}

/** With JS, waits until React has attached its change handler to this element (hydration done). */
export async function hydrated(page: Page, javaScriptEnabled: boolean, selector: string) {
  if (!javaScriptEnabled) return;
  await page.waitForFunction((css) => {
    const element = document.querySelector(css) as (Element & Record<string, unknown>) | null;
    if (!element) return false;
    const key = Object.keys(element).find((name) => name.startsWith("__reactProps$"));
    return !!key && typeof (element[key] as { onChange?: unknown }).onChange === "function";
  }, selector);
}

/** Types into the list's search box and submits it ('Buscar'). */
export async function search(page: Page, spec: KindSpec, text: string) {
  await page.getByLabel(spec.searchLabel).fill(text);
  await page.getByRole("search").getByRole("button", { name: "Buscar" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "(\\+|%20)")}(&|$)`));
}

/** The table's body rows. */
export const bodyRows = (page: Page) => page.locator("table.data-table tbody tr");

/** A body row showing this item name in this branch. */
export function itemRow(page: Page, name: string, branch: BranchKey = "matriz") {
  return bodyRows(page)
    .filter({ has: page.getByRole("cell", { name, exact: true }) })
    .filter({ has: page.getByRole("cell", { name: BRANCHES[branch].nome, exact: true }) });
}

/** The item numbers ('E2E js abc123 007' → 7) of the rows on screen, in order. */
export async function numbersOnPage(page: Page, prefix: string) {
  const pattern = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (\\d{3})`);
  const texts = await bodyRows(page).allTextContents();
  return texts.map((text) => Number(text.match(pattern)?.[1] ?? NaN));
}

export const range = (from: number, to: number) =>
  from <= to
    ? Array.from({ length: to - from + 1 }, (_, i) => from + i)
    : Array.from({ length: from - to + 1 }, (_, i) => from - i);

/** Today as DD-MM-YYYY in America/Fortaleza, as the export file names carry it. */
export function todayInFortaleza() {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "America/Fortaleza",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  }).formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("day")}-${part("month")}-${part("year")}`;
}

/** '#1e88e5' → 'rgb(30, 136, 229)', as computed styles report colours. */
export function rgb(hex: string) {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}
