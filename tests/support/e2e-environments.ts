/**
 * What the environment browser tests (tests/e2e/environments.spec.ts and the environment entries of the phone,
 * security and accessibility specs) share: the exact Portuguese texts (spec 000 §2, §5, §8 — written out here, not
 * imported from the product, so a changed text fails a test), the demo catalogue names, the environment with history
 * that e2e-prepare.ts writes, fast set-up through the REST API, and the downloads' decoders.
 *
 * Every test runs twice (js, no-js) against one shared server and database, in parallel: each one works with
 * environments whose names start with its own random prefix (uniquePrefix) and searches by that prefix.
 */
import { readFileSync } from "node:fs";

import type { APIRequestContext, Download, Page } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { extractText, getDocumentProxy } from "unpdf";

import { BRANCHES, type BranchKey } from "./e2e-catalogues.ts";
import { DEMO_PASSWORD, SHARED_ACCOUNTS, type SharedAccount } from "./e2e-data.ts";
import { expect } from "./e2e-fixtures.ts";

export const TEXTS = {
  title: "Ambientes",
  listTab: "Listar ambientes",
  registerTab: "Cadastrar ambiente",
  editHeading: "Editar ambiente",
  searchLabel: "Buscar ambiente",
  filter: "Filtrar por",
  empty: "Não existem ambientes cadastrados ainda.",
  blankTitle: "Campos em branco",
  blankDescription: "Existem campos obrigatórios não preenchidos.",
  nameRequired: "Nome do ambiente é obrigatório",
  andarRequired: "Nome do andar é obrigatório",
  risksRequired: "Favor selecionar o(s) risco(s) do ambiente",
  proceduresRequired: "Favor selecionar o(s) procedimento(s) do ambiente",
  procedureConflict: "Um procedimento não pode ser obrigatório e opcional ao mesmo tempo",
  duplicateTitle: "Ambiente duplicado",
  duplicateDescription: "Já existe um ambiente cadastrado com o mesmo nome e empresa",
  created: "Ambiente cadastrado com sucesso",
  edited: "Ambiente editado com sucesso",
  deleted: "Ambiente deletado com sucesso",
  hasHistory: "Ambiente já possui historico e não pode ser deletado",
  removeQuestion: "Tem certeza que deseja remover?",
  nothingTicked: "Nenhum registro selecionado",
} as const;

/** The list's column headers, in order (spec 000 §2), without the tick column. */
export const DATA_COLUMNS = [
  "Empresa",
  "Ambiente",
  "Categoria",
  "Setor",
  "Andar",
  "Riscos",
  "Procedimentos Obrigatórios",
  "Procedimentos Opcionais",
] as const;

/** The demo catalogue names of Matriz Fortaleza and Filial Aldeota (api/db/seed.ts; Messejana has the first four). */
export const DEMO = {
  categories: ["Banheiro", "Sala", "Corredor", "Enfermaria", "Copa", "Escritório"],
  sectors: ["Recepção", "Centro Cirúrgico", "UTI", "Administrativo", "Ambulatório", "Copa e Cozinha"],
  risks: ["Biológico", "Químico", "Físico", "Ergonômico", "Perfurocortante"],
  procedures: [
    "Limpar piso",
    "Recolher lixo",
    "Higienizar pias",
    "Limpar vidros",
    "Desinfetar superfícies",
    "Repor papel toalha",
    "Repor sabonete",
    "Limpar vaso sanitário",
  ],
} as const;

export { ENVIRONMENT_WITH_HISTORY } from "./e2e-history.ts";

// ---------------------------------------------------------------------------------------------------------------
// Set-up through the REST API (fast; the browser flows create through the form)

export type NewEnvironment = {
  name: string;
  andar: string;
  branch?: BranchKey;
  category?: string;
  sector?: string;
  risks?: string[];
  mandatory?: string[];
  optional?: string[];
};

/** A bearer token of a shared demo account (sign-in failures are rate-limited; successes are not). */
export async function apiToken(request: APIRequestContext, account: SharedAccount = "admin") {
  const response = await request.post("/api/sessions", {
    data: { email: SHARED_ACCOUNTS[account], password: DEMO_PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

type FormOptions = {
  categorias: { ID_CATEGORIA: number; DESCRICAO: string }[];
  setores: { id: number; name: string }[];
  riscos: { id: number; name: string }[];
  procedimentos: { ID_PROCEDIMENTO: number; NAME_PROCEDIMENTO: string }[];
};

/** Creates environments through POST /api/environments; answers their ids, in order. */
export async function createEnvironments(request: APIRequestContext, environments: NewEnvironment[]) {
  const token = await apiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const optionsOf = new Map<number, FormOptions>();
  const ids: number[] = [];
  for (const environment of environments) {
    const branchId = BRANCHES[environment.branch ?? "matriz"].id;
    if (!optionsOf.has(branchId)) {
      const answer = await request.get(`/api/environments/form/${branchId}`, { headers });
      expect(answer.status()).toBe(200);
      optionsOf.set(branchId, (await answer.json()) as FormOptions);
    }
    const options = optionsOf.get(branchId)!;
    const idOf = <T>(items: T[], name: (item: T) => string, id: (item: T) => number, wanted: string) => {
      const item = items.find((candidate) => name(candidate) === wanted);
      if (!item) throw new Error(`'${wanted}' is not in branch ${branchId}`);
      return id(item);
    };
    const procedure = (wanted: string) =>
      idOf(
        options.procedimentos,
        (p) => p.NAME_PROCEDIMENTO,
        (p) => p.ID_PROCEDIMENTO,
        wanted,
      );
    const response = await request.post("/api/environments", {
      headers,
      data: {
        companyId: branchId,
        name: environment.name,
        andar: environment.andar,
        categoriaId: idOf(
          options.categorias,
          (c) => c.DESCRICAO,
          (c) => c.ID_CATEGORIA,
          environment.category ?? "Sala",
        ),
        setorId: idOf(
          options.setores,
          (s) => s.name,
          (s) => s.id,
          environment.sector ?? "Recepção",
        ),
        riscos: (environment.risks ?? ["Biológico"]).map((name) =>
          idOf(
            options.riscos,
            (r) => r.name,
            (r) => r.id,
            name,
          ),
        ),
        procedures: (environment.mandatory ?? ["Limpar piso"]).map(procedure),
        proceduresNotMandatory: (environment.optional ?? []).map(procedure),
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    ids.push(((await response.json()) as { id: number }).id);
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------------------------
// The list

/** Types into the list's search box and submits it. */
export async function searchEnvironments(page: Page, text: string) {
  await page.getByLabel(TEXTS.searchLabel).fill(text);
  await page.getByRole("search").getByRole("button", { name: "Buscar" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "(\\+|%20)")}(&|$)`));
}

/**
 * With JS, waits until React has hydrated the list (its QR links have their click handlers), so a click on a tick
 * box, 'QR code' or 'Remover' is handled by the page's script and not as a plain link or lost to hydration.
 */
export async function environmentListReady(page: Page, javaScriptEnabled: boolean) {
  await expect(page.locator("table.data-table")).toBeVisible();
  if (!javaScriptEnabled) return;
  await page.waitForFunction(() => {
    const link = document.querySelector("table.data-table tbody a") as (Element & Record<string, unknown>) | null;
    const key = link && Object.keys(link).find((name) => name.startsWith("__reactProps$"));
    return !!key && typeof (link[key] as { onClick?: unknown }).onClick === "function";
  });
}

/** A body row showing this environment name. */
export function environmentRow(page: Page, name: string) {
  return page.locator("table.data-table tbody tr").filter({ has: page.getByRole("cell", { name, exact: true }) });
}

/** The data cells of the body rows (Empresa … Procedimentos Opcionais), as text. */
export async function dataCells(page: Page) {
  return page.locator("table.data-table tbody tr").evaluateAll((rows) =>
    rows.map((row) =>
      Array.from(row.querySelectorAll("td[data-label]"))
        .map((cell) => cell.textContent?.trim() ?? "")
        .slice(0, 8),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Downloads

/** The QR code in a downloaded PNG, decoded. */
export function decodeQrPng(file: string) {
  const png = PNG.sync.read(readFileSync(file));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(code, "a QR code in the PNG").not.toBeNull();
  return code!.data;
}

/** A downloaded PDF's page count and its text, page by page. */
export async function readPdf(download: Download) {
  const bytes = new Uint8Array(readFileSync(await download.path()));
  expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
  const pdf = await getDocumentProxy(bytes);
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  return { pages: totalPages, text: text.map((page) => page.replace(/\s+/g, " ").trim()) };
}
