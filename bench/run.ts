/**
 * The benchmark suite (`npm run bench`): server start-up times, then requests per second and latency for each case
 * in bench/cases.ts next to a static file of the same size served by the same server, the CSV imports, and the
 * catalogue Excel export at 10,000 and 100,000 rows (bench/export.ts), and the bulk QR PDF of 500 environments
 * (bench/qr-pdf.ts), report PDFs through the server's PDF pool while /healthz is probed (bench/pdf-pool.ts), and
 * scheduling (bench/scheduling.ts: a year of 20 cleanings a day, a month over 2,000 agendas, the demo simulator), and
 * the history reports over a year of ~1,000,000 history rows with their Excel exports (bench/reports.ts), and the
 * scored inspections over 100,000 inspections of a year (bench/inspections.ts), and the field app's 'Hoje' over 1,000
 * cleaners' days (bench/field-day.ts). See bench/README.md.
 */
import os from "node:os";
import path from "node:path";

import { DEMO_PASSWORD } from "../api/db/seed.ts";

import { CASES, type BenchCase, type BenchContext } from "./cases.ts";
import {
  madeListData,
  IMPORT_ROWS,
  importMedians,
  LIST_BRANCH_ID,
  LIST_ROWS,
  measureImports,
  SEARCH_MATCHES,
  SEARCH_TERM,
  type ImportRow,
} from "./catalogues.ts";
import { environmentsReport, measureEnvironments } from "./environments.ts";
import { EXPORT_FLOOD_TARGETS, exportFloodReport, measureExportFlood } from "./export-flood.ts";
import {
  EXPORT_PATH,
  exportRatios,
  exportTable,
  measureExport,
  measureReportExports,
  reportExportTable,
  type ExportRow,
} from "./export.ts";
import { fieldDayReport, measureFieldDay } from "./field-day.ts";
import { fieldWritesReport, measureFieldWrites } from "./field-writes.ts";
import { inspectionsReport, INSPECTIONS, measureInspections } from "./inspections.ts";
import { legacyReport, measureLegacy } from "./legacy.ts";
import {
  apiSignIn,
  benchFile,
  fmt,
  formatTable,
  probe,
  ROOT,
  runCleanups,
  runLoad,
  SERVER_ENV,
  ServerStartError,
  signIn,
  startServer,
  tempDir,
  type LoadResult,
  type ProbeResult,
  type RequestSpec,
  type RunningServer,
} from "./lib.ts";
import { measureSecurityLoad, type SecurityLoadReport } from "./load.ts";
import { measurePdfPool, pdfPoolTable, pdfPoolTargets } from "./pdf-pool.ts";
import { measureQrPdf, qrPdfTable } from "./qr-pdf.ts";
import { measureReports, reportsReport } from "./reports.ts";
import { measureScale } from "./scale.ts";
import { measureScheduling, schedulingReport } from "./scheduling.ts";

const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return process.env[name] && Number.isFinite(value) && value >= 0 ? value : fallback;
};

const SETTINGS = {
  startupRuns: numberFromEnv("BENCH_STARTUP_RUNS", 2),
  connections: numberFromEnv("BENCH_CONNECTIONS", 10),
  durationS: numberFromEnv("BENCH_DURATION", 8),
  warmupS: numberFromEnv("BENCH_WARMUP", 2),
  importFailRuns: numberFromEnv("BENCH_IMPORT_FAIL_RUNS", 3),
  exportDownloads: Math.max(1, numberFromEnv("BENCH_EXPORT_DOWNLOADS", 3)),
  exportSizes: process.env.BENCH_EXPORT_100K === "0" ? [10_000] : [10_000, 100_000],
  scale: process.env.BENCH_SCALE !== "0",
  dummyRoutes: numberFromEnv("BENCH_DUMMY_ROUTES", 150),
  scaleRounds: Math.max(1, numberFromEnv("BENCH_SCALE_ROUNDS", 3)),
  qrPdfEnvironments: numberFromEnv("BENCH_QR_PDF", 500),
  pdfRows: numberFromEnv("BENCH_PDF_ROWS", 2_000),
  environments: process.env.BENCH_ENVIRONMENTS !== "0",
  scheduling: process.env.BENCH_SCHEDULING !== "0",
  reports: process.env.BENCH_REPORTS !== "0",
  legacyRows: numberFromEnv("BENCH_LEGACY_ROWS", 100_000),
  inspections: numberFromEnv("BENCH_INSPECTIONS", INSPECTIONS),
  exportFlood: numberFromEnv("BENCH_EXPORTS", 80),
  fieldWrites: process.env.BENCH_FIELD_WRITES !== "0",
  field: process.env.BENCH_FIELD !== "0",
  reportExportRuns: Math.max(1, numberFromEnv("BENCH_REPORT_EXPORT_RUNS", 3)),
  only: process.env.BENCH_ONLY,
  acceptEncoding: "gzip, deflate, br",
};

const progress = (message: string) => console.error(`[bench] ${message}`);
const problems: string[] = [];

// ---------------------------------------------------------------------------------------------------------------
// 1. Start-up.

type StartupRow = { scenario: string; run: number; server: RunningServer; expectSeeded: boolean };

async function measureStartups() {
  const rows: StartupRow[] = [];
  let seededDir: ReturnType<typeof tempDir> | undefined;
  for (let run = 1; run <= SETTINGS.startupRuns; run++) {
    const empty = tempDir("empty");
    progress(`start-up run ${run}: empty database`);
    await record(rows, "empty DB (DEMO_DATA=false, fresh dir)", run, false, {
      dataDir: empty.dir,
      demoData: false,
      label: "empty",
    });
    empty.remove();

    seededDir?.remove();
    seededDir = tempDir("demo");
    progress(`start-up run ${run}: demo database, first start (seeds)`);
    await record(rows, "demo DB, 1st start (fresh dir, seeds)", run, true, {
      dataDir: seededDir.dir,
      demoData: true,
      label: "demo-1",
    });
    progress(`start-up run ${run}: demo database, second start`);
    await record(rows, "demo DB, 2nd start (already seeded)", run, false, {
      dataDir: seededDir.dir,
      demoData: true,
      label: "demo-2",
    });
  }
  return { rows, seededDir };
}

async function record(
  rows: StartupRow[],
  scenario: string,
  run: number,
  expectSeeded: boolean,
  options: Parameters<typeof startServer>[0],
) {
  const server = await startServer(options);
  await server.stop();
  if (server.seeded !== expectSeeded)
    problems.push(`${scenario} run ${run}: the server logged seeded=${server.seeded}, expected ${expectSeeded}`);
  rows.push({ scenario, run, server, expectSeeded });
}

function startupTable(rows: StartupRow[]) {
  const scenarios = [...new Set(rows.map((row) => row.scenario))];
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const cells = (spawnToHealthy: number, startupMs: number | undefined) => [
    fmt.int(spawnToHealthy),
    fmt.int(startupMs),
    fmt.int(startupMs === undefined ? undefined : spawnToHealthy - startupMs),
  ];
  return formatTable(
    ["scenario", ">run", ">spawn → /healthz 200 (ms)", ">server startupMs", ">outside startupMs (ms)", "seeded"],
    scenarios.flatMap((scenario) => {
      const runs = rows.filter((row) => row.scenario === scenario);
      const lines = runs.map(({ run, server }) => [
        scenario,
        String(run),
        ...cells(server.spawnToHealthyMs, server.startupMs),
        String(server.seeded ?? "?"),
      ]);
      if (runs.length > 1) {
        const logged = runs.map(({ server }) => server.startupMs).filter((value) => value !== undefined);
        lines.push([
          "",
          "median",
          ...cells(
            median(runs.map(({ server }) => server.spawnToHealthyMs)),
            logged.length === runs.length ? median(logged) : undefined,
          ),
          "",
        ]);
      }
      return lines;
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Load.

type Measured = { label: string; spec: RequestSpec; probe: ProbeResult; load: LoadResult };
type CaseResult = { name: string; page: Measured; static?: Measured };

async function measureCases(dataDir: string) {
  progress("starting the server for the load cases (demo database)");
  const server = await startServer({ dataDir, demoData: true, label: "load" });
  const sessions = new Map<string, string>();
  const tokens = new Map<string, Promise<string>>();
  const context: BenchContext = {
    baseUrl: server.url,
    dataDir,
    async signIn(email = "admin@demo.com.br") {
      let cookie = sessions.get(email);
      if (!cookie) sessions.set(email, (cookie = await signIn(server.url, email, DEMO_PASSWORD)));
      return cookie;
    },
    apiToken(email = "admin@demo.com.br") {
      let token = tokens.get(email);
      if (!token) tokens.set(email, (token = apiSignIn(server.url, email, DEMO_PASSWORD)));
      return token;
    },
  };
  const results: CaseResult[] = [];
  let imports: ImportRow[] = [];
  let security: SecurityLoadReport | undefined;
  try {
    for (const benchCase of CASES) results.push(await measureCase(server.url, context, benchCase));
    // The security load check (issue 7): 50 connections, alone and while password-reset requests flood the server.
    const auth = { cookie: await context.signIn(), token: await context.apiToken() };
    security = await measureSecurityLoad(server.url, auth, {}, progress);
    problems.push(...security.problems);
    // After the load cases, so the sector list they read does not change under them.
    progress(`CSV imports of ${IMPORT_ROWS} rows`);
    imports = await measureImports(context, SETTINGS.importFailRuns, problems, progress);
  } finally {
    await server.stop();
  }
  return { results, imports, security };
}

async function measureCase(baseUrl: string, context: BenchContext, benchCase: BenchCase): Promise<CaseResult> {
  progress(`case '${benchCase.name}'`);
  const overrides = (await benchCase.setup?.(context)) ?? {};
  const headers: Record<string, string> = { "accept-encoding": SETTINGS.acceptEncoding, ...benchCase.headers };
  if (benchCase.account) headers.cookie = await context.signIn(benchCase.account);
  const spec: RequestSpec = {
    method: benchCase.method ?? "GET",
    path: benchCase.path,
    body: benchCase.body,
    ...overrides,
    headers: { ...headers, ...overrides.headers },
  };
  const expectStatus = benchCase.expectStatus ?? 200;

  const page = await measure(
    baseUrl,
    `${spec.method} ${spec.path}`,
    spec,
    expectStatus,
    benchCase.verify && ((body) => benchCase.verify!(body, context)),
  );
  if (!(benchCase.compareStatic ?? spec.method === "GET")) return { name: benchCase.name, page };

  // The same bytes as the page, so both compress alike; the same request headers too.
  const size = page.probe.body.length;
  const file = path.join(ROOT, "public", `bench-static-${size}.html`);
  const removeFile = benchFile(file, page.probe.body);
  try {
    const staticSpec: RequestSpec = { method: "GET", path: `/${path.basename(file)}`, headers: spec.headers };
    const staticMeasured = await measure(baseUrl, `GET ${staticSpec.path}`, staticSpec, 200);
    if (staticMeasured.probe.body.length !== size) {
      problems.push(
        `${benchCase.name}: the static file answered ${staticMeasured.probe.body.length} bytes, expected ${size}`,
      );
    }
    return { name: benchCase.name, page, static: staticMeasured };
  } finally {
    removeFile();
  }
}

async function measure(
  baseUrl: string,
  label: string,
  spec: RequestSpec,
  expectStatus: number,
  verify?: (body: Buffer) => Promise<string | undefined> | string | undefined,
): Promise<Measured> {
  const probed = await probe(baseUrl, spec);
  if (probed.status !== expectStatus) {
    throw new Error(
      `${label}: status ${probed.status}, expected ${expectStatus}${probed.headers.location ? ` (location ${probed.headers.location})` : ""}`,
    );
  }
  const wrong = await verify?.(probed.body);
  if (wrong) throw new Error(`${label}: unexpected answer: ${wrong}`);
  progress(`  load ${label} (${SETTINGS.warmupS}s warm-up + ${SETTINGS.durationS}s)`);
  const load = await runLoad(baseUrl, {
    ...spec,
    connections: SETTINGS.connections,
    durationS: SETTINGS.durationS,
    warmupS: SETTINGS.warmupS,
  });
  const unexpected = Object.entries(load.statusCodes).filter(([code]) => Number(code) !== expectStatus);
  if (unexpected.length || load.errors) {
    problems.push(
      `${label}: ${load.errors} errors/timeouts, unexpected statuses ${JSON.stringify(Object.fromEntries(unexpected))}`,
    );
  }
  return { label, spec, probe: probed, load };
}

function loadTable(results: CaseResult[]) {
  const row = (name: string, measured: Measured) => {
    const { probe: probed, load } = measured;
    const encoding = probed.headers["content-encoding"] ?? "none";
    return [
      name,
      measured.label,
      String(probed.status),
      `${fmt.bytes(probed.wireBytes)} (${encoding})`,
      fmt.bytes(probed.body.length),
      fmt.int(load.rps),
      fmt.ms(load.p50),
      fmt.ms(load.p95),
      fmt.ms(load.p99),
      fmt.int(load.requests),
      fmt.int(
        load.errors +
          Object.entries(load.statusCodes)
            .filter(([code]) => Number(code) !== probed.status)
            .reduce((sum, [, n]) => sum + n, 0),
      ),
    ];
  };
  return formatTable(
    [
      "case",
      "request",
      ">status",
      ">body on the wire",
      ">body decoded",
      ">req/s",
      ">p50 ms",
      ">p95 ms",
      ">p99 ms",
      ">requests",
      ">bad",
    ],
    results.flatMap((result) => [
      row(result.name, result.page),
      ...(result.static ? [row("  same-size static file", result.static)] : []),
    ]),
  );
}

function overheadTable(results: CaseResult[]) {
  const compared = results.filter((result) => result.static);
  return formatTable(
    [
      "case",
      ">page req/s",
      ">static req/s",
      ">page/static req/s",
      ">page p50 ms",
      ">static p50 ms",
      ">page/static p50",
    ],
    compared.map(({ name, page, static: still }) => [
      name,
      fmt.int(page.load.rps),
      fmt.int(still!.load.rps),
      fmt.ratio(page.load.rps / still!.load.rps),
      fmt.ms(page.load.p50),
      fmt.ms(still!.load.p50),
      fmt.ratio(page.load.p50 / still!.load.p50),
    ]),
  );
}

function importTable(rows: ImportRow[]) {
  const lines = rows.map((row) => [
    row.label,
    `${row.kind} → branch ${row.branchId}`,
    fmt.int(row.rows),
    String(row.status),
    row.answer,
    fmt.int(row.ms),
    fmt.int(row.rows / (row.ms / 1000)),
    `${fmt.int(row.before)} → ${fmt.int(row.after)}`,
  ]);
  for (const group of importMedians(rows)) {
    lines.push([
      `median (${group.runs} runs): ${group.key}`,
      "",
      fmt.int(group.rows),
      "",
      "",
      fmt.int(group.ms),
      fmt.int(group.rows / (group.ms / 1000)),
      "",
    ]);
  }
  return formatTable(
    ["import", "into", ">rows", ">status", "answer", ">wall ms", ">rows/s", ">branch total before → after"],
    lines,
  );
}

// ---------------------------------------------------------------------------------------------------------------

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");

async function main() {
  const began = performance.now();
  console.log("Limpeza benchmarks");
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? "?"}), server: NODE_ENV=${SERVER_ENV.NODE_ENV} LOG_LEVEL=${SERVER_ENV.LOG_LEVEL}, PGlite in a temp DATA_DIR`,
  );
  console.log(`load average at start (1/5/15 min): ${loadAverage()}`);
  console.log(
    `load: autocannon from this process, ${SETTINGS.connections} connections, ${SETTINGS.warmupS}s warm-up + ${SETTINGS.durationS}s measured, accept-encoding: ${SETTINGS.acceptEncoding}`,
  );

  if (SETTINGS.only === "scale") return runScale();
  if (SETTINGS.only === "qr-pdf") return runQrPdf();
  if (SETTINGS.only === "pdf") return runPdfPool();
  if (SETTINGS.only === "environments") return runEnvironments();
  if (SETTINGS.only === "scheduling") return runScheduling();
  if (SETTINGS.only === "reports") return runReports();
  if (SETTINGS.only === "legacy") return runLegacy();
  if (SETTINGS.only === "inspections") return runInspections();
  if (SETTINGS.only === "exports") return runExportFlood();
  if (SETTINGS.only === "field-writes") return runFieldWrites();
  if (SETTINGS.only === "field") return runFieldDay();

  const startups = await measureStartups();
  if (startups.rows.length) {
    console.log(`\nServer start-up (${SETTINGS.startupRuns} run(s) each; node --import tsx server.ts)`);
    console.log(startupTable(startups.rows));
  }

  // The load server reuses the demo dir seeded above (or seeds a fresh one when start-up runs are off).
  const demoDir = startups.seededDir ?? tempDir("demo");
  const { results, imports, security } = await measureCases(demoDir.dir);
  if (security) console.log(`\nLoad check under a password-reset flood (bench/load.ts)\n${security.table}`);
  demoDir.remove();
  const list = await madeListData();
  console.log(`\nThroughput and latency (one server, demo database)`);
  if (list)
    console.log(
      `List cases: ${fmt.int(LIST_ROWS)} sectors imported into branch ${LIST_BRANCH_ID} (one CSV, ${fmt.int(list.importMs)} ms) before them; ` +
        `${fmt.int(list.total)} sectors in the company's list, '${SEARCH_TERM}' matches ${fmt.int(SEARCH_MATCHES)}; 20 a page, sorted by name descending.`,
    );
  console.log(loadTable(results));
  console.log(`\nOverhead against a static file of the same size (page/static < 1 means the page is slower)`);
  console.log(overheadTable(results));
  if (imports.length) {
    console.log(
      `\nCSV import (POST /api/cadastroViaCSV/..., ${fmt.int(IMPORT_ROWS)} rows, one request each, after the load cases; wall time = request sent → answer received)`,
    );
    console.log(importTable(imports));
  }

  // Last: each size runs its own servers, after the load server has stopped.
  const exports: ExportRow[] = [];
  for (const rows of SETTINGS.exportSizes)
    exports.push(await measureExport(rows, SETTINGS.exportDownloads, SETTINGS.acceptEncoding, progress));
  console.log(
    `\nExcel export (GET ${EXPORT_PATH} signed in as the admin; the company holds exactly that many sectors; ` +
      `${SETTINGS.exportDownloads} downloads per size, each checked with exceljs's streaming reader; a fresh server per size, VmHWM read after the downloads)`,
  );
  console.log(exportTable(exports));
  for (const line of exportRatios(exports)) console.log(line);

  if (SETTINGS.qrPdfEnvironments) await runQrPdf();
  if (SETTINGS.pdfRows) await runPdfPool();
  if (SETTINGS.environments) await runEnvironments();
  if (SETTINGS.scheduling) await runScheduling();
  if (SETTINGS.reports) await runReports();
  if (SETTINGS.legacyRows) await runLegacy();
  if (SETTINGS.inspections) await runInspections();
  if (SETTINGS.exportFlood) await runExportFlood();
  if (SETTINGS.fieldWrites) await runFieldWrites();
  if (SETTINGS.field) await runFieldDay();
  if (SETTINGS.scale) await runScale();

  console.log(`\nload average at end (1/5/15 min): ${loadAverage()}`);
  console.log(`Total time ${fmt.int((performance.now() - began) / 1000)} s`);
  if (problems.length) {
    console.log(
      `\nPROBLEMS (the figures above may be wrong):\n${problems.map((problem) => `  - ${problem}`).join("\n")}`,
    );
    process.exitCode = 1;
  }
}

/** The bulk QR PDF (bench/qr-pdf.ts): seconds and memory for BENCH_QR_PDF environments (500; 0 skips it). */
async function runQrPdf() {
  const result = await measureQrPdf(SETTINGS.qrPdfEnvironments || 500, 3, progress);
  problems.push(...result.problems);
  console.log(
    `\nBulk QR PDF (app/lib/qr-codes.server.ts qrPdf: ${fmt.int(result.environments)} environments pulled in chunks of 100, ` +
      `one A4 page each, read as a download; 3 runs in a fresh child process, memory sampled every 5 ms)`,
  );
  console.log(qrPdfTable(result));
  if (SETTINGS.only === "qr-pdf" && problems.length) {
    console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    process.exitCode = 1;
  }
}

/** Report PDFs (bench/pdf-pool.ts): BENCH_PDF_ROWS rows (2,000; 0 skips it) built by a server's pool, /healthz probed. */
async function runPdfPool() {
  const result = await measurePdfPool({ rows: SETTINGS.pdfRows || 2_000 }, progress);
  problems.push(...result.problems);
  console.log(
    `\nReport PDFs through the server's PDF pool (api/lib/pdf-pool.ts; bench/pdf-pool.ts): a server child asked over IPC ` +
      `to build an A4 landscape 10-column report as a route would; GET /healthz sent every 10 ms meanwhile, each timed from when it was due; ` +
      `the same document once on the server's own thread for comparison`,
  );
  console.log(pdfPoolTable(result));
  for (const line of pdfPoolTargets(result)) console.log(line);
  if (SETTINGS.only === "pdf" && problems.length) {
    console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    process.exitCode = 1;
  }
}

/** Environments at scale (bench/environments.ts): the list over 10,000 and the bulk QR PDF of 500 from the web. */
async function runEnvironments() {
  console.log(environmentsReport(await measureEnvironments(SETTINGS, progress, problems)));
  if (SETTINGS.only === "environments" && problems.length) {
    console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    process.exitCode = 1;
  }
}

/** The field app's 'Hoje' and room over 1,000 cleaners' days (bench/field-day.ts), on PGlite and PostgreSQL if set. */
async function runFieldDay() {
  const result = await measureFieldDay(SETTINGS, progress, problems);
  console.log(
    `\nField app (docs/field-app.md; bench/field-day.ts): one cleaner's field session among 1,000 cleaners' days, ` +
      `${SETTINGS.connections} connections`,
  );
  console.log(fieldDayReport(result));
  if (SETTINGS.only === "field" && problems.length) {
    console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    process.exitCode = 1;
  }
}

/** The field app's writes with an Idempotency-Key, first sends and replays (bench/field-writes.ts). */
async function runFieldWrites() {
  const result = await measureFieldWrites(SETTINGS, progress, problems);
  console.log(
    `\nField app writes (docs/field-app.md 'Idempotency'; bench/field-writes.ts), ${SETTINGS.connections} connections`,
  );
  console.log(fieldWritesReport(result));
  if (SETTINGS.only === "field-writes" && problems.length) {
    console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    process.exitCode = 1;
  }
}

/** Scheduling (bench/scheduling.ts): saving a year of 20 cleanings a day, a month over 2,000 agendas, the simulator. */
async function runScheduling() {
  console.log(schedulingReport(await measureScheduling(progress, problems)));
  if (SETTINGS.only === "scheduling" && problems.length) {
    console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    process.exitCode = 1;
  }
}

/**
 * The history reports (issue 23; bench/reports.ts): each report's first page and drill-down over a year of ~1,000,000
 * history rows on PGlite (and PostgreSQL with DATABASE_URL), then 10,000 and 100,000 report rows as xlsx and CSV.
 * Alone (BENCH_ONLY=reports) it ends with the report PDF through the pool (bench/pdf-pool.ts), the issue's third figure.
 */
async function runReports() {
  const result = await measureReports(SETTINGS, progress, problems);
  console.log(
    `\nHistory reports (issue 23, bench/reports.ts): a year of history written by SQL, then each report's first page and ` +
      `drill-down over the whole year, API token of the demo admin, ${SETTINGS.connections} connections`,
  );
  console.log(reportsReport(result));
  const exports = await measureReportExports([10_000, 100_000], SETTINGS.reportExportRuns, progress);
  console.log(
    `\nReport rows as Excel and CSV (20 columns of spec 001 §3's report row, in chunks of 500; app/lib/xlsx.server.ts ` +
      `xlsxResponse with its body drained, and papaparse into a drained stream; each format and size in a fresh child ` +
      `process, ${SETTINGS.reportExportRuns} run(s) after a 500-row warm-up)`,
  );
  console.log(reportExportTable(exports));
  if (SETTINGS.only === "reports") {
    if (SETTINGS.pdfRows) await runPdfPool();
    console.log(`\nload average at end (1/5/15 min): ${loadAverage()}`);
    if (problems.length) {
      console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
      process.exitCode = 1;
    }
  }
}

/** The old system's import (bench/legacy.ts): BENCH_LEGACY_ROWS rows (100,000; 0 skips it) by the CLI, twice. */
async function runLegacy() {
  const result = await measureLegacy(SETTINGS.legacyRows || 100_000, progress);
  console.log(
    `\nOld-system import (issue 24 part 4; npm run import:legacy in a child process, PGlite under a temp DATA_DIR with ` +
      `the demo data): ${fmt.int(result.rows)} rows, ${(result.bytes / 1024 / 1024).toFixed(1)} MB of CSV, then the same file again`,
  );
  console.log(legacyReport(result));
  if (SETTINGS.only === "legacy") console.log(`\nload average at end (1/5/15 min): ${loadAverage()}`);
}

/**
 * Scored inspections (issue 29; bench/inspections.ts): BENCH_INSPECTIONS (100,000; 0 skips it) inspections of a year
 * with ~6 answers each written by SQL, then the list (first, deep, one branch, 31 days), the scores by week and by room
 * over 366 days, the audit dashboard's board 9 and the /inspecoes page under load, on PGlite (and PostgreSQL with
 * DATABASE_URL).
 */
async function runInspections() {
  const result = await measureInspections(
    { ...SETTINGS, inspections: SETTINGS.inspections || INSPECTIONS },
    progress,
    problems,
  );
  console.log(
    `\nScored inspections (issue 29, bench/inspections.ts): ${fmt.int(SETTINGS.inspections || INSPECTIONS)} inspections ` +
      `over a year written by SQL, then the list, the scores and the page, API token (page: cookie) of the demo admin, ` +
      `${SETTINGS.connections} connections`,
  );
  console.log(inspectionsReport(result));
  if (SETTINGS.only === "inspections") {
    console.log(`\nload average at end (1/5/15 min): ${loadAverage()}`);
    if (problems.length) {
      console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
      process.exitCode = 1;
    }
  }
}

/**
 * The export flood (issue 39 item 2; bench/export-flood.ts): BENCH_EXPORTS (80; 0 skips it) downloads at once from one
 * user over a year of history on PGlite, with /livez, a list page and the RSS measured meanwhile.
 */
async function runExportFlood() {
  const result = await measureExportFlood(progress);
  console.log(
    `\nExport flood (issue 39 item 2, bench/export-flood.ts): ${result.exports} downloads at once from one user ` +
      `(a year of the heavy reports, their PDFs, lighter files), each an export job (docs/exports.md)`,
  );
  console.log(exportFloodReport(result));
  const t = EXPORT_FLOOD_TARGETS;
  if (result.outcomes.failed) problems.push(`export flood: ${result.outcomes.failed} export(s) failed`);
  if (result.livez.p99 > t.livezP99Ms)
    problems.push(`export flood: /livez p99 ${fmt.ms(result.livez.p99)} ms > ${t.livezP99Ms}`);
  if (result.listP95 > t.listP95Ms)
    problems.push(`export flood: list page p95 ${fmt.ms(result.listP95)} ms > ${t.listP95Ms}`);
  if (result.rssMaxMb > t.rssMb) problems.push(`export flood: RSS ${fmt.int(result.rssMaxMb)} MB > ${t.rssMb}`);
}

/** Speed at scale (bench/scale.ts): the framework floor, 10,000 and 50,000 rows on both databases, the JS budget. */
async function runScale() {
  const report = await measureScale({ ...SETTINGS, rounds: SETTINGS.scaleRounds }, progress, problems);
  console.log(
    `\nScale (issue 9): bare Remix floor, sign-in, list and API search at 10,000 and 50,000 sectors, PGlite and PostgreSQL`,
  );
  console.log(report);
  if (SETTINGS.only === "scale") {
    console.log(`\nload average at end (1/5/15 min): ${loadAverage()}`);
    if (problems.length) {
      console.log(`\nPROBLEMS:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
      process.exitCode = 1;
    }
  }
}

main()
  .catch((error) => {
    console.error(error instanceof ServerStartError ? `\nThe server failed to start: ${error.message}` : error);
    process.exitCode = 1;
  })
  .finally(runCleanups);
