/**
 * Speed at scale (issue 9; bench/README.md 'Scale'): side by side in one run, the framework floor (a bare Remix app,
 * bench/floor, served the same way), the sign-in page and a static file of its size, a signed-in page, the list page
 * (20 of 10,000 and of 50,000 sectors, sorted and searched) and the API list search, on PGlite and on PostgreSQL
 * (BENCH_DATABASE_URL or DATABASE_URL: a perf_* database is created and dropped), the sign-in page with the route
 * table grown to 150 routes, and the JS gzip bytes per route. Prints the ratios the 'Done when' names.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";

import pg from "pg";

import { DEMO_PASSWORD } from "../api/db/seed.ts";

import { checkApiPage, checkWebPage, COMPANY_ID, csvImportRequest, PAGE_SIZE, timed, WORDS } from "./catalogues.ts";
import { JS_BUDGET_BYTES, jsBudgetTable, measureJsBudget } from "./js-budget.ts";
import {
  apiSignIn,
  benchFile,
  fmt,
  formatTable,
  probe,
  requestJson,
  ROOT,
  runLoad,
  signIn,
  startServer,
  tempDir,
  type LoadResult,
  type ProbeResult,
  type RequestSpec,
} from "./lib.ts";

export type ScaleSettings = {
  connections: number;
  durationS: number;
  warmupS: number;
  acceptEncoding: string;
  dummyRoutes: number;
};

type Row = { db: string; name: string; path: string; probe: ProbeResult; load: LoadResult };

const SEARCH = "pediatrica";
const SEARCH_WORD = "pediátrica";
const LIST_PAGE = `/setores?q=${SEARCH}&ordem=nome&dir=desc&tamanho=${PAGE_SIZE}`;
const API_SEARCH = `/api/setor?companyId=${COMPANY_ID}&q=${SEARCH}&sort=nome&dir=desc&page=1&size=${PAGE_SIZE}`;
const SIZES = [10_000, 50_000];

const scaleName = (i: number) => `Setor escala ${String(i + 1).padStart(5, "0")} ala ${WORDS[i % WORDS.length]}`;

export async function measureScale(settings: ScaleSettings, progress: (message: string) => void, problems: string[]) {
  const rows: Row[] = [];
  const load = async (
    db: string,
    name: string,
    baseUrl: string,
    spec: RequestSpec,
    verify?: (body: Buffer) => string | undefined,
  ) => {
    const headers = { "accept-encoding": settings.acceptEncoding, ...spec.headers };
    const probed = await probe(baseUrl, { ...spec, headers });
    if (probed.status !== 200) throw new Error(`scale ${db} ${name}: status ${probed.status} for ${spec.path}`);
    const wrong = verify?.(probed.body);
    if (wrong) throw new Error(`scale ${db} ${name}: unexpected answer: ${wrong}`);
    progress(`  scale: ${db} ${name}`);
    const result = await runLoad(baseUrl, {
      ...spec,
      headers,
      connections: settings.connections,
      durationS: settings.durationS,
      warmupS: settings.warmupS,
    });
    const bad = Object.entries(result.statusCodes).filter(([code]) => code !== "200");
    if (bad.length || result.errors)
      problems.push(`scale ${db} ${name}: ${result.errors} errors, statuses ${JSON.stringify(bad)}`);
    rows.push({ db, name, path: spec.path, probe: probed, load: result });
    return probed;
  };

  // The framework floor.
  progress("scale: building the bare Remix app (bench/floor)");
  const floorDir = path.join(ROOT, "bench", "floor");
  const built = spawnSync(path.join(ROOT, "node_modules", ".bin", "remix"), ["build"], {
    cwd: floorDir,
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`bench/floor: remix build failed:\n${built.stderr}`);
  const floorData = tempDir("floor");
  const floor = await startServer({
    dataDir: floorData.dir,
    demoData: false,
    label: "floor",
    script: "bench/floor/server.ts",
  });
  try {
    await load("-", "bare Remix page (floor)", floor.url, { path: "/" });
  } finally {
    await floor.stop();
    floorData.remove();
    // The floor's build output is not kept: lint and formatting checks run over the tree.
    for (const dir of ["build", "public", ".cache"]) rmSync(path.join(floorDir, dir), { recursive: true, force: true });
  }

  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const databases: { db: string; url?: string }[] = [{ db: "PGlite" }];
  if (adminUrl) databases.push({ db: "PostgreSQL", url: adminUrl });
  else problems.push("scale: no BENCH_DATABASE_URL or DATABASE_URL, so no PostgreSQL figures");

  for (const { db, url } of databases) {
    const dataDir = tempDir(`scale-${db}`);
    const database = url ? await temporaryDatabase(url) : undefined;
    const databaseUrl = database?.url;
    progress(`scale: ${db} server (demo data)`);
    const server = await startServer({ dataDir: dataDir.dir, demoData: true, label: `scale-${db}`, databaseUrl });
    try {
      const cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
      const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
      const signInPage = await load(db, "sign-in page", server.url, { path: "/" });
      const file = path.join(ROOT, "public", `bench-static-scale-${signInPage.body.length}.html`);
      const removeFile = benchFile(file, signInPage.body);
      try {
        await load(db, "static file, sign-in's size", server.url, { path: `/${path.basename(file)}` });
      } finally {
        removeFile();
      }
      await load(db, "signed-in page (FAQ)", server.url, { path: "/faq", headers: { cookie } });

      const totalOf = async (query = "") =>
        (
          await requestJson<{ total: number }>(server.url, {
            path: `/api/setor?companyId=${COMPANY_ID}&page=1&size=20${query}`,
            headers: { authorization: `Bearer ${token}` },
          })
        ).total;
      let made = 0;
      for (const size of SIZES) {
        const count = size - (await totalOf());
        const names = Array.from({ length: count }, (_, i) => scaleName(made + i));
        progress(`scale: ${db} importing ${count} sectors (company total ${size})`);
        const { response, ms } = await timed(server.url, csvImportRequest(token, "setores", 1, names), 600_000);
        if (response.status !== 201) throw new Error(`scale ${db}: import answered ${response.status}`);
        made += count;
        progress(`  imported in ${fmt.int(ms)} ms`);
        if ((await totalOf()) !== size) throw new Error(`scale ${db}: the company does not hold ${size} sectors`);
        const matches = Array.from({ length: made }, (_, i) => scaleName(i)).filter((name) =>
          name.endsWith(SEARCH_WORD),
        ).length;
        const label = fmt.int(size);
        await load(db, `list page, ${label}, searched`, server.url, { path: LIST_PAGE, headers: { cookie } }, (body) =>
          checkWebPage(body),
        );
        await load(
          db,
          `API list search, ${label}`,
          server.url,
          { path: API_SEARCH, headers: { authorization: `Bearer ${token}` } },
          (body) => checkApiPage(body, { total: matches, page: 1, search: SEARCH }),
        );
      }
    } finally {
      await server.stop();
      dataDir.remove();
      await database?.drop();
    }
  }

  // The product's route table grown to ~150 routes (bench/dummy-routes.ts).
  const grownDir = tempDir("scale-routes");
  progress(`scale: PGlite server with ${settings.dummyRoutes} routes`);
  const grown = await startServer({
    dataDir: grownDir.dir,
    demoData: true,
    label: "scale-routes",
    nodeArgs: ["--import", "./bench/dummy-routes.ts"],
    env: { BENCH_DUMMY_ROUTES: String(settings.dummyRoutes) },
  });
  try {
    await load("PGlite", `sign-in page, ${settings.dummyRoutes} routes`, grown.url, { path: "/" });
  } finally {
    await grown.stop();
    grownDir.remove();
  }

  return report(rows, settings);
}

/** A perf_* database on the server of `adminUrl`, and how to drop it. */
export async function temporaryDatabase(adminUrl: string) {
  const name = `perf_${process.pid}_${Date.now().toString(36)}`;
  await admin(adminUrl, `create database ${name}`);
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return { url: target.href, drop: () => admin(adminUrl, `drop database if exists ${name} with (force)`) };
}

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function report(rows: Row[], settings: ScaleSettings) {
  const lines: string[] = [];
  lines.push(
    formatTable(
      ["database", "case", ">body on the wire", ">body decoded", ">req/s", ">p50 ms", ">p95 ms", ">p99 ms"],
      rows.map((row) => [
        row.db,
        row.name,
        `${fmt.bytes(row.probe.wireBytes)} (${row.probe.headers["content-encoding"] ?? "none"})`,
        fmt.bytes(row.probe.body.length),
        fmt.int(row.load.rps),
        fmt.ms(row.load.p50),
        fmt.ms(row.load.p95),
        fmt.ms(row.load.p99),
      ]),
    ),
  );
  const find = (db: string, name: string) => rows.find((row) => row.db === db && row.name === name)?.load;
  const targets: string[][] = [];
  const ratio = (label: string, value: number | undefined, target: number, atLeast = true) => {
    if (value === undefined || !Number.isFinite(value)) return;
    const met = atLeast ? value >= target : value <= target;
    targets.push([label, fmt.ratio(value), `${atLeast ? "≥" : "≤"} ${target}`, met ? "met" : "MISSED"]);
  };
  const floor = find("-", "bare Remix page (floor)")?.rps;
  const signIn = find("PGlite", "sign-in page")?.rps;
  const grown = find("PGlite", `sign-in page, ${settings.dummyRoutes} routes`)?.rps;
  ratio("sign-in page / bare Remix page (req/s), current route table", signIn && floor && signIn / floor, 0.6);
  ratio(`sign-in page / bare Remix page (req/s), ${settings.dummyRoutes} routes`, grown && floor && grown / floor, 0.6);
  for (const [db, target] of [
    ["PGlite", 0.35],
    ["PostgreSQL", 0.5],
  ] as const) {
    const list = find(db, "list page, 10,000, searched")?.rps;
    const page = find(db, "sign-in page")?.rps;
    ratio(`${db}: list page 20 of 10,000 searched / sign-in page (req/s)`, list && page && list / page, target);
  }
  ratio(
    "PGlite: list page 20 of 10,000 searched, p95 ms",
    find("PGlite", "list page, 10,000, searched")?.p95,
    150,
    false,
  );
  ratio("PGlite: API list search at 50,000 rows, req/s", find("PGlite", "API list search, 50,000")?.rps, 250);
  const pgApi = find("PostgreSQL", "API list search, 50,000")?.rps;
  if (pgApi !== undefined)
    targets.push(["PostgreSQL: API list search at 50,000 rows, req/s (no target)", fmt.int(pgApi), "", ""]);

  const budget = await measureJsBudget(ROOT);
  const over = budget.filter((row) => row.gzipBytes > JS_BUDGET_BYTES);
  targets.push([
    "largest page's JS, KB gzip",
    (Math.max(...budget.map((row) => row.gzipBytes)) / 1024).toFixed(1),
    "≤ 120",
    over.length ? "MISSED" : "met",
  ]);
  lines.push("", "Targets (issue 9 'Done when')", formatTable(["figure", ">value", "target", ""], targets));
  const table = jsBudgetTable(budget);
  lines.push(
    "",
    "JS per page (first load: entry + every route module and import from root down; gzip -9)",
    formatTable(table.headers, table.rows),
  );
  return lines.join("\n");
}
