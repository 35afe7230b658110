/**
 * The export flood (issue 39 item 2, bench/README.md §10, `BENCH_ONLY=exports`): one signed-in user asks for many
 * Excel and PDF downloads at once on PGlite, over the bench's year of history (bench/history-data.ts), while this
 * process probes /livez every 20 ms (each timed from when it was due, so a stalled event loop shows), a list page
 * every 250 ms, and the server's RSS. Every download is an export job (docs/exports.md): a request answers the file
 * or a 303 to its progress page, which the client follows by polling the job's file. Printed: exports delivered,
 * refused (a page's own refusal, e.g. a PDF over its row limit), still queued when the wait ended, and failed, the time to the last, /livez p50/p99/max,
 * the list page's p95, and the most RSS. Targets: /livez p99 ≤ 100 ms, list page p95 ≤ 500 ms, every export delivered
 * or refused by its page (none failed), RSS ≤ 1 GB.
 *
 * BENCH_EXPORTS sets how many (default 80); BENCH_EXPORT_TIMEOUT_S how long to wait for the last (default 900).
 * BENCH_EXPORT_DATA names a directory where the migrated year is built once and copied from on later runs (A/B runs
 * of the same data, e.g. PGLITE_WORKER=0 and 1, without minutes of set-up each; delete it to build anew).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { openDatabase } from "../api/db/connection.ts";
import { migrate } from "../api/db/migrate.ts";
import { DEMO_PASSWORD, seedDemo } from "../api/db/seed.ts";

import { writeHistory } from "./history-data.ts";
import { fmt, formatTable, percentile, probe, signIn, sleep, startServer, tempDir } from "./lib.ts";

export const EXPORT_FLOOD_TARGETS = { livezP99Ms: 100, listP95Ms: 500, rssMb: 1024 };

/** "waiting": still in the queue or being made when the bench stopped waiting (not a failure of the job). */
type Outcome = "delivered" | "refused" | "waiting" | "failed";
export type ExportFloodResult = {
  exports: number;
  outcomes: Record<Outcome, number>;
  lastDeliveredS: number;
  livez: { count: number; p50: number; p99: number; max: number };
  listP95: number;
  rssMaxMb: number;
  /** The server's PGLITE_WORKER, and the machine's 1-minute load average when the flood began and ended. */
  pgliteWorker: string;
  load: { began: number; ended: number };
};

/** The mix: a year of the heavy reports in Excel, their PDFs (a year is over the PDF row limit: refused), and lighter files. */
function exportPaths(today: string, yearAgo: string, monthAgo: string, count: number) {
  const year = `inicio=${yearAgo}&fim=${today}`;
  const month = `inicio=${monthAgo}&fim=${today}`;
  const mix = [
    `/historico-ambientes/exportar.xlsx?${year}`,
    `/historico-colaboradores/exportar.xlsx?${year}`,
    `/historico-ambientes/exportar.pdf?${year}`,
    `/historico-ambientes/exportar.xlsx?${month}`,
    `/tarefas-incompletas/exportar.xlsx?${month}`,
    `/historico-tarefas/exportar.xlsx?${month}`,
    `/auditoria/exportar.xlsx?${month}`,
    `/historico-ambientes/exportar.pdf?inicio=${today}&fim=${today}`,
    "/setores/exportar.xlsx",
    "/ambientes/exportar.xlsx",
  ];
  return Array.from({ length: count }, (_, index) =>
    `${mix[index % mix.length]}&n=${index}`.replace(/^([^?]*)&/, "$1?"),
  );
}

const rssMb = (pid: number | undefined) => {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

type HistoryData = Awaited<ReturnType<typeof writeHistory>>;

async function prepareData(dataDir: string, progress: (message: string) => void): Promise<HistoryData> {
  progress("exports: migrations, demo data and a year of history");
  mkdirSync(dataDir, { recursive: true });
  const database = await openDatabase({ dataDir });
  try {
    await migrate(database);
    await seedDemo(database, { history: false });
    return await writeHistory(database.db);
  } finally {
    await database.close();
  }
}

export async function measureExportFlood(progress: (message: string) => void): Promise<ExportFloodResult> {
  const count = Number(process.env.BENCH_EXPORTS ?? 80);
  const timeoutMs = Number(process.env.BENCH_EXPORT_TIMEOUT_S ?? 900) * 1000;
  const dir = tempDir("export-flood");
  const kept = process.env.BENCH_EXPORT_DATA;
  let data: HistoryData;
  if (kept && existsSync(path.join(kept, "history.json"))) {
    progress(`exports: the data kept in ${kept}`);
    data = JSON.parse(readFileSync(path.join(kept, "history.json"), "utf8")) as HistoryData;
  } else {
    data = await prepareData(kept ?? dir.dir, progress);
    if (kept) writeFileSync(path.join(kept, "history.json"), JSON.stringify(data));
  }
  if (kept) cpSync(path.join(kept, "pgdata"), path.join(dir.dir, "pgdata"), { recursive: true });
  progress(`exports: ${fmt.int(data.history)} history rows; starting the server`);
  const server = await startServer({ dataDir: dir.dir, demoData: false, label: "export-flood" });
  try {
    const cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
    const headers = { cookie };
    const monthAgo = new Date(Date.parse(`${data.today}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
    const paths = exportPaths(data.today, data.dataIni, monthAgo, count);

    let stop = false;
    const livez: number[] = [];
    const probeLivez = (async () => {
      const every = 20;
      let due = performance.now();
      while (!stop) {
        const sent = due;
        await probe(server.url, { method: "GET", path: "/livez" });
        livez.push(performance.now() - sent);
        due = Math.max(due + every, performance.now());
        await sleep(Math.max(0, due - performance.now()));
      }
    })();
    const list: number[] = [];
    const probeList = (async () => {
      while (!stop) {
        const began = performance.now();
        await probe(server.url, { method: "GET", path: "/setores", headers });
        list.push(performance.now() - began);
        await sleep(250);
      }
    })();
    let rssMax = 0;
    const rssTimer = setInterval(() => (rssMax = Math.max(rssMax, rssMb(server.child.pid))), 250);

    const began = performance.now();
    const loadBegan = os.loadavg()[0]!;
    const outcomes: Record<Outcome, number> = { delivered: 0, refused: 0, waiting: 0, failed: 0 };
    let lastDeliveredMs = 0;
    const one = async (path: string): Promise<Outcome> => {
      const answer = await probe(server.url, { method: "GET", path, headers }, timeoutMs);
      if (answer.status === 200) return "delivered";
      const location = String(answer.headers.location ?? "");
      const job = /^\/exportacoes\/(\d+)$/.exec(location)?.[1];
      if (!job) return answer.status === 302 || answer.status === 303 ? "refused" : "failed";
      while (performance.now() - began < timeoutMs) {
        const file = await probe(server.url, { method: "GET", path: `/exportacoes/${job}/arquivo`, headers });
        if (file.status === 200) return "delivered";
        const page = await probe(server.url, { method: "GET", path: `/exportacoes/${job}`, headers });
        if (page.body.toString("utf8").includes("Não foi possível gerar o arquivo.")) {
          return page.body.toString("utf8").includes("Voltar ao relatório") ? "refused" : "failed";
        }
        await sleep(1000);
      }
      return "waiting";
    };
    progress(`exports: ${count} downloads at once`);
    await Promise.all(
      paths.map(async (path) => {
        const outcome = await one(path).catch(() => "failed" as const);
        outcomes[outcome] += 1;
        if (outcome === "delivered") lastDeliveredMs = Math.max(lastDeliveredMs, performance.now() - began);
      }),
    );
    stop = true;
    clearInterval(rssTimer);
    await Promise.all([probeLivez, probeList]);
    const sortedLivez = Float64Array.from(livez).sort();
    return {
      exports: count,
      outcomes,
      lastDeliveredS: lastDeliveredMs / 1000,
      livez: {
        count: livez.length,
        p50: percentile(sortedLivez, 50),
        p99: percentile(sortedLivez, 99),
        max: sortedLivez[sortedLivez.length - 1] ?? 0,
      },
      listP95: percentile(Float64Array.from(list).sort(), 95),
      rssMaxMb: rssMax,
      pgliteWorker: process.env.PGLITE_WORKER ?? "unset",
      load: { began: loadBegan, ended: os.loadavg()[0]! },
    };
  } finally {
    await server.stop();
  }
}

export function exportFloodReport(result: ExportFloodResult) {
  const t = EXPORT_FLOOD_TARGETS;
  return formatTable(
    ["figure", "measured", "target"],
    [
      [
        "exports delivered / refused by their page / still queued / failed",
        `${result.outcomes.delivered} / ${result.outcomes.refused} / ${result.outcomes.waiting} / ${result.outcomes.failed} of ${result.exports}`,
        "none failed",
      ],
      ["last file delivered after", `${fmt.ms(result.lastDeliveredS * 1000)} ms`, "-"],
      [
        `/livez every 20 ms (${fmt.int(result.livez.count)} probes) p50 / p99 / max`,
        `${fmt.ms(result.livez.p50)} / ${fmt.ms(result.livez.p99)} / ${fmt.ms(result.livez.max)} ms`,
        `p99 ≤ ${t.livezP99Ms} ms`,
      ],
      ["list page (/setores) p95", `${fmt.ms(result.listP95)} ms`, `≤ ${t.listP95Ms} ms`],
      ["server RSS, most", `${fmt.int(result.rssMaxMb)} MB`, `≤ ${t.rssMb} MB`],
      ["PGLITE_WORKER", result.pgliteWorker, "-"],
      ["load average (1 min) at start / end", `${result.load.began.toFixed(1)} / ${result.load.ended.toFixed(1)}`, "-"],
    ],
  );
}

/** `npx tsx bench/export-flood.ts`: this section alone (the build must exist). */
if (process.argv[1]?.endsWith("export-flood.ts")) {
  measureExportFlood((message) => console.log(message))
    .then((result) => console.log(exportFloodReport(result)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
