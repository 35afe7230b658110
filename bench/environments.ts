/**
 * Environments at scale (issue 10): the /ambientes list page and the API list over 10,000 environments of one
 * company (p50/p95 and requests per second under load), and the bulk QR PDF of 500 ticked environments downloaded
 * from the web route as a user would (seconds and the server's peak RSS). The environments are written with the
 * spreadsheet importer (two CSV files of at most 5,000 rows), the fastest path over HTTP.
 */
import { DEMO_PASSWORD } from "../api/db/seed.ts";
import { IMPORT_HEADER, IMPORT_MAX_ROWS } from "../api/domain/environment-import.ts";

import { WORDS } from "./catalogues.ts";
import { processMemory } from "./export.ts";
import {
  apiSignIn,
  fmt,
  formatTable,
  multipartBody,
  probe,
  requestJson,
  runLoad,
  signIn,
  startServer,
  tempDir,
  type LoadResult,
} from "./lib.ts";

export type EnvironmentSettings = { connections: number; durationS: number; warmupS: number; acceptEncoding: string };

const BRANCH_ID = 1;
const COMPANY_ID = 1;
const TOTAL = 10_000;
const PDF_SHEETS = 500;
const SEARCH = "pediatrica";

type FormOptions = {
  categorias: { DESCRICAO: string }[];
  setores: { name: string }[];
  riscos: { name: string }[];
  procedimentos: { NAME_PROCEDIMENTO: string }[];
};
type Page = { items: { ID: number }[]; total: number };

const envName = (i: number) => `Ambiente escala ${String(i + 1).padStart(5, "0")} ala ${WORDS[i % WORDS.length]}`;

export async function measureEnvironments(
  settings: EnvironmentSettings,
  progress: (message: string) => void,
  problems: string[],
) {
  const dataDir = tempDir("environments");
  progress("environments: PGlite server (demo data)");
  const server = await startServer({ dataDir: dataDir.dir, demoData: true, label: "environments" });
  const rows: { name: string; path: string; load: LoadResult }[] = [];
  try {
    const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
    const cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
    const bearer = { authorization: `Bearer ${token}` };
    const page = (query: string) =>
      requestJson<Page>(server.url, { path: `/api/environments?companyId=${COMPANY_ID}&${query}`, headers: bearer });

    const options = await requestJson<FormOptions>(server.url, {
      path: `/api/environments/form/${BRANCH_ID}`,
      headers: bearer,
    });
    const cell = (names: string[]) => names.join("; ");
    const row = (i: number) =>
      [
        envName(i),
        options.categorias[i % options.categorias.length]!.DESCRICAO,
        options.setores[i % options.setores.length]!.name,
        `${(i % 12) + 1}º andar`,
        cell([options.riscos[i % options.riscos.length]!.name]),
        cell([options.procedimentos[i % options.procedimentos.length]!.NAME_PROCEDIMENTO]),
        "",
      ]
        .map((value) => `"${value.replaceAll('"', '""')}"`)
        .join(";");
    const missing = TOTAL - (await page("page=1&size=20")).total;
    progress(`environments: importing ${fmt.int(missing)} environments`);
    const began = performance.now();
    for (let start = 0; start < missing; start += IMPORT_MAX_ROWS) {
      const count = Math.min(IMPORT_MAX_ROWS, missing - start);
      const csv = [IMPORT_HEADER.join(";"), ...Array.from({ length: count }, (_, i) => row(start + i))].join("\n");
      const { body, contentType } = multipartBody({
        file: { filename: "ambientes.csv", type: "text/csv", content: csv },
        companyId: String(BRANCH_ID),
      });
      const response = await probe(
        server.url,
        {
          method: "POST",
          path: "/api/environments/import",
          headers: { ...bearer, "content-type": contentType },
          body,
        },
        600_000,
      );
      if (response.status !== 201) {
        throw new Error(`environments: import answered ${response.status}: ${response.body.toString().slice(0, 300)}`);
      }
    }
    const importMs = performance.now() - began;
    if ((await page("page=1&size=20")).total !== TOTAL)
      throw new Error(`environments: the company does not hold ${TOTAL}`);

    const matches = (await page(`q=${SEARCH}&page=1&size=20`)).total;
    const cases = [
      { name: "list page, 20 of 10,000, by name", path: "/ambientes", headers: { cookie } },
      {
        name: "list page, searched, sorted by floor desc",
        path: `/ambientes?q=${SEARCH}&ordem=andar&dir=desc&tamanho=20`,
        headers: { cookie },
      },
      {
        name: "API list, searched, sorted by floor desc",
        path: `/api/environments?companyId=${COMPANY_ID}&q=${SEARCH}&sort=andar&dir=desc&page=1&size=20`,
        headers: bearer,
      },
      {
        name: "API list, searched over all 7 fields",
        path:
          `/api/environments?companyId=${COMPANY_ID}&q=${SEARCH}&page=1&size=20` +
          "&fields=empresa,ambiente,categoria,setor,andar,risco,procedimento",
        headers: bearer,
      },
    ];
    for (const spec of cases) {
      const headers = { "accept-encoding": settings.acceptEncoding, ...spec.headers };
      const probed = await probe(server.url, { path: spec.path, headers });
      if (probed.status !== 200) throw new Error(`environments ${spec.name}: status ${probed.status}`);
      progress(`  environments: ${spec.name}`);
      const load = await runLoad(server.url, { ...spec, headers, ...settings });
      const bad = Object.entries(load.statusCodes).filter(([code]) => code !== "200");
      if (bad.length || load.errors)
        problems.push(`environments ${spec.name}: ${load.errors} errors, ${JSON.stringify(bad)}`);
      rows.push({ name: spec.name, path: spec.path, load });
    }

    // The bulk QR PDF: 500 ticked rows posted by the list's form.
    const ids = (await page(`page=1&size=160`)).items.map((item) => item.ID);
    for (let p = 2; ids.length < PDF_SHEETS; p += 1)
      ids.push(...(await page(`page=${p}&size=160`)).items.map((i) => i.ID));
    const form = new URLSearchParams(ids.slice(0, PDF_SHEETS).map((id) => ["ids", String(id)]));
    const before = processMemory(server.child.pid);
    const pdfBegan = performance.now();
    const pdf = await probe(
      server.url,
      {
        method: "POST",
        path: "/ambientes/qrcodes.pdf",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: new URL(server.url).origin },
        body: form.toString(),
      },
      600_000,
    );
    const pdfMs = performance.now() - pdfBegan;
    const after = processMemory(server.child.pid);
    const pages = (pdf.body.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    if (pdf.status !== 200 || pages !== PDF_SHEETS) {
      problems.push(`environments: bulk QR PDF answered ${pdf.status} with ${pages} pages (expected ${PDF_SHEETS})`);
    }
    return { rows, importMs, matches, pdf: { ms: pdfMs, bytes: pdf.body.length, pages, before, after } };
  } finally {
    await server.stop();
    dataDir.remove();
  }
}

export function environmentsReport(result: Awaited<ReturnType<typeof measureEnvironments>>) {
  const lines = [
    `\nEnvironments (issue 10): ${fmt.int(TOTAL)} environments of one company on PGlite (imported in ` +
      `${fmt.int(result.importMs)} ms; the search '${SEARCH}' matches ${fmt.int(result.matches)})`,
    formatTable(
      ["case", ">req/s", ">p50 ms", ">p95 ms", ">p99 ms"],
      result.rows.map(({ name, load }) => [
        name,
        fmt.int(load.rps),
        fmt.ms(load.p50),
        fmt.ms(load.p95),
        fmt.ms(load.p99),
      ]),
    ),
    `\nBulk QR PDF from the web route (POST /ambientes/qrcodes.pdf, ${PDF_SHEETS} ticked rows): ` +
      `${(result.pdf.ms / 1000).toFixed(2)} s, ${fmt.int(result.pdf.bytes)} bytes, ${result.pdf.pages} pages; server RSS ` +
      `${fmt.int((result.pdf.before?.rssKb ?? 0) / 1024)} MB before, peak (VmHWM) ${fmt.int((result.pdf.after?.hwmKb ?? 0) / 1024)} MB ` +
      `(the peak since start, which includes the import)`,
  ];
  return lines.join("\n");
}
