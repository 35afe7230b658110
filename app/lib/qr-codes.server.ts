import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { fileURLToPath } from "node:url";

import { TZDate } from "@date-fns/tz";
import { format as formatDate } from "date-fns";
import jpeg from "jpeg-js";
import PDFDocument from "pdfkit";
import { PNG } from "pngjs";
import QRCode, { type QRCodeErrorCorrectionLevel } from "qrcode";

import { BUSINESS_TIME_ZONE } from "./format";

/**
 * The environments' QR codes (spec 000 §2 'Environments', §4 QR modal, §9 geometry and file names): the content,
 * the downloadable images and the printable A4 sheets. docs/qr-codes.md gives the decisions.
 */

export type QrImageFormat = "png" | "jpeg" | "svg";
export const QR_IMAGE_FORMATS: readonly QrImageFormat[] = ["png", "jpeg", "svg"];

/** Q (25 % of the code may be lost): a sticker on a door gets scratched and dirty; the URLs are short anyway. */
const ERROR_CORRECTION: QRCodeErrorCorrectionLevel = "Q";
/** The quiet zone the standard asks for, in modules. */
const MARGIN = 4;
/** Width and height of the PNG and JPEG images (quiet zone included), in pixels. */
export const QR_IMAGE_SIZE = 600;
const JPEG_QUALITY = 92;

/** The room's QR value as migration 019 keeps it (environments.qr_codigo): 16 hex digits. */
const QR_CODIGO = /^[0-9a-f]{16}$/;

/**
 * What the code holds: the URL of the public room page with the room's QR value, `{PUBLIC_URL}/info/ambiente/{id}?qr=
 * {qrCodigo}`. A phone camera opens it as is; the room page passes the value on to the field app ('Sou da equipe de
 * limpeza'), where a slot started with the room's current value counts as started in front of the room
 * (docs/qr-codes.md 'What the code holds', docs/field-app.md 'Proof flags').
 */
export function qrContent(environment: { id: number; qrCodigo: string }, publicUrl: string) {
  if (!Number.isSafeInteger(environment.id) || environment.id < 1)
    throw new RangeError(`invalid environment id: ${environment.id}`);
  if (!QR_CODIGO.test(environment.qrCodigo)) throw new RangeError(`invalid QR value for environment ${environment.id}`);
  return `${publicUrl.replace(/\/+$/, "")}/info/ambiente/${environment.id}?qr=${environment.qrCodigo}`;
}

const CONTENT_TYPES: Record<QrImageFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  svg: "image/svg+xml",
};

/** Black on white, nothing else: the most contrast for cheap printers and old phone cameras. */
const COLORS = { dark: "#000000", light: "#ffffff" };

/** A QR code image of `content`: PNG or JPEG of QR_IMAGE_SIZE pixels, or an SVG that scales to any size. */
export async function qrImage(
  content: string,
  format: QrImageFormat,
): Promise<{ body: Buffer | string; contentType: string }> {
  const options = { errorCorrectionLevel: ERROR_CORRECTION, margin: MARGIN, color: COLORS };
  switch (format) {
    case "svg":
      return {
        body: await QRCode.toString(content, { ...options, type: "svg", width: QR_IMAGE_SIZE }),
        contentType: CONTENT_TYPES.svg,
      };
    case "png":
      return {
        body: await QRCode.toBuffer(content, { ...options, type: "png", width: QR_IMAGE_SIZE }),
        contentType: CONTENT_TYPES.png,
      };
    case "jpeg": {
      // qrcode writes PNG only: its pixels are re-encoded as a baseline JPEG.
      const png = PNG.sync.read(await QRCode.toBuffer(content, { ...options, type: "png", width: QR_IMAGE_SIZE }));
      return {
        body: jpeg.encode({ data: png.data, width: png.width, height: png.height }, JPEG_QUALITY).data,
        contentType: CONTENT_TYPES.jpeg,
      };
    }
  }
}

/** 'QRCODE-{ID}.{format}' (spec 000 §9): '.jpeg', the format's own name as the modal offers it ('JPEG'). */
export function qrImageFileName(id: number, format: QrImageFormat) {
  return `QRCODE-${id}.${format}`;
}

/** One environment's sheet: 'QRCODE-{ID}.pdf'. */
export function qrPdfFileName(id: number) {
  return `QRCODE-${id}.pdf`;
}

/** Several environments' sheets in one file: 'QRCODES-YYYYMMDD-HHmm.pdf', at that minute in the business time zone. */
export function qrBulkPdfFileName(now = new Date()) {
  return `QRCODES-${formatDate(new TZDate(now, BUSINESS_TIME_ZONE), "yyyyMMdd-HHmm")}.pdf`;
}

// ---------------------------------------------------------------------------------------------------------------
// The printable A4 sheets, one page per environment.

const MM = 72 / 25.4;
const mm = (value: number) => value * MM;

/** Spec 000 §9, in mm from the top-left of an A4 page: the code 100 mm square at 56, 85, the name below it. */
export const QR_SHEET = {
  page: { width: 210, height: 297 },
  /** The code with its quiet zone, as the PNG/JPEG/SVG images are. */
  qr: { x: 56, y: 85, size: 100 },
  /** The name's box: centred on the code's axis (51 to 161 mm), from 8 mm below the code to the template's footer. */
  name: { x: 51, y: 193, width: 110, bottom: 262 },
} as const;

/** The name's font size falls as it grows, down to 15 pt; what still does not fit ends with an ellipsis. */
const NAME_SIZES = [26, 22, 18, 15];
/** The largest size that wraps the name in at most this many lines wins. */
const NAME_MAX_LINES = 4;
const NAME_LINE_GAP = 2;
const NAME_COLOR = "#1d2630";
const NAME_FONT = "name";

const pdfmakeDir = path.dirname(createRequire(import.meta.url).resolve("pdfmake/package.json"));
const robotoDir = path.join(pdfmakeDir, "fonts", "Roboto");
/**
 * Roboto, which pdfmake ships: embedded (subset) in the PDF so any name prints, accents and all; the template's
 * rendering (scripts/qr-template.ts) uses the same files.
 */
export const QR_FONT_FILES = {
  normal: path.join(robotoDir, "Roboto-Regular.ttf"),
  bold: path.join(robotoDir, "Roboto-Medium.ttf"),
};

/** public/qr-template.png, found above this module (app/lib in the source, build/ once compiled). */
function templateFile() {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, "public", "qr-template.png");
    if (existsSync(file)) return file;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("public/qr-template.png not found");
    dir = parent;
  }
}

/**
 * The code's modules as qrcode draws them in its SVG: one stroked path, one unit per module, on a square of `size`
 * units (quiet zone included). The PDF draws that path scaled, so the code stays vector and sharp at any print size.
 */
async function qrVector(content: string) {
  const svg = await QRCode.toString(content, {
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: MARGIN,
    color: COLORS,
    type: "svg",
  });
  const size = /viewBox="0 0 (\d+) \1"/.exec(svg)?.[1];
  const modules = /<path[^>]*\sstroke="[^"]*"[^>]*\sd="([^"]+)"/.exec(svg)?.[1];
  if (!size || !modules) throw new Error("qrcode's SVG has an unexpected shape");
  return { size: Number(size), path: modules };
}

function nameFontSize(document: PDFKit.PDFDocument, name: string) {
  const { width } = QR_SHEET.name;
  for (const size of NAME_SIZES) {
    document.fontSize(size);
    const lineHeight = document.currentLineHeight(true) + NAME_LINE_GAP;
    if (
      document.heightOfString(name, { width: mm(width), lineGap: NAME_LINE_GAP }) <=
      NAME_MAX_LINES * lineHeight + 0.5
    )
      return size;
  }
  return NAME_SIZES[NAME_SIZES.length - 1];
}

async function drawSheet(document: PDFKit.PDFDocument, template: string, sheet: QrSheet, publicUrl: string) {
  const code = await qrVector(qrContent(sheet, publicUrl));
  const { page, qr, name } = QR_SHEET;
  document.addPage();
  // A file path: pdfkit embeds the image once per document and points every page at that one object.
  document.image(template, 0, 0, { width: mm(page.width), height: mm(page.height) });
  document
    .save()
    .translate(mm(qr.x), mm(qr.y))
    .scale(mm(qr.size) / code.size)
    .rect(0, 0, code.size, code.size)
    .fill(COLORS.light)
    .path(code.path)
    .lineWidth(1)
    .stroke(COLORS.dark)
    .restore();
  const text = sheet.name.trim() || `Ambiente ${sheet.id}`;
  document.font(NAME_FONT);
  document.fontSize(nameFontSize(document, text));
  document.fillColor(NAME_COLOR).text(text, mm(name.x), mm(name.y), {
    width: mm(name.width),
    height: mm(name.bottom - name.y),
    align: "center",
    lineGap: NAME_LINE_GAP,
    ellipsis: true,
  });
}

export type QrSheet = { id: number; name: string; qrCodigo: string };
/** An array, or a generator that fetches the environments in chunks (pulled only as fast as the client reads). */
export type QrSheetSource = Iterable<QrSheet> | AsyncIterable<QrSheet>;
export type QrPdfOptions = {
  /** Called once when the source (or the drawing) fails after the download has begun; the stream is destroyed anyway. */
  onError?: (error: unknown) => void;
};

/** Resolves when the output can take more (or is gone); first lets the pages written so far flow into it. */
async function roomToWrite(output: PassThrough) {
  await new Promise((resolve) => setImmediate(resolve));
  while (output.writableNeedDrain && !output.destroyed)
    await new Promise<void>((resolve) => {
      const done = () => {
        output.off("drain", done);
        output.off("close", done);
        resolve();
      };
      output.once("drain", done);
      output.once("close", done);
    });
}

/**
 * The printable sheets (spec 000 §2, §9): one A4 page per environment, in the source's order: the template, the QR
 * code 100 mm square at 56, 85 mm, the name centred below within 110 mm. The PDF is written page by page into the
 * returned stream, which holds about one page at a time: the next environment is drawn only when the reader has
 * taken the previous one, and the event loop gets a turn between pages, so 500 sheets neither pile up in memory nor
 * stall other requests.
 *
 * The first environment is pulled and drawn before the promise resolves: an empty source or a failure there rejects
 * it (the route's normal error path). A later failure destroys the stream with that error, and a reader that goes
 * away stops the pulling (the source's `finally` runs).
 */
export async function qrPdf(
  environments: QrSheetSource,
  publicUrl: string,
  options: QrPdfOptions = {},
): Promise<Readable> {
  const template = templateFile();
  const iterator: AsyncIterator<QrSheet> | Iterator<QrSheet> =
    Symbol.asyncIterator in environments ? environments[Symbol.asyncIterator]() : environments[Symbol.iterator]();
  const first = await iterator.next();
  if (first.done) throw new RangeError("no environments to print");

  const document = new PDFDocument({
    size: "A4",
    margin: 0,
    autoFirstPage: false,
    info: { Title: "QR codes dos ambientes", Creator: "Limpeza" },
    lang: "pt-BR",
  });
  document.registerFont(NAME_FONT, QR_FONT_FILES.bold);
  const output = new PassThrough();
  // Errors reach the stream's reader; this keeps one emitted after the reader has gone from being uncaught.
  output.on("error", () => undefined);
  document.pipe(output);
  try {
    await drawSheet(document, template, first.value, publicUrl);
  } catch (error) {
    await iterator.return?.();
    throw error;
  }

  const write = async () => {
    let next: IteratorResult<QrSheet> = first;
    let pages = 1;
    try {
      for (;;) {
        await roomToWrite(output);
        if (output.destroyed) return; // the reader went away: stop pulling (finally closes the source)
        next = await iterator.next();
        if (next.done) break;
        await drawSheet(document, template, next.value, publicUrl);
        pages++;
      }
    } finally {
      if (!next.done) await iterator.return?.();
    }
    if (pages === 1) document.info.Title = `QR code: ${first.value.name}`;
    document.end();
  };
  void write().catch((error: unknown) => {
    options.onError?.(error);
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
