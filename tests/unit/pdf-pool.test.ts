import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { PNG } from "pngjs";
import sharp from "sharp";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, describe, expect, test } from "vitest";

import {
  PDF_MAX_ROWS,
  PDF_MESSAGES,
  PDF_RETRY_AFTER_S,
  PdfError,
  pdfErrorOf,
  pdfRowLimitMessage,
  type PdfDocDefinition,
} from "../../api/domain/pdf.ts";
import { createPdfPool, type PdfPool } from "../../api/lib/pdf-pool.ts";
import { pdfResponse } from "../../app/lib/pdf.server.ts";

/**
 * The PDF pool (api/lib/pdf-pool.ts, issue 23 'PDF'): documents built in a worker thread, a bounded queue, a time
 * limit, no URL or file access, storage images; and the route helper app/lib/pdf.server.ts. The pools here are small
 * (1 worker) so the queue and the time limit are reached on purpose.
 */

const TITLE = "Relatório de Agendamentos";
const HEADER = ["Colaborador", "Ambiente", "Data", "Previsto", "Realizado", "Status"];

/** Row i of a report-like table; row 1,234 is looked for in the text. */
const row = (i: number) => [
  `Colaboradora ${i} da Conceição`,
  `Sala ${i % 300} - Bloco B`,
  "01/02/2025",
  "08:00 - 09:00",
  "08:02 - 08:37",
  i % 3 ? "Completo" : "Não Realizado",
];

/** An A4 landscape report of `rows` rows, as the reports will build: title, a table with its header repeated. */
const report = (rows: number): PdfDocDefinition => ({
  pageSize: "A4",
  pageOrientation: "landscape",
  info: { title: TITLE },
  footer: { text: "Página {page} de {pages}", alignment: "right", margin: [0, 10, 40, 0] },
  defaultStyle: { fontSize: 8 },
  content: [
    { text: TITLE, fontSize: 16, bold: true, margin: [0, 0, 0, 8] },
    {
      table: {
        headerRows: 1,
        widths: [150, 140, 60, 70, 70, 70],
        body: [HEADER.map((text) => ({ text, bold: true })), ...Array.from({ length: rows }, (_, i) => row(i + 1))],
      },
      layout: "lightHorizontalLines",
    },
  ],
});

async function textOf(pdf: Uint8Array) {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: false });
  return { pages: document.numPages, text: text.map((page) => page.replace(/\s+/g, " ")) };
}

const pools: PdfPool[] = [];
const pool = (options: Parameters<typeof createPdfPool>[0] = {}) => {
  const created = createPdfPool(options);
  pools.push(created);
  return created;
};
afterAll(() => Promise.all(pools.map((created) => created.close())));

const occurrences = (pdf: Uint8Array, text: string) => Buffer.from(pdf).toString("latin1").split(text).length - 1;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PdfError);
  return error as PdfError;
}

// Each test starts its own pool, whose worker loads pdfmake: a few seconds on a busy 2-core machine. What the tests
// check is behaviour (pages, refusals, isolation), not speed (bench/pdf-pool.ts), so they get 30 s, not vitest's 5.
describe("the PDF pool (api/lib/pdf-pool.ts)", { timeout: 30_000 }, () => {
  test("a document renders in the pool's worker: the title, a row and the page numbers are in its text", async () => {
    const pdfs = pool();
    const pdf = await pdfs.render(report(30));
    expect(pdfs.stats()).toEqual({ workers: 1, running: 0, queued: 0 });
    expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const { pages, text } = await textOf(pdf);
    expect(pages).toBe(1);
    expect(text[0]).toContain(TITLE);
    expect(text[0]).toContain("Colaboradora 17 da Conceição Sala 17 - Bloco B 01/02/2025 08:00 - 09:00 08:02 - 08:37");
    expect(text[0]).toContain("Página 1 de 1");
  });

  test("a long table breaks into pages, the header repeated and each page numbered", async () => {
    const { pages, text } = await textOf(await pool().render(report(300)));
    expect(pages).toBeGreaterThan(1);
    text.forEach((page, index) => {
      expect(page).toContain(HEADER.join(" "));
      expect(page).toContain(`Página ${index + 1} de ${pages}`);
    });
    expect(text.join(" ")).toContain("Colaboradora 300 da Conceição");
  });

  test("while a 2,000-row PDF is built, the event loop stays free (a 5 ms timer is never held by the build)", async () => {
    const pdfs = pool();
    await pdfs.render(report(1)); // the worker started and pdfmake loaded, as in a running server
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 5);
    const began = performance.now();
    const pdf = await pdfs.render(report(2_000));
    const buildMs = performance.now() - began;
    clearInterval(timer);
    longestGap = Math.max(longestGap, performance.now() - last);

    const { text } = await textOf(pdf);
    expect(text.join(" ")).toContain("Colaboradora 1234 da Conceição");
    // On the event loop the same document holds it for its whole build (over a second here); the timer would fire
    // once, late by that much. In the worker the timer is only as late as the machine's load makes it: the figure is
    // printed against the 200 ms target (bench/pdf-pool.ts measures it), the test fails when the build held the loop.
    console.log(`PDF pool: 2,000 rows in ${Math.round(buildMs)} ms, longest timer gap ${Math.round(longestGap)} ms`);
    expect(longestGap).toBeLessThan(Math.max(200, buildMs / 4));
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(buildMs / 200));
  }, 60_000);

  test("past the queue bound a document is refused at once with the Portuguese message and Retry-After", async () => {
    const pdfs = pool({ workers: 1, queue: 1 });
    let firstDone = false;
    const first = pdfs.render(report(2_000)).then((pdf) => ((firstDone = true), pdf));
    const second = pdfs.render(report(5));
    expect(pdfs.stats()).toEqual({ workers: 1, running: 1, queued: 1 });

    const refused = await refusal(pdfs.render(report(5)));
    expect(firstDone).toBe(false); // refused while the first was still being built, not after waiting for it
    expect(refused.code).toBe("busy");
    expect(refused.message).toBe("Muitos PDFs estão sendo gerados agora. Tente novamente em alguns segundos.");
    expect(refused.retryAfterSeconds).toBe(PDF_RETRY_AFTER_S);

    // The two accepted ones are built, and then there is room again.
    expect((await textOf(await first)).text.join(" ")).toContain("Colaboradora 2000 da Conceição");
    expect((await textOf(await second)).text[0]).toContain("Colaboradora 5 da Conceição");
    expect(pdfs.stats()).toEqual({ workers: 1, running: 0, queued: 0 });
    expect((await textOf(await pdfs.render(report(3)))).text[0]).toContain(TITLE);
  }, 60_000);

  test("the time limit stops a runaway document (its worker terminated) and the pool keeps working", async () => {
    const pdfs = pool({ workers: 1, queue: 2, timeLimitMs: 1_000 });
    await pdfs.render(report(1));
    const began = performance.now();
    // 40,000 rows take far longer than a second to lay out (~8 s for 10,000 here).
    const stopped = await refusal(pdfs.render(report(40_000)));
    const waitedMs = performance.now() - began;
    expect(stopped.code).toBe("timeout");
    expect(stopped.message).toBe(
      "O PDF levou mais de 1 segundos para ser gerado e foi interrompido. Filtre um período menor ou use 'Exportar Excel'.",
    );
    expect(waitedMs).toBeLessThan(6_000);
    expect(pdfs.stats()).toEqual({ workers: 0, running: 0, queued: 0 }); // the worker is gone, not still laying out

    const { text } = await textOf(await pdfs.render(report(10)));
    expect(text[0]).toContain("Colaboradora 10 da Conceição");
    expect(pdfs.stats().workers).toBe(1);
  }, 60_000);

  test("a document past the worker's heap limit fails alone, and the pool goes on", async () => {
    const pdfs = pool({ workers: 1, heapMb: 32 });
    await pdfs.render(report(1));
    const failed = await refusal(pdfs.render(report(5_000)));
    expect(failed.code).toBe("failed");
    expect(failed.message).toBe("Não foi possível gerar o PDF.");
    expect(failed.detail).toMatch(/memory limit/);
    expect(pdfs.stats()).toEqual({ workers: 0, running: 0, queued: 0 });
    expect((await textOf(await pdfs.render(report(4)))).text[0]).toContain("Colaboradora 4 da Conceição");
  }, 60_000);

  test("a caller that goes away: its document leaves the queue, or its worker is stopped if it is being built", async () => {
    const pdfs = pool({ workers: 1, queue: 2 });
    const first = pdfs.render(report(1_000));
    const gone = new AbortController();
    const second = pdfs.render(report(5), { signal: gone.signal });
    expect(pdfs.stats().queued).toBe(1);
    gone.abort();
    expect((await refusal(second)).code).toBe("failed");
    expect(pdfs.stats().queued).toBe(0);
    expect((await textOf(await first)).text.join(" ")).toContain("Colaboradora 1000 da Conceição");

    const left = new AbortController();
    const building = pdfs.render(report(40_000), { signal: left.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pdfs.stats()).toEqual({ workers: 1, running: 1, queued: 0 });
    left.abort();
    expect((await refusal(building)).detail).toBe("the caller went away");
    expect(pdfs.stats()).toEqual({ workers: 0, running: 0, queued: 0 });
  }, 60_000);

  test("pdfmake fetches no URL and reads no file of the server: each such document fails, the server sees nothing", async () => {
    let requests = 0;
    const server = http.createServer((_request, response) => {
      requests++;
      response.end("x");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/foto.png`;
    const file = path.resolve("public/qr-template.png"); // a real PNG on the server's disk
    const pdfs = pool();
    try {
      const refused = [
        { content: [{ image: url }] },
        { content: [{ image: "foto" }], images: { foto: url } },
        { content: "x", attachments: { anexo: { src: url } } },
        { content: "x", files: { anexo: { src: url } } },
        { content: [{ image: file }] },
        { content: [{ image: "foto" }], images: { foto: file } },
      ];
      for (const doc of refused) {
        const error = await refusal(pdfs.render(doc));
        expect(error.code).toBe("failed");
        expect(error.message).toBe("Não foi possível gerar o PDF.");
        expect(error.detail).toMatch(/denied by resource access policy|only data:image\/png or jpeg URLs/);
      }
      // An <image> inside an SVG is dropped (not read), and the document still renders.
      const svg = (href: string) =>
        `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><image href="${href}" width="20" height="20"/></svg>`;
      for (const href of [url, file]) {
        const pdf = await pdfs.render({ content: [{ svg: svg(href) }] });
        expect(occurrences(pdf, "/Subtype /Image")).toBe(0);
      }
    } finally {
      server.close();
    }
    expect(requests).toBe(0);
  }, 30_000);

  test("images: data URLs, storage files read through readFile (WebP made JPEG), a gone file as a grey box", async () => {
    const png = new PNG({ width: 4, height: 4 });
    png.data.fill(200);
    const pngBytes = PNG.sync.write(png, { colorType: 2 }); // RGB: no alpha, so no soft mask (a second image object)
    const webp = await sharp({ create: { width: 8, height: 6, channels: 3, background: "#2a7" } })
      .webp()
      .toBuffer();
    const reads: string[] = [];
    const files: Record<string, Uint8Array> = { "a.png": pngBytes, "b.webp": webp };
    const pdfs = pool({
      readFile: async (folder, name) => {
        reads.push(`${folder}/${name}`);
        return files[name] ?? null;
      },
    });
    const pdf = await pdfs.render({
      content: [
        { text: TITLE },
        { image: "inline", width: 20 },
        { image: "stored", width: 20 },
        { image: "thumb", width: 20 },
        { image: "gone", width: 20 },
      ],
      images: {
        inline: `data:image/png;base64,${pngBytes.toString("base64")}`,
        stored: { storage: { folder: "history", name: "a.png" } },
        thumb: { storage: { folder: "history-thumbs", name: "b.webp" } },
        gone: { storage: { folder: "history", name: "c.jpg" } },
      },
    });
    expect(reads).toEqual(["history/a.png", "history-thumbs/b.webp", "history/c.jpg"]);
    expect((await textOf(pdf)).text[0]).toContain(TITLE);
    // inline and stored are the same PNG bytes but two images; the WebP is a JPEG (DCTDecode); gone the grey PNG.
    expect(occurrences(pdf, "/Subtype /Image")).toBe(4);
    expect(occurrences(pdf, "/DCTDecode")).toBe(1);
  }, 30_000);

  test("a function in the document (it cannot cross to the thread) fails that document only", async () => {
    const pdfs = pool();
    const error = await refusal(pdfs.render({ content: [{ text: "x", margin: () => 1 }] }));
    expect(error.code).toBe("failed");
    expect(error.detail).toMatch(/could not be cloned/);
    expect((await textOf(await pdfs.render(report(2)))).text[0]).toContain("Colaboradora 2 da Conceição");
  }, 30_000);

  test("after close, documents are refused ('closed', Retry-After) and the workers are gone", async () => {
    const pdfs = pool();
    await pdfs.render(report(1));
    await pdfs.close();
    expect(pdfs.stats()).toEqual({ workers: 0, running: 0, queued: 0 });
    const error = await refusal(pdfs.render(report(1)));
    expect([error.code, error.message, error.retryAfterSeconds]).toEqual([
      "closed",
      PDF_MESSAGES.closed,
      PDF_RETRY_AFTER_S,
    ]);
  });
});

describe("the row limit and the refusals (api/domain/pdf.ts)", () => {
  test("up to PDF_MAX_ROWS a PDF may be built; past it the message points to 'Exportar Excel'", () => {
    expect(PDF_MAX_ROWS).toBe(5_000);
    expect(pdfRowLimitMessage(0)).toBeNull();
    expect(pdfRowLimitMessage(5_000)).toBeNull();
    expect(pdfRowLimitMessage(5_001)).toBe(
      "O PDF é limitado a 5.000 linhas e este relatório tem 5.001. Use 'Exportar Excel', que traz todas as linhas, ou filtre um período menor.",
    );
    expect(pdfRowLimitMessage(12_345, 10_000)).toBe(PDF_MESSAGES.tooManyRows(12_345, 10_000));
  });

  test("pdfErrorOf knows the pool's errors by name and code (the bundled web app has its own copy of the class)", () => {
    const copy = Object.assign(new Error(PDF_MESSAGES.busy), { name: "PdfError", code: "busy" });
    expect(pdfErrorOf(copy)).toBe(copy);
    expect(pdfErrorOf(new PdfError("timeout", "x"))?.code).toBe("timeout");
    expect(pdfErrorOf(Object.assign(new Error("x"), { name: "PdfError", code: "other" }))).toBeNull();
    expect(pdfErrorOf(new Error("x"))).toBeNull();
    expect(pdfErrorOf("busy")).toBeNull();
  });
});

describe("pdfResponse (app/lib/pdf.server.ts)", () => {
  const request = (accept = "text/html") =>
    new Request("http://localhost/relatorios/colaboradores.pdf", { headers: { accept } });

  test("the pool's PDF as an attachment", async () => {
    const pdfs = pool();
    const response = await pdfResponse({ context: { pdf: pdfs }, request: request() }, report(3), "relatorio.pdf");
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/pdf",
      "content-disposition": 'attachment; filename="relatorio.pdf"',
      "cache-control": "private, no-store",
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect((await textOf(bytes)).text[0]).toContain("Colaboradora 3 da Conceição");
  });

  test("a full queue answers 503 with Retry-After and the message (a page, or JSON to a script)", async () => {
    const busy = { render: () => Promise.reject(new PdfError("busy", PDF_MESSAGES.busy, undefined, 10)) };
    const page = await pdfResponse({ context: { pdf: busy }, request: request() }, report(1), "r.pdf");
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("10");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain(`<p>${PDF_MESSAGES.busy}</p>`);

    const json = await pdfResponse({ context: { pdf: busy }, request: request("*/*") }, report(1), "r.pdf");
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({ message: PDF_MESSAGES.busy });
  });

  test("a document stopped at the time limit answers 503 with its message, no Retry-After; a failure is thrown", async () => {
    const timeout = { render: () => Promise.reject(new PdfError("timeout", PDF_MESSAGES.timeout(30))) };
    const answer = await pdfResponse({ context: { pdf: timeout }, request: request("*/*") }, report(1), "r.pdf");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBeNull();
    expect(await answer.json()).toEqual({ message: PDF_MESSAGES.timeout(30) });

    const broken = { render: () => Promise.reject(new PdfError("failed", PDF_MESSAGES.failed, "bad table")) };
    await expect(pdfResponse({ context: { pdf: broken }, request: request() }, report(1), "r.pdf")).rejects.toThrow(
      PDF_MESSAGES.failed,
    );
  });
});
