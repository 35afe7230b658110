/**
 * The PDF pool (issue 23 'PDF'; api/lib/pdf-pool.ts): how long a report PDF takes, and whether the server keeps
 * answering while it is built. No report route builds a PDF yet, so a real server (server.ts `startServer`, in a
 * child process started with `node --import tsx` as the other benches start it) is asked over IPC to build the
 * document exactly as a route would, through its own pool (`server.pdf.render`). Meanwhile this process sends
 * GET /healthz on a fixed schedule, one every PROBE_EVERY_MS whether or not the last one has answered, and times each
 * from the moment it was due: a stalled event loop shows as every probe of the stall being late, not as one slow
 * answer. The same document is then built once with pdfmake on the server's own thread (what the pool avoids), for
 * comparison. Each PDF is checked after the measures (pages, the title, the last row).
 *
 * `BENCH_ONLY=pdf npm run bench` runs it alone; `npx tsx -e 'import("./bench/pdf-pool.ts").then((m) => m.runPdfPoolBench())'`
 * without the build step.
 */
import { fork, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import type { PdfDocDefinition } from "../api/domain/pdf.ts";

import {
  fmt,
  formatTable,
  freePort,
  HOST,
  median,
  onCleanup,
  percentile,
  ROOT,
  SERVER_ENV,
  sleep,
  tempDir,
} from "./lib.ts";

const PROBE_EVERY_MS = 10;
const IDLE_MS = 2_000;
const TITLE = "Relatório de Agendamentos";
const COLUMNS = [
  "Colaborador",
  "Ambiente",
  "Categoria",
  "Setor",
  "Andar",
  "Data",
  "Previsto",
  "Realizado",
  "Tempo de execução",
  "Status",
];

/** Row i of the history report (spec 001 §2.9, §9): ten columns, names long enough to wrap now and then. */
const reportRow = (i: number) => [
  `Colaboradora ${i} da Silva Pereira`,
  `Sala ${i % 300} - Bloco B, ala norte`,
  "Banheiro",
  "Centro Cirúrgico",
  String(i % 5),
  "01/02/2025",
  "08:00 - 09:00",
  "08:02 - 08:37",
  "+ 00:35:12",
  i % 3 ? "Completo" : "Não Realizado",
];

/** An A4 landscape report of `rows` rows: title, fixed column widths, the header repeated on every page, page numbers. */
export function benchReport(rows: number): PdfDocDefinition {
  return {
    pageSize: "A4",
    pageOrientation: "landscape",
    pageMargins: [30, 40, 30, 40],
    info: { title: TITLE },
    footer: { text: "Página {page} de {pages}", alignment: "right", fontSize: 8, margin: [0, 10, 30, 0] },
    defaultStyle: { fontSize: 8 },
    content: [
      { text: TITLE, fontSize: 16, bold: true, margin: [0, 0, 0, 8] },
      {
        table: {
          headerRows: 1,
          widths: [110, 110, 60, 70, 35, 55, 60, 60, 60, 60],
          body: [
            COLUMNS.map((text) => ({ text, bold: true })),
            ...Array.from({ length: rows }, (_, i) => reportRow(i + 1)),
          ],
        },
        layout: "lightHorizontalLines",
      },
    ],
  };
}

type Mode = "pool" | "main thread";
type BuildRequest = { id: number; mode: Mode; rows: number };
type BuildAnswer =
  | { id: number; ms: number; bytes: number; file: string; loopMaxMs: number; threadCpuMs?: number }
  | { id: number; error: string };

/**
 * The CPU time of this process's main thread, the one that serves requests (Linux: /proc/self/task/PID/stat, utime +
 * stime in ticks of 10 ms). Unlike latencies, it does not move with what else runs on the machine.
 */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** In the child: a real server; each message builds one document and writes it to the data dir. */
async function child() {
  const { loadConfig } = await import("../api/config.ts");
  const { startServer } = await import("../server.ts");
  const { renderPdf } = await import("../api/lib/pdf-worker.mjs");
  const config = loadConfig();
  const server = await startServer(config);
  process.on("message", async (message: BuildRequest | { stop: true }) => {
    if ("stop" in message) {
      await server.close();
      process.exit(0);
    }
    const doc = benchReport(message.rows);
    try {
      // The server's own event loop over the build: the longest gap between ticks of a 5 ms timer, the last one up
      // to the build's end included (a build on this thread shows as one gap as long as the build).
      let loopMaxMs = 0;
      let last = performance.now();
      const tick = () => {
        const now = performance.now();
        loopMaxMs = Math.max(loopMaxMs, now - last);
        last = now;
      };
      const timer = setInterval(tick, 5);
      const cpuBefore = mainThreadCpuMs();
      const began = performance.now();
      const pdf = message.mode === "pool" ? await server.pdf.render(doc) : await renderPdf(doc);
      const ms = performance.now() - began;
      const cpuAfter = mainThreadCpuMs();
      tick();
      clearInterval(timer);
      const threadCpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
      const file = path.join(config.dataDir, `bench-${message.id}.pdf`);
      await writeFile(file, pdf);
      process.send!({ id: message.id, ms, bytes: pdf.byteLength, file, loopMaxMs, threadCpuMs } satisfies BuildAnswer);
    } catch (error) {
      process.send!({ id: message.id, error: String(error) } satisfies BuildAnswer);
    }
  });
  process.send!({ ready: server.url });
}

/** GET /healthz every PROBE_EVERY_MS until stopped; each answer's delay counted from when its probe was due. */
function probeHealth(url: string) {
  const agent = new http.Agent({ keepAlive: true });
  const samples: { due: number; ms: number; status: number }[] = [];
  const began = performance.now();
  let sent = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const fire = (due: number) => {
    const done = new Promise<void>((resolve) => {
      const request = http.get(`${url}/healthz`, { agent }, (response) => {
        response.resume();
        response.on("end", () => {
          samples.push({ due, ms: performance.now() - due, status: response.statusCode ?? 0 });
          resolve();
        });
      });
      request.on("error", () => {
        samples.push({ due, ms: performance.now() - due, status: 0 });
        resolve();
      });
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const timer = setInterval(() => {
    // Every probe that fell due since the last tick (this process's timer may itself be late).
    while (!stopped && began + sent * PROBE_EVERY_MS <= performance.now()) fire(began + sent++ * PROBE_EVERY_MS);
  }, PROBE_EVERY_MS / 2);
  return {
    /** Probes due in [from, to), answered. */
    between(from: number, to: number) {
      return samples.filter((sample) => sample.due >= from && sample.due < to);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(inFlight);
      agent.destroy();
    },
  };
}

export type PdfPoolCase = {
  mode: Mode;
  rows: number;
  runs: { ms: number; bytes: number }[];
  medianMs: number;
  pages: number;
  /** The longest stall of the server's event loop during any of the builds (its own monitorEventLoopDelay). */
  loopMaxMs: number;
  /** The server thread's CPU time per build (median): the build itself when on that thread, the probes otherwise. */
  threadCpuMs?: number;
  health: { samples: number; p50: number; p99: number; max: number; failed: number };
};

export type PdfPoolResult = {
  idle: { samples: number; p50: number; p99: number; max: number };
  /** The 1-minute load average when the probes began and ended: latencies move with it on a shared machine. */
  load: [number, number];
  cases: PdfPoolCase[];
  problems: string[];
};

const latency = (samples: { ms: number; status: number }[]) => {
  const sorted = Float64Array.from(samples.map((sample) => sample.ms)).sort();
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
    failed: samples.filter((sample) => sample.status !== 200).length,
  };
};

/**
 * Starts the server child, then: idle /healthz for IDLE_MS; `runs` builds of `rows` rows through the pool; one build
 * at the row limit through the pool; one build of `rows` rows on the server's thread. Probes run throughout.
 */
export async function measurePdfPool(
  options: { rows?: number; runs?: number; limitRows?: number } = {},
  progress: (message: string) => void = () => undefined,
): Promise<PdfPoolResult> {
  const rows = options.rows ?? 2_000;
  const runs = options.runs ?? 3;
  const limitRows = options.limitRows ?? 5_000;
  const data = tempDir("pdf");
  const port = await freePort();
  const logFile = path.join(data.dir, "server.log");
  const logFd = openSync(logFile, "w");
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "API_URL", "PUBLIC_URL", "SMTP_URL", "STORAGE_URL"]) delete env[name];
  // PUBLIC_URL: production requires it (links leave the server absolute); here the address the bench calls.
  Object.assign(env, SERVER_ENV, {
    PORT: String(port),
    HOST,
    DATA_DIR: data.dir,
    DEMO_DATA: "false",
    PUBLIC_URL: `http://${HOST}:${port}`,
  });
  progress(`PDF pool: starting a server (PGlite, empty database) to build ${fmt.int(rows)}-row PDFs`);
  const server: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child"], {
    cwd: ROOT,
    env,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", logFd, logFd, "ipc"],
  });
  closeSync(logFd);
  const kill = onCleanup(() => server.kill("SIGKILL"));
  const problems: string[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      server.once("message", (message: { ready?: string }) =>
        message.ready ? resolve(message.ready) : reject(new Error("unexpected message")),
      );
      server.once("exit", (code) =>
        reject(new Error(`the PDF bench server exited (${code}):\n${readFileSync(logFile, "utf8").slice(-2000)}`)),
      );
    });
    let nextId = 0;
    const build = (mode: Mode, size: number) =>
      new Promise<{
        ms: number;
        bytes: number;
        file: string;
        loopMaxMs: number;
        threadCpuMs?: number;
        from: number;
        to: number;
      }>((resolve, reject) => {
        const id = ++nextId;
        const from = performance.now();
        const onMessage = (answer: BuildAnswer) => {
          if (answer.id !== id) return;
          server.off("message", onMessage);
          const to = performance.now();
          if ("error" in answer) reject(new Error(`${mode} build of ${size} rows: ${answer.error}`));
          else resolve({ ...answer, from, to });
        };
        server.on("message", onMessage);
        server.send({ id, mode, rows: size } satisfies BuildRequest);
      });

    // Warm-ups (not measured): the pool's worker started and pdfmake loaded in it, and on the server's thread.
    await build("pool", 10);
    await build("main thread", 10);

    const loadBefore = os.loadavg()[0];
    const probes = probeHealth(url);
    await sleep(IDLE_MS);
    const idleTo = performance.now();
    const plan: { mode: Mode; rows: number; runs: number }[] = [
      { mode: "pool", rows, runs },
      { mode: "pool", rows: limitRows, runs: 1 },
      { mode: "main thread", rows, runs: 1 },
    ];
    const measured: { mode: Mode; rows: number; builds: Awaited<ReturnType<typeof build>>[] }[] = [];
    for (const step of plan) {
      const builds = [];
      for (let run = 1; run <= step.runs; run++) {
        progress(`  ${step.mode}: ${fmt.int(step.rows)} rows, run ${run}/${step.runs}`);
        builds.push(await build(step.mode, step.rows));
        await sleep(200); // the probes of one build's last moments answered before the next begins
      }
      measured.push({ ...step, builds });
    }
    await probes.stop();
    const loadAfter = os.loadavg()[0];

    const cases: PdfPoolCase[] = [];
    const { extractText, getDocumentProxy } = await import("unpdf");
    for (const step of measured) {
      const last = step.builds[step.builds.length - 1];
      const pdf = await getDocumentProxy(new Uint8Array(readFileSync(last.file)));
      const { text } = await extractText(pdf, { mergePages: false });
      const flat = text.map((page) => page.replace(/\s+/g, " "));
      const label = `${step.mode}, ${step.rows} rows`;
      if (!flat[0]?.includes(TITLE)) problems.push(`pdf-pool: ${label}: the title is not on page 1`);
      if (!flat[flat.length - 1]?.includes(`Colaboradora ${step.rows} da Silva Pereira`))
        problems.push(`pdf-pool: ${label}: the last row is not on the last page`);
      if (!flat[flat.length - 1]?.includes(`Página ${pdf.numPages} de ${pdf.numPages}`))
        problems.push(`pdf-pool: ${label}: the last page is not numbered`);
      const health = latency(step.builds.flatMap((one) => probes.between(one.from, one.to)));
      // The main thread's build is the stall the pool exists to avoid: its probes may time out, and that is its figure.
      if (health.failed && step.mode === "pool")
        problems.push(`pdf-pool: ${label}: ${health.failed} /healthz probes did not answer 200`);
      cases.push({
        mode: step.mode,
        rows: step.rows,
        runs: step.builds.map(({ ms, bytes }) => ({ ms, bytes })),
        medianMs: median(step.builds.map((one) => one.ms)),
        pages: pdf.numPages,
        loopMaxMs: Math.max(...step.builds.map((one) => one.loopMaxMs)),
        threadCpuMs: step.builds.every((one) => one.threadCpuMs !== undefined)
          ? median(step.builds.map((one) => one.threadCpuMs!))
          : undefined,
        health,
      });
    }
    return { idle: latency(probes.between(0, idleTo)), load: [loadBefore, loadAfter], cases, problems };
  } finally {
    if (server.exitCode === null && server.connected) {
      server.send({ stop: true });
      await new Promise((resolve) => server.once("exit", resolve));
    }
    kill();
    data.remove();
  }
}

export function pdfPoolTable(result: PdfPoolResult) {
  const rows = result.cases.map((one) => [
    one.mode,
    fmt.int(one.rows),
    String(one.runs.length),
    one.runs.map((run) => fmt.ratio(run.ms / 1000)).join(" / "),
    fmt.ratio(one.medianMs / 1000),
    fmt.int(one.pages),
    fmt.bytes(one.runs[0]?.bytes ?? 0),
    fmt.int(one.health.samples),
    fmt.ms(one.health.p50),
    fmt.ms(one.health.p99),
    fmt.ms(one.health.max),
    fmt.ms(one.loopMaxMs),
    fmt.int(one.threadCpuMs),
  ]);
  return [
    formatTable(
      [
        "built",
        ">rows",
        ">runs",
        ">seconds (each run)",
        ">median s",
        ">pages",
        ">PDF size",
        ">/healthz probes",
        ">p50 ms",
        ">p99 ms",
        ">max ms",
        ">server loop's longest stall ms",
        ">server thread CPU ms",
      ],
      rows,
    ),
    `/healthz with no PDF being built: ${fmt.int(result.idle.samples)} probes, p50 ${fmt.ms(result.idle.p50)} ms, ` +
      `p99 ${fmt.ms(result.idle.p99)} ms, max ${fmt.ms(result.idle.max)} ms; ` +
      `1-minute load average ${result.load.map((value) => value.toFixed(2)).join(" → ")} on ${os.cpus().length} CPUs`,
  ].join("\n");
}

/** The target: /healthz p99 ≤ 200 ms while a 2,000-row PDF is built (met/MISSED; the run does not fail). */
export function pdfPoolTargets(result: PdfPoolResult) {
  const pooled = result.cases.find((one) => one.mode === "pool");
  if (!pooled) return [];
  const met = pooled.health.p99 <= 200 ? "met" : "MISSED";
  return [
    `target: /healthz p99 ≤ 200 ms while a ${fmt.int(pooled.rows)}-row PDF is built by the pool: ${fmt.ms(pooled.health.p99)} ms (${met})`,
  ];
}

/** Runs and prints it (a quick look without the whole suite). */
export async function runPdfPoolBench() {
  const result = await measurePdfPool({}, (message) => console.error(`[bench] ${message}`));
  console.log(pdfPoolTable(result));
  for (const line of pdfPoolTargets(result)) console.log(line);
  for (const problem of result.problems) console.log(`PROBLEM: ${problem}`);
  return result;
}

if (process.argv[2] === "--child" && process.argv[1] === fileURLToPath(import.meta.url)) await child();
