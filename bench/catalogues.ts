/**
 * Catalogue data for the benchmarks: 5,000 sectors in one branch for the list cases (created once, through the CSV
 * import endpoint), and the timed 10,000-row CSV imports (3 that succeed, and imports that fail on their last row).
 * Everything goes through HTTP: the server holds the PGlite dir open.
 */
import { CATALOGUES, type CatalogueKind } from "../api/domain/catalogues.ts";

import type { BenchContext } from "./cases.ts";
import { median, multipartBody, probe, requestJson, type ProbeResult } from "./lib.ts";

/** The demo main company and the branch that gets the 5,000 sectors (api/db/seed.ts: branches 1-3 are active). */
export const COMPANY_ID = 1;
export const LIST_BRANCH_ID = 1;
export const LIST_ROWS = 5_000;
export const PAGE_SIZE = 20;

/**
 * The last word of each generated name cycles through these 16, so a search for one of them matches 1/16 of the
 * rows (313 of 5,000). The term is typed without its accent: the search folds case and accents.
 */
export const WORDS = [
  "norte",
  "sul",
  "leste",
  "oeste",
  "central",
  "anexo",
  "térreo",
  "superior",
  "infantil",
  "adulto",
  "cirúrgica",
  "clínica",
  "pediátrica",
  "materna",
  "geriátrica",
  "oncológica",
];
export const SEARCH_TERM = "pediatrica";
const SEARCH_WORD_INDEX = WORDS.indexOf("pediátrica");
export const SEARCH_MATCHES = Array.from({ length: LIST_ROWS }, (_, i) => i).filter(
  (i) => i % WORDS.length === SEARCH_WORD_INDEX,
).length;

const serial = (i: number) => String(i + 1).padStart(5, "0");
const listName = (i: number) => `Setor ${serial(i)} ala ${WORDS[i % WORDS.length]}`;

/** The CSV template's format: the header line, then one row per item (UTF-8, as the template is saved). */
function csvFile(kind: CatalogueKind, names: string[]) {
  const color = (i: number) => `#${((i * 2_654_435_761) >>> 8).toString(16).padStart(6, "0").slice(-6)}`;
  const rows = CATALOGUES[kind].hasColor ? names.map((name, i) => `${name};${color(i)}`) : names;
  return `${CATALOGUES[kind].hasColor ? "nome;cor" : "nome"}\n${rows.join("\n")}\n`;
}

export type CsvRequest = {
  kind: CatalogueKind;
  branchId: number;
  rows: number;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
};

export function csvImportRequest(token: string, kind: CatalogueKind, branchId: number, names: string[]): CsvRequest {
  const c = CATALOGUES[kind];
  const { body, contentType } = multipartBody({
    [c.csvField]: { filename: `bench-${kind}.csv`, type: "text/csv", content: csvFile(kind, names) },
    idEmpresaFilial: String(branchId),
  });
  return {
    kind,
    branchId,
    rows: names.length,
    path: `/api${c.csvPath}`,
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    body,
  };
}

/** Sector names imported into branch 1 in one CSV request; throws unless every one was created. Returns the ms. */
export async function importSectors(baseUrl: string, token: string, names: string[]) {
  const { response, ms } = await timed(baseUrl, csvImportRequest(token, "setores", LIST_BRANCH_ID, names), 600_000);
  const text = response.body.toString("utf8");
  if (response.status !== 201 || JSON.parse(text).created !== names.length)
    throw new Error(`importing ${names.length} sectors answered ${response.status} ${text.slice(0, 300)}`);
  return ms;
}

/** One request, timed from sending to the last byte of the answer. */
export async function timed(baseUrl: string, request: CsvRequest, timeoutMs = 120_000) {
  const began = performance.now();
  const response = await probe(
    baseUrl,
    { method: "POST", path: request.path, headers: request.headers, body: request.body },
    timeoutMs,
  );
  return { response, ms: performance.now() - began };
}

/** The list endpoint's total for one kind, company-wide or in one branch. */
export async function listTotal(
  context: BenchContext,
  kind: CatalogueKind,
  query: Record<string, string | number> = {},
) {
  const search = new URLSearchParams({
    companyId: String(COMPANY_ID),
    page: "1",
    size: String(PAGE_SIZE),
    ...query,
  } as Record<string, string>);
  const page = await requestJson<{ total: number }>(context.baseUrl, {
    path: `/api${CATALOGUES[kind].apiPath}?${search}`,
    headers: { authorization: `Bearer ${await context.apiToken()}` },
  });
  return page.total;
}

const bodyText = (response: ProbeResult) => response.body.toString("utf8");

// ---------------------------------------------------------------------------------------------------------------
// The 5,000 sectors behind the list cases.

export type ListData = {
  /** Sectors in the company (all branches, the list's scope for the main company's admin) after the import. */
  total: number;
  importMs: number;
  /** The 20 names of the first page searched for SEARCH_TERM, sorted by name descending, as the API answers. */
  firstSearchPage: string[];
};

let listData: Promise<ListData> | undefined;

/** Creates the 5,000 sectors once (one CSV import into branch 1); every list case calls this in its setup. */
export function ensureListData(context: BenchContext) {
  listData ??= (async () => {
    const before = await listTotal(context, "setores");
    const request = csvImportRequest(
      await context.apiToken(),
      "setores",
      LIST_BRANCH_ID,
      Array.from({ length: LIST_ROWS }, (_, i) => listName(i)),
    );
    const { response, ms } = await timed(context.baseUrl, request);
    if (response.status !== 201 || JSON.parse(bodyText(response)).created !== LIST_ROWS) {
      throw new Error(
        `setup: importing ${LIST_ROWS} sectors answered ${response.status} ${bodyText(response).slice(0, 300)}`,
      );
    }
    const total = await listTotal(context, "setores");
    if (total !== before + LIST_ROWS)
      throw new Error(`setup: the sector total went from ${before} to ${total}, expected +${LIST_ROWS}`);
    const matches = await listTotal(context, "setores", { q: SEARCH_TERM });
    if (matches !== SEARCH_MATCHES)
      throw new Error(`setup: searching '${SEARCH_TERM}' finds ${matches} sectors, expected ${SEARCH_MATCHES}`);
    const page = await requestJson<{ items: { name: string }[] }>(context.baseUrl, {
      path: `/api/setor?companyId=${COMPANY_ID}&q=${SEARCH_TERM}&sort=nome&dir=desc&page=1&size=${PAGE_SIZE}`,
      headers: { authorization: `Bearer ${await context.apiToken()}` },
    });
    return { total, importMs: ms, firstSearchPage: page.items.map((item) => item.name) };
  })();
  return listData;
}

/** The list data if a case made it (without making it). */
export const madeListData = () => listData;

/** Checks an API list answer: a page of exactly 20 items, the expected total, every item matching the search. */
export function checkApiPage(body: Buffer, expected: { total: number; page: number; search?: string }) {
  const answer = JSON.parse(body.toString("utf8")) as {
    items?: { name: string }[];
    total?: number;
    page?: number;
    size?: number;
  };
  if (answer.items?.length !== PAGE_SIZE) return `${answer.items?.length ?? "no"} items, expected ${PAGE_SIZE}`;
  if (answer.total !== expected.total) return `total ${answer.total}, expected ${expected.total}`;
  if (answer.page !== expected.page || answer.size !== PAGE_SIZE)
    return `page ${answer.page} size ${answer.size}, expected ${expected.page} and ${PAGE_SIZE}`;
  const word = expected.search ? WORDS[SEARCH_WORD_INDEX] : undefined;
  if (word && !answer.items.every((item) => item.name.endsWith(word)))
    return `an item does not match the search '${expected.search}'`;
  const names = answer.items.map((item) => item.name);
  if (names.some((name, i) => i > 0 && name.localeCompare(names[i - 1], "pt-BR", { sensitivity: "base" }) > 0))
    return "the items are not sorted by name, descending";
  return undefined;
}

/** Checks a list page's HTML: 20 rows (one tick box each), and when given, these names on the page. */
export function checkWebPage(body: Buffer, names?: string[]) {
  const html = body.toString("utf8");
  const rows = html.match(/<input type="checkbox" name="ids"/g)?.length ?? 0;
  if (rows !== PAGE_SIZE) return `${rows} table rows (tick boxes), expected ${PAGE_SIZE}`;
  // The name is a cell's whole text (the cell carries attributes for the phone layout).
  const missing = names?.find((name) => !html.includes(`>${name}</td>`));
  if (missing) return `'${missing}' (from the API's answer) is not in the table`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The timed imports.

export const IMPORT_ROWS = 10_000;

export type ImportRow = {
  label: string;
  kind: CatalogueKind;
  branchId: number;
  rows: number;
  status: number;
  answer: string;
  ms: number;
  before: number;
  after: number;
  outcome: "created" | "rejected";
};

/**
 * Three 10,000-row imports that succeed (sectors, procedures, categories, each into branch 2 with names no branch
 * has yet), then imports that fail on their last row, into branch 3's sectors: a name the branch already has (the
 * check runs in the transaction), and a name repeated in the file (the check runs before the transaction).
 * Each is one request, timed; the item total of the branch is read before and after.
 */
export async function measureImports(
  context: BenchContext,
  failRuns: number,
  problems: string[],
  progress: (message: string) => void,
) {
  const token = await context.apiToken();
  const rows: ImportRow[] = [];
  const run = async (
    label: string,
    request: CsvRequest,
    outcome: ImportRow["outcome"],
    expectAnswer: (text: string) => boolean,
  ) => {
    const before = await listTotal(context, request.kind, { filialId: request.branchId });
    progress(`  ${label}`);
    const { response, ms } = await timed(context.baseUrl, request);
    const after = await listTotal(context, request.kind, { filialId: request.branchId });
    const text = bodyText(response);
    const answer = response.headers["content-type"]?.includes("json") ? summarise(text) : text.slice(0, 80);
    rows.push({
      label,
      kind: request.kind,
      branchId: request.branchId,
      rows: request.rows,
      status: response.status,
      answer,
      ms,
      before,
      after,
      outcome,
    });
    const expectStatus = outcome === "created" ? 201 : 400;
    const expectAfter = outcome === "created" ? before + request.rows : before;
    if (response.status !== expectStatus || !expectAnswer(text))
      problems.push(`${label}: answered ${response.status} ${text.slice(0, 300)}`);
    if (after !== expectAfter)
      problems.push(`${label}: the branch's total went from ${before} to ${after}, expected ${expectAfter}`);
  };

  const SUCCESS_BRANCH = 2;
  const kinds: CatalogueKind[] = ["setores", "procedimentos", "categorias"];
  for (const [index, kind] of kinds.entries()) {
    const title = CATALOGUES[kind].title;
    const names = Array.from(
      { length: IMPORT_ROWS },
      (_, i) => `${title} importado ${index + 1} ${serial(i)} bloco ${WORDS[i % WORDS.length]}`,
    );
    await run(
      `ok ${index + 1}: ${CATALOGUES[kind].plural}`,
      csvImportRequest(token, kind, SUCCESS_BRANCH, names),
      "created",
      (text) => {
        try {
          return JSON.parse(text).created === IMPORT_ROWS;
        } catch {
          return false;
        }
      },
    );
  }

  // A sector branch 3 already has; the file spells it in capitals (the check ignores case).
  const FAIL_BRANCH = 3;
  const existing = "Setor bench existente";
  await requestJson(
    context.baseUrl,
    {
      method: "POST",
      path: "/api/setor",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: existing, companyId: FAIL_BRANCH }),
    },
    201,
  );
  const fresh = Array.from(
    { length: IMPORT_ROWS - 1 },
    (_, i) => `Setor rejeitado ${serial(i)} bloco ${WORDS[i % WORDS.length]}`,
  );
  const lastLine = IMPORT_ROWS + 1; // the header is line 1
  const clash = csvImportRequest(token, "setores", FAIL_BRANCH, [...fresh, existing.toUpperCase()]);
  const repeated = csvImportRequest(token, "setores", FAIL_BRANCH, [...fresh, fresh[0]]);
  for (let attempt = 1; attempt <= failRuns; attempt++) {
    await run(
      `fail ${attempt}: last row already in the branch`,
      clash,
      "rejected",
      (text) => text.includes(`Linha ${lastLine}:`) && text.includes("já existe"),
    );
  }
  for (let attempt = 1; attempt <= failRuns; attempt++) {
    await run(
      `fail ${attempt}: last row repeats row 1 of the file`,
      repeated,
      "rejected",
      (text) => text.includes(`Linha ${lastLine}:`) && text.includes("repetido"),
    );
  }
  return rows;
}

function summarise(text: string) {
  try {
    const json = JSON.parse(text) as { created?: number; message?: string };
    if (json.created !== undefined) return `{created: ${json.created}}`;
    if (json.message) return json.message.length > 60 ? `${json.message.slice(0, 57)}...` : json.message;
  } catch {
    // not JSON after all
  }
  return text.slice(0, 60);
}

export function importMedians(rows: ImportRow[]) {
  const groups = new Map<string, ImportRow[]>();
  for (const row of rows) {
    const key = row.outcome === "created" ? "created" : row.label.replace(/^fail \d+: /, "");
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups].map(([key, group]) => ({
    key,
    runs: group.length,
    ms: median(group.map((row) => row.ms)),
    rows: group[0].rows,
  }));
}
