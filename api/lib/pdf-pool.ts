import { access } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

import {
  PDF_MESSAGES,
  PDF_RETRY_AFTER_S,
  PdfError,
  type PdfDocDefinition,
  type PdfRenderer,
  type PdfRenderOptions,
} from "../domain/pdf.ts";

/**
 * PDFs built off the event loop (issue 23 'PDF'; docs/architecture.md 'PDFs'). pdfmake lays a document out in one
 * synchronous run (a 2,000-row table holds a thread ~1.7 s here, 10,000 rows ~8 s; pdfmake issues #1148, #1755), so
 * server.ts starts this pool and the web app reaches it through its load context (`context.pdf.render(doc)`).
 *
 * - A fixed number of worker threads (pdf-worker.mjs), started on the first document and kept; one document each.
 * - A bounded queue: past it a document is refused at once (PdfError 'busy', the route answers 503 + Retry-After).
 * - A time limit per document: its worker is terminated (and replaced by the next document) and the caller gets
 *   PdfError 'timeout'; a worker that dies otherwise (out of memory) fails its document the same way ('failed').
 * - pdfmake fetches no URL and reads no file but the fonts; images come as data URLs or from the uploads storage,
 *   which the worker asks the pool for (the pool reads them through `readFile`, the API's Storage).
 */

/**
 * One worker less than the cores, at least one and at most two: the server's own thread (HTTP, and the embedded
 * database, which runs in it) needs a core to stay responsive while a PDF is built, so on this 2-core machine one PDF
 * is built at a time; more than two at once would hold 2× the heap of a large document for reports that are rare.
 */
export const PDF_WORKERS = Math.min(2, Math.max(1, availableParallelism() - 1));
/**
 * Documents waiting for a worker, beyond those being built. At the row limit one document takes ~3.5 s here, so the
 * last of a full queue starts within ~15 s, well inside a proxy's usual 60 s.
 */
export const PDF_QUEUE = 4;
/** Time limit of one document, from the moment its worker starts it: ~9× a document at the row limit here. */
export const PDF_TIME_LIMIT_MS = 30_000;
/** A worker's V8 old space: a document at the row limit uses ~200 MB; a runaway one stops here, not the server. */
export const PDF_WORKER_HEAP_MB = 512;
/**
 * The workers' nice value (Linux; 0 is the server's): on busy cores the server's own thread is scheduled first, so
 * requests keep their latency while a PDF is built and the PDF takes the time that is left (docs/performance.md).
 */
export const PDF_WORKER_NICE = 10;

const WORKER_URL = new URL("./pdf-worker.mjs", import.meta.url);

export type PdfPoolOptions = {
  workers?: number;
  queue?: number;
  timeLimitMs?: number;
  heapMb?: number;
  nice?: number;
  /** A file of the uploads storage (e.g. `storage.read`), or null when there is none; images of the documents. */
  readFile?: (folder: string, name: string) => Promise<Uint8Array | null>;
  /** Where a stopped or failed worker is reported (pino's logger fits). */
  logger?: { warn(details: object, message: string): void };
};

export type PdfPool = PdfRenderer & {
  /** Rejects the waiting documents ('closed') and stops the workers. */
  close(): Promise<void>;
  /** Workers started, documents being built and waiting (tests, bench). */
  stats(): { workers: number; running: number; queued: number };
};

type Job = {
  id: number;
  doc: PdfDocDefinition;
  signal?: AbortSignal;
  resolve: (pdf: Uint8Array<ArrayBuffer>) => void;
  reject: (error: PdfError) => void;
  onAbort?: () => void;
};

type Slot = {
  worker: Worker;
  ready: Promise<void>;
  job?: Job;
  timer?: NodeJS.Timeout;
};

type WorkerMessage =
  | { type: "ready" }
  | { type: "done"; id: number; pdf: Uint8Array<ArrayBuffer> }
  | { type: "failed"; id: number; message: string }
  | { type: "read"; id: number; request: number; folder: string; name: string };

export function createPdfPool(options: PdfPoolOptions = {}): PdfPool {
  const size = options.workers ?? PDF_WORKERS;
  const queueLimit = options.queue ?? PDF_QUEUE;
  const timeLimitMs = options.timeLimitMs ?? PDF_TIME_LIMIT_MS;
  const heapMb = options.heapMb ?? PDF_WORKER_HEAP_MB;
  const nice = options.nice ?? PDF_WORKER_NICE;
  // libuv's thread pool (fs, zlib, crypto for the whole process) is made by the thread that first queues work, and
  // its threads inherit that thread's nice value: queue something here, on the server's thread, before any worker.
  void access(fileURLToPath(WORKER_URL)).catch(() => undefined);
  const slots: (Slot | undefined)[] = Array.from({ length: size }, () => undefined);
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  const failed = (detail: string) => new PdfError("failed", PDF_MESSAGES.failed, detail);

  function startWorker(index: number): Slot {
    // Plain .mjs and no TypeScript loader (execArgv []): the worker starts the same under tsx, vitest and node.
    const worker = new Worker(WORKER_URL, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      workerData: { nice },
    });
    let markReady!: () => void;
    const slot: Slot = { worker, ready: new Promise<void>((resolve) => (markReady = resolve)) };
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "ready") return markReady();
      if (message.type === "read") return void answerRead(worker, message);
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      finish(index, slot);
      if (message.type === "done") job.resolve(message.pdf);
      else job.reject(failed(message.message));
    });
    // An uncaught error or the heap limit ends the worker: its document fails and the next one starts a new worker.
    worker.on("error", (error) => stopped(index, slot, failed(error.message)));
    worker.on("exit", (code) => stopped(index, slot, failed(`the PDF worker exited with code ${code}`)));
    worker.unref();
    return slot;
  }

  async function answerRead(worker: Worker, message: Extract<WorkerMessage, { type: "read" }>) {
    let bytes: Uint8Array | null = null;
    try {
      const file = await options.readFile?.(message.folder, message.name);
      bytes = file ? await asPngOrJpeg(file) : null;
    } catch (error) {
      options.logger?.warn({ err: error, folder: message.folder, name: message.name }, "PDF image not read");
    }
    worker.postMessage({ type: "file", request: message.request, bytes });
  }

  /** The slot's document is over: clear its timer, and take the next document waiting. */
  function finish(index: number, slot: Slot) {
    clearTimeout(slot.timer);
    if (slot.job) slot.job.signal?.removeEventListener("abort", slot.job.onAbort!);
    slot.job = undefined;
    slot.worker.unref();
    next(index);
  }

  function stopped(index: number, slot: Slot, error: PdfError) {
    if (slots[index] !== slot) return;
    slots[index] = undefined;
    const job = slot.job;
    if (job) {
      options.logger?.warn({ code: error.code, detail: error.detail }, "PDF worker stopped");
      finish(index, slot);
      job.reject(error);
    } else next(index);
  }

  /** Stops the slot's worker on purpose (time limit, caller gone): the job gets `error`, the slot takes the next. */
  function kill(index: number, slot: Slot, error: PdfError) {
    if (slots[index] !== slot) return;
    slots[index] = undefined;
    void slot.worker.terminate();
    const job = slot.job;
    finish(index, slot);
    job?.reject(error);
  }

  function next(index: number) {
    if (closed || slots[index]?.job) return;
    const job = queue.shift();
    if (job) void run(index, job);
  }

  async function run(index: number, job: Job) {
    const slot = (slots[index] ??= startWorker(index));
    slot.job = job;
    slot.worker.ref();
    await slot.ready;
    if (slot.job !== job) return; // aborted or closed while the worker was starting
    try {
      slot.worker.postMessage({ type: "render", id: job.id, doc: job.doc });
    } catch (error) {
      // A function or another value that cannot cross to a thread (DataCloneError): the caller's mistake.
      finish(index, slot);
      job.reject(failed(error instanceof Error ? error.message : String(error)));
      return;
    }
    slot.timer = setTimeout(() => {
      options.logger?.warn({ timeLimitMs }, "PDF over its time limit: its worker is stopped");
      const seconds = Math.round(timeLimitMs / 1000);
      kill(index, slot, new PdfError("timeout", PDF_MESSAGES.timeout(seconds), `over ${timeLimitMs} ms`));
    }, timeLimitMs);
  }

  function render(doc: PdfDocDefinition, renderOptions: PdfRenderOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
    if (closed) return Promise.reject(new PdfError("closed", PDF_MESSAGES.closed, undefined, PDF_RETRY_AFTER_S));
    const { signal } = renderOptions;
    if (signal?.aborted) return Promise.reject(failed("the caller went away"));
    const free = slots.findIndex((slot) => !slot?.job);
    if (free < 0 && queue.length >= queueLimit)
      return Promise.reject(new PdfError("busy", PDF_MESSAGES.busy, undefined, PDF_RETRY_AFTER_S));
    return new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
      const job: Job = { id: ++nextId, doc, signal, resolve, reject };
      job.onAbort = () => {
        const waiting = queue.indexOf(job);
        if (waiting >= 0) {
          queue.splice(waiting, 1);
          reject(failed("the caller went away"));
          return;
        }
        // Being built for no one: stop it, so the next document does not wait for it.
        const index = slots.findIndex((slot) => slot?.job === job);
        if (index >= 0) kill(index, slots[index]!, failed("the caller went away"));
      };
      signal?.addEventListener("abort", job.onAbort, { once: true });
      if (free >= 0) void run(free, job);
      else queue.push(job);
    });
  }

  async function close() {
    closed = true;
    const error = new PdfError("closed", PDF_MESSAGES.closed, undefined, PDF_RETRY_AFTER_S);
    for (const job of queue.splice(0)) job.reject(error);
    await Promise.all(
      slots.map(async (slot, index) => {
        if (!slot) return;
        slots[index] = undefined;
        clearTimeout(slot.timer);
        slot.job?.reject(error);
        await slot.worker.terminate();
      }),
    );
  }

  return {
    render,
    close,
    stats: () => ({
      workers: slots.filter(Boolean).length,
      running: slots.filter((slot) => slot?.job).length,
      queued: queue.length,
    }),
  };
}

const isPng = (bytes: Uint8Array) => bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8;

/**
 * pdfkit embeds PNG and JPEG only; the uploads also hold WebP thumbnails and GIF/WebP photos. Those become JPEG here,
 * on the main thread: sharp works on libuv's threads, not the event loop, and kept out of the workers it cannot be
 * cut off by a worker's termination (which takes the whole process down on glibc, lovell/sharp#2263). null when
 * sharp cannot read the bytes.
 */
async function asPngOrJpeg(bytes: Uint8Array): Promise<Uint8Array | null> {
  if (isPng(bytes) || isJpeg(bytes)) return bytes;
  const { default: sharp } = await import("sharp");
  try {
    return new Uint8Array(await sharp(bytes, { limitInputPixels: 40_000_000 }).jpeg({ quality: 80 }).toBuffer());
  } catch {
    return null;
  }
}
