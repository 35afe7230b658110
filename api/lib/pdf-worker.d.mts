/** Types of pdf-worker.mjs (plain JavaScript, so the worker thread needs no TypeScript loader). */
import type { PdfDocDefinition } from "../domain/pdf.ts";

export declare const FONT_FILES: { normal: string; bold: string; italics: string; bolditalics: string };
export declare const MISSING_IMAGE: string;
export declare function renderPdf(
  doc: PdfDocDefinition,
  readFile?: (folder: string, name: string) => Promise<Uint8Array | null>,
): Promise<Uint8Array<ArrayBuffer>>;
