/**
 * The bulk QR PDF (issue 10): the printable sheets of 500 environments, built by app/lib/qr-codes.server.ts as the
 * web route will build them (environments pulled from an async source in chunks of 100, like keyset pages of the
 * API; the PDF read as a download reads it). It runs in a fresh child process so the memory figures belong to the
 * PDF alone: RSS and V8 heap sampled every 5 ms (the module yields to the event loop between pages, so the sampler
 * runs during the build), the process's peak RSS, and the event loop's longest stall.
 *
 * `npx tsx -e 'import("./bench/qr-pdf.ts").then((m) => m.runQrPdfBench())'` runs it alone.
 */
import { spawn } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { fmt, formatTable, median, ROOT } from "./lib.ts";

export type QrPdfRun = { ms: number; bytes: number; peakRssKb: number; peakHeapKb: number; loopMaxMs: number };

export type QrPdfResult = {
  environments: number;
  runs: QrPdfRun[];
  medianMs: number;
  /** RSS and heap after a 5-sheet warm-up, before the measured runs (kB). */
  baseRssKb: number;
  baseHeapKb: number;
  /** The child's peak RSS (getrusage) up to the end of the measured runs, warm-up included, checks not. */
  maxRssKb: number;
  pages: number;
  problems: string[];
};

const PUBLIC_URL = "https://limpeza.example.com.br";
const PLACES = [
  "Recepção",
  "Sala de espera",
  "Banheiro",
  "Copa",
  "Enfermaria",
  "Consultório",
  "Almoxarifado",
  "Corredor",
];

/** Names of varied length, accents included; every 50th one long enough to wrap onto several lines. */
const environmentName = (i: number) =>
  i % 50 === 0
    ? `Centro de Material e Esterilização — área de preparo e acondicionamento de artigos, setor ${i}`
    : `${PLACES[i % PLACES.length]} ${i} — ${i % 3 ? "bloco A" : "ala pediátrica"}, ${1 + (i % 9)}º andar`;

/** As the route will pull them: keyset pages of 100, each an awaited call. */
async function* environments(count: number) {
  for (let start = 1; start <= count; start += 100) {
    await new Promise((resolve) => setImmediate(resolve));
    for (let id = start; id < Math.min(count + 1, start + 100); id++)
      yield { id, name: environmentName(id), qrCodigo: id.toString(16).padStart(16, "0") };
  }
}

/** In the child: warm up, then build the PDF `runs` times, sampling memory and the event loop. */
async function child(count: number, runs: number) {
  const { qrPdf } = await import("../app/lib/qr-codes.server.ts");
  const read = async (count: number) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await qrPdf(environments(count), PUBLIC_URL)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  await read(5);
  global.gc?.();
  const base = process.memoryUsage();
  const results: QrPdfRun[] = [];
  let last = Buffer.alloc(0);
  for (let run = 0; run < runs; run++) {
    let peakRss = 0;
    let peakHeap = 0;
    const sample = () => {
      const memory = process.memoryUsage();
      peakRss = Math.max(peakRss, memory.rss);
      peakHeap = Math.max(peakHeap, memory.heapUsed);
    };
    const loop = monitorEventLoopDelay({ resolution: 5 });
    const timer = setInterval(sample, 5);
    loop.enable();
    const began = performance.now();
    last = await read(count);
    const ms = performance.now() - began;
    loop.disable();
    clearInterval(timer);
    sample();
    results.push({
      ms,
      bytes: last.length,
      peakRssKb: Math.round(peakRss / 1024),
      peakHeapKb: Math.round(peakHeap / 1024),
      loopMaxMs: loop.max / 1e6,
    });
    last = run === runs - 1 ? last : Buffer.alloc(0);
    global.gc?.();
  }
  const maxRssKb = process.resourceUsage().maxRSS;

  // Checked after the measures (pdf.js is not small): a real PDF with one page per environment and their names.
  const problems: string[] = [];
  const { extractText, getDocumentProxy } = await import("unpdf");
  if (last.subarray(0, 5).toString("latin1") !== "%PDF-") problems.push("qr-pdf: the output is not a PDF");
  const pdf = await getDocumentProxy(new Uint8Array(last));
  const { text } = await extractText(pdf, { mergePages: false });
  const flat = (value: string) => value.replace(/\s+/g, " ");
  for (const page of [1, Math.ceil(count / 2), count])
    if (!flat(text[page - 1] ?? "").includes(flat(environmentName(page))))
      problems.push(`qr-pdf: page ${page} lacks the name '${environmentName(page)}'`);
  if (pdf.numPages !== count) problems.push(`qr-pdf: ${pdf.numPages} pages, expected ${count}`);

  const result: QrPdfResult = {
    environments: count,
    runs: results,
    medianMs: median(results.map((run) => run.ms)),
    baseRssKb: Math.round(base.rss / 1024),
    baseHeapKb: Math.round(base.heapUsed / 1024),
    maxRssKb,
    pages: pdf.numPages,
    problems,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Builds the bulk PDF of `count` environments `runs` times in a fresh `node --import tsx` child. */
export function measureQrPdf(
  count = 500,
  runs = 3,
  progress: (message: string) => void = () => undefined,
): Promise<QrPdfResult> {
  progress(`bulk QR PDF: ${fmt.int(count)} environments, ${runs} runs (a fresh child process)`);
  return new Promise((resolve, reject) => {
    const worker = spawn(
      process.execPath,
      ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "--child", String(count), String(runs)],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    worker.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || !line.startsWith("{"))
        reject(new Error(`qr-pdf bench child exited ${code}: ${out.slice(-500)}`));
      else resolve(JSON.parse(line) as QrPdfResult);
    });
  });
}

const mb = (kb: number) => `${fmt.ms(kb / 1024)} MB`;

export function qrPdfTable(result: QrPdfResult) {
  const rows = result.runs.map((run, index) => [
    String(index + 1),
    fmt.ms(run.ms / 1000),
    fmt.int(result.environments / (run.ms / 1000)),
    fmt.bytes(run.bytes),
    mb(run.peakRssKb),
    `+${mb(run.peakRssKb - result.baseRssKb)}`,
    mb(run.peakHeapKb),
    fmt.ms(run.loopMaxMs),
  ]);
  rows.push(["median", fmt.ms(result.medianMs / 1000), fmt.int(result.environments / (result.medianMs / 1000))]);
  return [
    formatTable(
      [
        ">run",
        ">seconds",
        ">pages/s",
        ">PDF size",
        ">peak RSS (sampled)",
        ">over base",
        ">peak heap used",
        ">longest event-loop stall (ms)",
      ],
      rows,
    ),
    `base after warm-up: RSS ${mb(result.baseRssKb)}, heap ${mb(result.baseHeapKb)}; ` +
      `the child's peak RSS (getrusage): ${mb(result.maxRssKb)}; ${fmt.int(result.pages)} pages checked`,
  ].join("\n");
}

/** Runs and prints it (for a quick look without the whole suite). */
export async function runQrPdfBench(count = 500, runs = 3) {
  const result = await measureQrPdf(count, runs, (message) => console.error(`[bench] ${message}`));
  console.log(`Bulk QR PDF of ${fmt.int(count)} environments (app/lib/qr-codes.server.ts qrPdf, read as a download)`);
  console.log(qrPdfTable(result));
  for (const problem of result.problems) console.log(`PROBLEM: ${problem}`);
  return result;
}

if (process.argv[2] === "--child" && process.argv[1] === fileURLToPath(import.meta.url))
  await child(Number(process.argv[3]), Number(process.argv[4]));
