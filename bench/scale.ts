/**
 * Speed at scale (issue 9; bench/README.md 'Scale'): side by side in one run, the framework floor (a bare Remix app,
 * bench/floor, served the same way), the sign-in page and a static file of its size, a signed-in page, the list page
 * (20 of 10,000 and of 50,000 sectors, sorted and searched) and the API list search, on PGlite and on PostgreSQL
 * (BENCH_DATABASE_URL or DATABASE_URL: a perf_* database is created and dropped), the sign-in page with the route
 * table grown to 150 routes, and the JS gzip bytes per route. Prints the ratios the 'Done when' names.
 *
 * Every server runs for the whole section and the cases are measured in interleaved rounds (BENCH_SCALE_ROUNDS, 3):
 * each round loads every case once, in an order turned by one each round (the 10,000-row cases first, then the 50,000
 * ones in rounds of their own). A figure is the median of its rounds and
 * a ratio the median of the ratios within each round, so a burst of load from outside moves one round, not the
 * answer (the method of the issue's own profiling).
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";

import { DEMO_PASSWORD } from "../api/db/seed.ts";

import { checkApiPage, checkWebPage, COMPANY_ID, importSectors, PAGE_SIZE, WORDS } from "./catalogues.ts";
import { FIELD_JS_BUDGET_BYTES, JS_BUDGET_BYTES, jsBudgetTable, measureJsBudget } from "./js-budget.ts";
import {
  apiSignIn,
  benchFile,
  fmt,
  formatTable,
  median,
  probe,
  requestJson,
  ROOT,
  runLoad,
  signIn,
  startServer,
  tempDir,
  temporaryDatabase,
  type LoadResult,
  type ProbeResult,
  type RequestSpec,
  type RunningServer,
} from "./lib.ts";

export type ScaleSettings = {
  connections: number;
  durationS: number;
  warmupS: number;
  acceptEncoding: string;
  dummyRoutes: number;
  rounds: number;
};

/** One measured case: what is loaded, where, and each round's result. */
type Case = {
  db: string;
  name: string;
  server: RunningServer;
  spec: RequestSpec;
  verify?: (body: Buffer) => string | undefined;
  probe?: ProbeResult;
  loads: LoadResult[];
};

const SEARCH = "pediatrica";
const SEARCH_WORD = "pediátrica";
const LIST_PAGE = `/setores?q=${SEARCH}&ordem=nome&dir=desc&tamanho=${PAGE_SIZE}`;
const API_SEARCH = `/api/setor?companyId=${COMPANY_ID}&q=${SEARCH}&sort=nome&dir=desc&page=1&size=${PAGE_SIZE}`;
const SIZES = [10_000, 50_000];
const FLOOR = "bare Remix page (floor)";
const SIGN_IN = "sign-in page";
const FAQ = "signed-in page (FAQ)";
const listName = (size: number) => `list page, ${fmt.int(size)}, searched`;
const apiName = (size: number) => `API list search, ${fmt.int(size)}`;

const scaleName = (i: number) => `Setor escala ${String(i + 1).padStart(5, "0")} ala ${WORDS[i % WORDS.length]}`;

export async function measureScale(settings: ScaleSettings, progress: (message: string) => void, problems: string[]) {
  const cases: Case[] = [];
  const cleanups: (() => unknown)[] = [];
  const start = async (options: Omit<Parameters<typeof startServer>[0], "dataDir">) => {
    const dir = tempDir(options.label);
    cleanups.push(() => dir.remove());
    const server = await startServer({ ...options, dataDir: dir.dir });
    cleanups.push(() => server.stop());
    return server;
  };
  const add = (entry: Omit<Case, "loads">) =>
    cases.push({ ...entry, spec: withEncoding(entry.spec, settings.acceptEncoding), loads: [] });

  /** Probes each new case (status and answer checked), then loads them all in `settings.rounds` rounds. */
  const measure = async (batch: Case[]) => {
    for (const entry of batch) {
      entry.probe = await probe(entry.server.url, entry.spec);
      if (entry.probe.status !== 200)
        throw new Error(`scale ${entry.db} ${entry.name}: status ${entry.probe.status} for ${entry.spec.path}`);
      const wrong = entry.verify?.(entry.probe.body);
      if (wrong) throw new Error(`scale ${entry.db} ${entry.name}: unexpected answer: ${wrong}`);
    }
    for (let round = 0; round < settings.rounds; round++) {
      const order = batch.map((_, i) => batch[(i + round) % batch.length]!);
      for (const entry of order) {
        progress(`  scale round ${round + 1}/${settings.rounds}: ${entry.db} ${entry.name}`);
        const result = await runLoad(entry.server.url, {
          ...entry.spec,
          connections: settings.connections,
          durationS: settings.durationS,
          warmupS: settings.warmupS,
          serverPid: entry.server.child.pid,
        });
        const bad = Object.entries(result.statusCodes).filter(([code]) => code !== "200");
        if (bad.length || result.errors)
          problems.push(`scale ${entry.db} ${entry.name}: ${result.errors} errors, statuses ${JSON.stringify(bad)}`);
        entry.loads.push(result);
      }
    }
  };

  const floorDir = path.join(ROOT, "bench", "floor");
  try {
    // The framework floor.
    progress("scale: building the bare Remix app (bench/floor)");
    const built = spawnSync(path.join(ROOT, "node_modules", ".bin", "remix"), ["build"], {
      cwd: floorDir,
      encoding: "utf8",
    });
    if (built.status !== 0) throw new Error(`bench/floor: remix build failed:\n${built.stderr}`);
    const floor = await start({ demoData: false, label: "floor", script: "bench/floor/server.ts" });
    add({ db: "-", name: FLOOR, server: floor, spec: { path: "/" } });

    const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
    const databases: { db: string; url?: string }[] = [{ db: "PGlite" }];
    if (adminUrl) databases.push({ db: "PostgreSQL", url: adminUrl });
    else problems.push("scale: no BENCH_DATABASE_URL or DATABASE_URL, so no PostgreSQL figures");

    const apps: { db: string; server: RunningServer; cookie: string; token: string }[] = [];
    for (const { db, url } of databases) {
      const database = url ? await temporaryDatabase(url) : undefined;
      if (database) cleanups.push(() => database.drop());
      progress(`scale: ${db} server (demo data)`);
      const server = await start({ demoData: true, label: `scale-${db}`, databaseUrl: database?.url });
      const cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
      const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
      apps.push({ db, server, cookie, token });
      add({ db, name: SIGN_IN, server, spec: { path: "/" } });
      if (db === "PGlite") {
        const page = await probe(server.url, { path: "/" });
        const file = path.join(ROOT, "public", `bench-static-scale-${page.body.length}.html`);
        cleanups.push(benchFile(file, page.body));
        add({ db, name: "static file, sign-in's size", server, spec: { path: `/${path.basename(file)}` } });
      }
      add({ db, name: FAQ, server, spec: { path: "/faq", headers: { cookie } } });
    }

    // The product's route table grown to ~150 routes (bench/dummy-routes.ts).
    progress(`scale: PGlite server with ${settings.dummyRoutes} routes`);
    const grown = await start({
      demoData: true,
      label: "scale-routes",
      nodeArgs: ["--import", "./bench/dummy-routes.ts"],
      env: { BENCH_DUMMY_ROUTES: String(settings.dummyRoutes) },
    });
    add({ db: "PGlite", name: `${SIGN_IN}, ${settings.dummyRoutes} routes`, server: grown, spec: { path: "/" } });

    let made = 0;
    for (const size of SIZES) {
      // Both databases hold the same demo data, so they get the same names.
      const count = size - (await companyTotal(apps[0]!.server.url, apps[0]!.token));
      const names = Array.from({ length: count }, (_, i) => scaleName(made + i));
      const matches = Array.from({ length: made + count }, (_, i) => scaleName(i)).filter((name) =>
        name.endsWith(SEARCH_WORD),
      ).length;
      for (const { db, server, cookie, token } of apps) {
        progress(`scale: ${db} importing ${count} sectors (company total ${size})`);
        const ms = await importSectors(server.url, token, names);
        progress(`  imported in ${fmt.int(ms)} ms`);
        const total = await companyTotal(server.url, token);
        if (total !== size) throw new Error(`scale ${db}: the company holds ${total} sectors, not ${size}`);
        add({
          db,
          name: listName(size),
          server,
          spec: { path: LIST_PAGE, headers: { cookie } },
          verify: (body) => checkWebPage(body),
        });
        add({
          db,
          name: apiName(size),
          server,
          spec: { path: API_SEARCH, headers: { authorization: `Bearer ${token}` } },
          verify: (body) => checkApiPage(body, { total: matches, page: 1, search: SEARCH }),
        });
      }
      made += count;
      // First everything at 10,000 (the ratios' pairs), then the two 50,000 cases of each database.
      await measure(cases.filter((entry) => entry.loads.length === 0));
    }
  } finally {
    // Last in, first out: servers stop before their data directory and database go.
    for (const cleanup of cleanups.reverse()) await cleanup();
    // The floor's build output is not kept: lint and formatting checks run over the tree.
    for (const dir of ["build", "public", ".cache"]) rmSync(path.join(floorDir, dir), { recursive: true, force: true });
  }
  return report(cases, settings);
}

const withEncoding = (spec: RequestSpec, acceptEncoding: string): RequestSpec => ({
  ...spec,
  headers: { "accept-encoding": acceptEncoding, ...spec.headers },
});

async function companyTotal(baseUrl: string, token: string) {
  const page = await requestJson<{ total: number }>(baseUrl, {
    path: `/api/setor?companyId=${COMPANY_ID}&page=1&size=20`,
    headers: { authorization: `Bearer ${token}` },
  });
  return page.total;
}

async function report(cases: Case[], settings: ScaleSettings) {
  const lines: string[] = [];
  const mid = (entry: Case, pick: (load: LoadResult) => number | undefined) => {
    const values = entry.loads.map(pick).filter((value): value is number => value !== undefined);
    return values.length ? median(values) : undefined;
  };
  lines.push(
    formatTable(
      [
        "database",
        "case",
        ">body on the wire",
        ">body decoded",
        ">req/s",
        ">rounds' req/s",
        ">p50 ms",
        ">p95 ms",
        ">server CPU ms/req",
      ],
      cases.map((entry) => [
        entry.db,
        entry.name,
        `${fmt.bytes(entry.probe!.wireBytes)} (${entry.probe!.headers["content-encoding"] ?? "none"})`,
        fmt.bytes(entry.probe!.body.length),
        fmt.int(mid(entry, (load) => load.rps)),
        entry.loads.map((load) => fmt.int(load.rps)).join(" "),
        fmt.ms(mid(entry, (load) => load.p50)),
        fmt.ms(mid(entry, (load) => load.p95)),
        fmt.ratio(mid(entry, (load) => load.cpuMsPerRequest)),
      ]),
    ),
  );
  const find = (db: string, name: string) => cases.find((entry) => entry.db === db && entry.name === name);
  /** The median over rounds of a / b, each pair from the same round. */
  const ratioOf = (a: Case | undefined, b: Case | undefined) =>
    a && b && a.loads.length === b.loads.length
      ? median(a.loads.map((load, round) => load.rps / b.loads[round]!.rps))
      : undefined;
  const targets: string[][] = [];
  const check = (label: string, value: number | undefined, target: number, atLeast = true) => {
    if (value === undefined || !Number.isFinite(value)) return;
    const met = atLeast ? value >= target : value <= target;
    targets.push([label, fmt.ratio(value), `${atLeast ? "≥" : "≤"} ${target}`, met ? "met" : "MISSED"]);
  };
  const floor = find("-", FLOOR);
  check("sign-in page / bare Remix page (req/s), current route table", ratioOf(find("PGlite", SIGN_IN), floor), 0.6);
  check(
    `sign-in page / bare Remix page (req/s), ${settings.dummyRoutes} routes`,
    ratioOf(find("PGlite", `${SIGN_IN}, ${settings.dummyRoutes} routes`), floor),
    0.6,
  );
  for (const [db, target] of [
    ["PGlite", 0.35],
    ["PostgreSQL", 0.5],
  ] as const) {
    check(
      `${db}: list page 20 of 10,000 searched / sign-in page (req/s)`,
      ratioOf(find(db, listName(10_000)), find(db, SIGN_IN)),
      target,
    );
  }
  // The restatement docs/performance.md proposes: the list against the same signed-in frame without the list.
  for (const db of ["PGlite", "PostgreSQL"]) {
    const ratio = ratioOf(find(db, listName(10_000)), find(db, FAQ));
    if (ratio !== undefined)
      targets.push([`${db}: list page 20 of 10,000 searched / ${FAQ} (no target)`, fmt.ratio(ratio), "", ""]);
  }
  const list = find("PGlite", listName(10_000));
  check("PGlite: list page 20 of 10,000 searched, p95 ms", list && mid(list, (load) => load.p95), 150, false);
  const api = find("PGlite", apiName(50_000));
  check("PGlite: API list search at 50,000 rows, req/s", api && mid(api, (load) => load.rps), 250);
  const pgApi = find("PostgreSQL", apiName(50_000));
  if (pgApi)
    targets.push([
      "PostgreSQL: API list search at 50,000 rows, req/s (no target)",
      fmt.int(mid(pgApi, (load) => load.rps)),
      "",
      "",
    ]);

  const budget = await measureJsBudget(ROOT);
  const backOffice = budget.filter((row) => row.budget === JS_BUDGET_BYTES);
  const field = budget.filter((row) => row.budget === FIELD_JS_BUDGET_BYTES);
  const largest = (rows: typeof budget) => (Math.max(0, ...rows.map((row) => row.gzipBytes)) / 1024).toFixed(1);
  const missed = (rows: typeof budget) => (rows.some((row) => row.gzipBytes > row.budget) ? "MISSED" : "met");
  targets.push(["largest page's JS, KB gzip", largest(backOffice), "≤ 120", missed(backOffice)]);
  targets.push(["largest field page's JS (script + service worker), KB gzip", largest(field), "≤ 30", missed(field)]);
  lines.push(
    "",
    `Targets (issue 9 'Done when'; medians of ${settings.rounds} interleaved rounds, a ratio from pairs of the same round)`,
    formatTable(["figure", ">value", "target", ""], targets),
  );
  const table = jsBudgetTable(budget);
  lines.push(
    "",
    "JS per page (first load: entry + every route module and import from root down; gzip -9)",
    formatTable(table.headers, table.rows),
  );
  return lines.join("\n");
}
