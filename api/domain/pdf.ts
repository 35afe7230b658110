/**
 * PDFs built by the pool (api/lib/pdf-pool.ts, issue 23 'PDF'; docs/architecture.md 'PDFs'): the document a caller
 * hands over, the pool's refusals and their Portuguese messages, and the row limit past which a report offers the
 * Excel export instead. Browser-safe (no I/O): the report pages may read the limit to say so before a click.
 */

/**
 * An image of the document: a `data:image/png|jpeg;base64,...` URL the caller made, or a file of the uploads
 * storage (api/services/storage.ts), read for the worker by the pool through the same Storage the API uses. A file
 * that is gone prints as a light grey box, so a removed photo does not cost the whole report. Nothing else: no URL
 * (pdfmake's URL access is off) and no path on the server's disk.
 */
export type PdfImage = string | { storage: { folder: string; name: string } };

/**
 * A pdfmake document definition (pdfmake.org 'Document definition object') that can cross to a worker thread: plain
 * data only, so no functions. Two things pdfmake does with functions are offered as data instead:
 * - `header` / `footer` as content in which the text `{page}` and `{pages}` become the page number and the count;
 * - table layouts by name only ('noBorders', 'headerLineOnly', 'lightHorizontalLines').
 * Fonts are the pool's (Roboto, the family pdfmake ships; bold is its Medium weight); `images` as above.
 */
export type PdfDocDefinition = {
  content: unknown;
  images?: Record<string, PdfImage>;
  header?: unknown;
  footer?: unknown;
  [key: string]: unknown;
};

export type PdfRenderOptions = {
  /** The request's signal: a caller that went away leaves the queue, or stops its document if it is being built. */
  signal?: AbortSignal;
};

/** What the web app gets in its load context (app/context.ts `pdf`). */
export type PdfRenderer = {
  /** The PDF's bytes; rejects with a PdfError (see pdfErrorOf) when the pool refuses or the document fails. */
  render(doc: PdfDocDefinition, options?: PdfRenderOptions): Promise<Uint8Array<ArrayBuffer>>;
};

/**
 * The most rows a report PDF may hold (ours; docs/performance.md 'PDF pool'): measured here, a 10-column A4
 * landscape table of 5,000 rows takes ~3.4 s and ~200 MB of the worker's heap, 10,000 rows ~8 s and ~420 MB (layout
 * grows faster than the rows). Past it the report offers the Excel export, which streams any number of rows.
 */
export const PDF_MAX_ROWS = 5_000;

/** Seconds a refused caller is told to wait (Retry-After): a full queue at the row limit drains in about that. */
export const PDF_RETRY_AFTER_S = 10;

const count = (value: number) => value.toLocaleString("pt-BR");

export const PDF_MESSAGES = {
  busy: "Muitos PDFs estão sendo gerados agora. Tente novamente em alguns segundos.",
  timeout: (seconds: number) =>
    `O PDF levou mais de ${count(seconds)} segundos para ser gerado e foi interrompido. Filtre um período menor ou use 'Exportar Excel'.`,
  failed: "Não foi possível gerar o PDF.",
  closed: "O servidor está reiniciando. Tente novamente em alguns segundos.",
  tooManyRows: (rows: number, max: number) =>
    `O PDF é limitado a ${count(max)} linhas e este relatório tem ${count(rows)}. Use 'Exportar Excel', que traz todas as linhas, ou filtre um período menor.`,
} as const;

/** The refusal of a report PDF of `rows` rows, pointing to the Excel export; null when the PDF may be built. */
export function pdfRowLimitMessage(rows: number, max = PDF_MAX_ROWS): string | null {
  return rows > max ? PDF_MESSAGES.tooManyRows(rows, max) : null;
}

/**
 * - busy: the queue is full (refused at once; 503 with Retry-After);
 * - timeout: the document ran past the time limit (its worker was stopped and replaced);
 * - failed: pdfmake refused the document (bad definition, a denied URL or file) or its worker died;
 * - closed: the server is shutting down.
 */
export type PdfErrorCode = "busy" | "timeout" | "failed" | "closed";

export class PdfError extends Error {
  override name = "PdfError";
  constructor(
    readonly code: PdfErrorCode,
    message: string,
    /** What went wrong inside the worker (pdfmake's own words), for the log; not for the user. */
    readonly detail?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * The PdfError in `error`, or null. By its name and code, not instanceof: the web app is bundled into build/index.js
 * with its own copy of this module, while the pool runs from the source, so the two classes are not the same object.
 */
export function pdfErrorOf(error: unknown): PdfError | null {
  if (!(error instanceof Error) || error.name !== "PdfError") return null;
  const code = (error as Partial<PdfError>).code;
  return code === "busy" || code === "timeout" || code === "failed" || code === "closed" ? (error as PdfError) : null;
}
