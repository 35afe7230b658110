/**
 * The catalogue Excel export at 10,000 and 100,000 rows: the web URL a user clicks ('Exportar Excel' with page size
 * 'Todos'), signed in. Each size gets its own data dir and a FRESH server process for the downloads, so the server's
 * peak RSS (VmHWM) belongs to that size: the rows are imported by a first server (CSV imports, the fastest path over
 * HTTP), which is stopped; a second server on the same dir serves only sign-in and the downloads.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { Readable } from "node:stream";

import ExcelJS from "exceljs";

import { DEMO_PASSWORD } from "../api/db/seed.ts";
import { CSV_MAX_ROWS } from "../api/domain/catalogue-csv.ts";
import { CATALOGUES } from "../api/domain/catalogues.ts";

import type { BenchContext } from "./cases.ts";
import { importSectors, listTotal, WORDS } from "./catalogues.ts";
import { apiSignIn, fmt, formatTable, median, probe, ROOT, signIn, startServer, tempDir } from "./lib.ts";
import type { ReportExportRun } from "./report-export-child.ts";

/** The page-size value the list's 'Todos' option puts in the URL (app/lib/list-params.ts); 'Todos' itself means 20. */
export const EXPORT_PATH = "/setores/exportar.xlsx?tamanho=todos";
export const EXPORT_TARGETS = { timeRatio: 11, peakRssRatio: 1.5, xlsxOverCsv: 3 };
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export type ExportRow = {
  rows: number;
  /** Sectors imported on top of the demo data so that the company holds exactly `rows`. */
  imported: number;
  seedMs: number;
  downloadsMs: number[];
  medianMs: number;
  wireBytes: number;
  fileBytes: number;
  /** The download server's VmRSS / VmHWM after sign-in, before the first download (kB). */
  rssBeforeKb: number | undefined;
  hwmBeforeKb: number | undefined;
  /** VmHWM after the downloads: the server process's peak RSS (kB). */
  peakRssKb: number | undefined;
};

/** VmRSS and VmHWM (peak RSS) of a process, in kB, from /proc (Linux only; undefined elsewhere). */
export function processMemory(pid: number | undefined) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
      return match ? Number(match[1]) : undefined;
    };
    return { rssKb: field("VmRSS"), hwmKb: field("VmHWM") };
  } catch {
    return { rssKb: undefined, hwmKb: undefined };
  }
}

/** A small BenchContext for one server (the list total helpers take one). */
function contextFor(baseUrl: string, dataDir: string): BenchContext {
  let token: Promise<string> | undefined;
  let cookie: Promise<string> | undefined;
  return {
    baseUrl,
    dataDir,
    signIn: () => (cookie ??= signIn(baseUrl, "admin@demo.com.br", DEMO_PASSWORD)),
    apiToken: () => (token ??= apiSignIn(baseUrl, "admin@demo.com.br", DEMO_PASSWORD)),
  };
}

/** Imports sectors into branch 1 (CSV files of at most CSV_MAX_ROWS rows) until the company holds `rows` sectors. */
async function seedSectors(context: BenchContext, rows: number, progress: (message: string) => void) {
  const before = await listTotal(context, "setores");
  const count = rows - before;
  if (count < 0) throw new Error(`export setup: the demo data already holds ${before} sectors, more than ${rows}`);
  const names = Array.from(
    { length: count },
    (_, i) => `Setor exportado ${String(i + 1).padStart(6, "0")} ala ${WORDS[i % WORDS.length]}`,
  );
  let ms = 0;
  for (let start = 0; start < count; start += CSV_MAX_ROWS) {
    const part = names.slice(start, start + CSV_MAX_ROWS);
    progress(`  importing ${fmt.int(part.length)} sectors (${fmt.int(start + part.length)} of ${fmt.int(count)})`);
    ms += await importSectors(context.baseUrl, await context.apiToken(), part);
  }
  const total = await listTotal(context, "setores");
  if (total !== rows) throw new Error(`export setup: the company holds ${total} sectors, expected ${rows}`);
  return { imported: count, ms };
}

/** Reads the downloaded workbook with exceljs's streaming reader: the header, then exactly `rows` named rows. */
export async function checkWorkbook(file: Buffer, rows: number): Promise<string | undefined> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "ignore",
    hyperlinks: "ignore",
  });
  let sheets = 0;
  let seen = 0;
  let header: unknown[] = [];
  let unnamed = 0;
  for await (const sheet of reader) {
    sheets++;
    for await (const row of sheet) {
      seen++;
      if (row.number === 1) header = (row.values as unknown[]).slice(1);
      else if (!String(row.getCell(2).value ?? "").trim()) unnamed++;
    }
  }
  const expectedHeader = ["Empresa", CATALOGUES.setores.title];
  if (sheets !== 1) return `${sheets} sheets, expected 1`;
  if (JSON.stringify(header) !== JSON.stringify(expectedHeader))
    return `header ${JSON.stringify(header)}, expected ${JSON.stringify(expectedHeader)}`;
  if (seen !== rows + 1) return `${seen} rows (with the header), expected ${rows + 1}`;
  if (unnamed) return `${unnamed} data rows without a sector name in column 2`;
  return undefined;
}

export async function measureExport(
  rows: number,
  downloads: number,
  acceptEncoding: string,
  progress: (message: string) => void,
): Promise<ExportRow> {
  const data = tempDir(`export-${rows}`);
  try {
    progress(`export ${fmt.int(rows)} rows: seeding (one server)`);
    const seeder = await startServer({ dataDir: data.dir, demoData: true, label: `export-seed-${rows}` });
    let seeded: Awaited<ReturnType<typeof seedSectors>>;
    try {
      seeded = await seedSectors(contextFor(seeder.url, data.dir), rows, progress);
    } finally {
      await seeder.stop();
    }

    progress(`export ${fmt.int(rows)} rows: ${downloads} downloads of ${EXPORT_PATH} (a fresh server)`);
    const server = await startServer({ dataDir: data.dir, demoData: true, label: `export-${rows}` });
    try {
      const context = contextFor(server.url, data.dir);
      const headers = { cookie: await context.signIn(), "accept-encoding": acceptEncoding };
      const before = processMemory(server.child.pid);
      const times: number[] = [];
      let wireBytes = 0;
      let fileBytes = 0;
      for (let run = 1; run <= downloads; run++) {
        const began = performance.now();
        const response = await probe(server.url, { path: EXPORT_PATH, headers }, 600_000);
        const ms = performance.now() - began;
        const where = `export ${fmt.int(rows)} rows, download ${run}`;
        if (response.status !== 200)
          throw new Error(
            `${where}: status ${response.status}${response.headers.location ? ` (location ${response.headers.location})` : ""}; ` +
              `the server log ends:\n${logTail(server.logFile)}`,
          );
        if (response.headers["content-type"] !== XLSX_TYPE)
          throw new Error(`${where}: content-type ${response.headers["content-type"]}`);
        if (
          !/^attachment; filename="listagem-setores-\d\d-\d\d-\d{4}\.xlsx"$/.test(
            response.headers["content-disposition"] ?? "",
          )
        )
          throw new Error(`${where}: content-disposition ${response.headers["content-disposition"]}`);
        // Checked between downloads (not timed), so a broken or short file cannot pass as a fast one.
        const wrong = await checkWorkbook(response.body, rows);
        if (wrong) throw new Error(`${where}: the workbook is wrong: ${wrong}`);
        times.push(ms);
        wireBytes = response.wireBytes;
        fileBytes = response.body.length;
        progress(`  download ${run}: ${fmt.int(ms)} ms, ${fmt.bytes(fileBytes)}, ${fmt.int(rows)} rows checked`);
      }
      const after = processMemory(server.child.pid);
      return {
        rows,
        imported: seeded.imported,
        seedMs: seeded.ms,
        downloadsMs: times,
        medianMs: median(times),
        wireBytes,
        fileBytes,
        rssBeforeKb: before.rssKb,
        hwmBeforeKb: before.hwmKb,
        peakRssKb: after.hwmKb,
      };
    } finally {
      await server.stop();
    }
  } finally {
    data.remove();
  }
}

const logTail = (file: string) =>
  existsSync(file) ? readFileSync(file, "utf8").trimEnd().split("\n").slice(-8).join("\n").slice(-3_000) : "(no log)";

const mb = (kb: number | undefined) => (kb === undefined ? "-" : `${fmt.ms(kb / 1024)} MB`);

export function exportTable(rows: ExportRow[]) {
  return formatTable(
    [
      ">rows",
      ">imported (ms)",
      ">downloads (ms)",
      ">median ms",
      ">file",
      ">on the wire",
      ">RSS before",
      ">peak RSS before",
      ">peak RSS after (VmHWM)",
    ],
    rows.map((row) => [
      fmt.int(row.rows),
      `${fmt.int(row.imported)} (${fmt.int(row.seedMs)})`,
      row.downloadsMs.map((ms) => fmt.int(ms)).join(" / "),
      fmt.int(row.medianMs),
      fmt.bytes(row.fileBytes),
      fmt.bytes(row.wireBytes),
      mb(row.rssBeforeKb),
      mb(row.hwmBeforeKb),
      mb(row.peakRssKb),
    ]),
  );
}

/** A ratio next to its target (printed; a missed target is reported, not a failure of the run). */
const ratioLine = (label: string, value: number | undefined, target: number) =>
  value === undefined || !Number.isFinite(value)
    ? `${label}: - (no figure)`
    : `${label}: ${fmt.ratio(value)}  (target ≤ ${target}: ${value <= target ? "met" : "MISSED"})`;

/** The 100k/10k ratios next to their targets. */
export function exportRatios(rows: ExportRow[]) {
  const small = rows.find((row) => row.rows === 10_000);
  const big = rows.find((row) => row.rows === 100_000);
  if (!small || !big) return ["ratios 100k/10k: need both sizes (BENCH_EXPORT_100K=0 skips the 100k one)"];
  return [
    ratioLine("time 100k/10k (median download)", big.medianMs / small.medianMs, EXPORT_TARGETS.timeRatio),
    ratioLine(
      "peak RSS 100k/10k (VmHWM)",
      big.peakRssKb !== undefined && small.peakRssKb ? big.peakRssKb / small.peakRssKb : undefined,
      EXPORT_TARGETS.peakRssRatio,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The report rows (issue 23): 10,000 and 100,000 rows of the spec's 20-column report row through the app's streaming
// xlsx writer, and the same rows as CSV, each format and size in a fresh child (bench/report-export-child.ts), so
// that each peak RSS is its own. No server and no database: the rows are made in the child, in chunks of 500 as
// keyset pages arrive, so the figures are the writer's.

export type ReportExportRow = ReportExportRun & { medianMs: number };

function reportExportChild(format: "xlsx" | "csv", rows: number, runs: number): Promise<ReportExportRow> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "bench/report-export-child.ts", format, String(rows), String(runs)],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || !line.startsWith("{"))
        reject(new Error(`report export child exited ${code}: ${out.slice(-500)}`));
      else {
        const run = JSON.parse(line) as ReportExportRun;
        resolve({ ...run, medianMs: median(run.ms) });
      }
    });
  });
}

export async function measureReportExports(
  sizes: number[],
  runs: number,
  progress: (message: string) => void,
): Promise<ReportExportRow[]> {
  const results: ReportExportRow[] = [];
  for (const format of ["xlsx", "csv"] as const)
    for (const rows of sizes) {
      progress(`report export: ${format}, ${fmt.int(rows)} rows, ${runs} run(s) in a fresh child`);
      results.push(await reportExportChild(format, rows, runs));
    }
  return results;
}

export function reportExportTable(rows: ReportExportRow[]) {
  const table = formatTable(
    ["format", ">rows", ">runs (s)", ">median s", ">rows/s", ">file", ">peak RSS (VmHWM)"],
    rows.map((row) => [
      row.format,
      fmt.int(row.rows),
      row.ms.map((ms) => fmt.ratio(ms / 1000)).join(" / "),
      fmt.ratio(row.medianMs / 1000),
      fmt.int(row.rows / (row.medianMs / 1000)),
      fmt.bytes(row.bytes),
      mb(row.maxRssKb),
    ]),
  );
  const find = (format: string, size: number) => rows.find((row) => row.format === format && row.rows === size);
  const [small, big] = [find("xlsx", 10_000), find("xlsx", 100_000)];
  const lines = [table];
  if (small && big) {
    lines.push(
      ratioLine("xlsx time 100k/10k (median)", big.medianMs / small.medianMs, EXPORT_TARGETS.timeRatio),
      ratioLine("xlsx peak RSS 100k/10k", big.maxRssKb / small.maxRssKb, EXPORT_TARGETS.peakRssRatio),
    );
  }
  for (const size of [10_000, 100_000]) {
    const [xlsx, csv] = [find("xlsx", size), find("csv", size)];
    if (xlsx && csv)
      lines.push(
        ratioLine(`xlsx/CSV time, ${fmt.int(size)} rows`, xlsx.medianMs / csv.medianMs, EXPORT_TARGETS.xlsxOverCsv),
      );
  }
  return lines.join("\n");
}
