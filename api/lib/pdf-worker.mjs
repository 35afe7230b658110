/**
 * The PDF pool's worker thread (api/lib/pdf-pool.ts): pdfmake lays a document out and renders it here, off the
 * server's event loop. Plain JavaScript so it loads the same under tsx (npm start), vitest and plain node, with no
 * TypeScript loader in each worker (the pool starts it with execArgv []). Its types are in pdf-worker.d.mts.
 *
 * Messages: the pool sends { type: "render", id, doc }; the worker answers { type: "done", id, pdf } or
 * { type: "failed", id, message }. To read an image from the uploads storage it sends { type: "read", id, request,
 * folder, name } and gets { type: "file", request, bytes } (bytes null when there is no such file).
 */
import { readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);
/** pdfmake's server build is CommonJS: one shared instance, configured once per worker. */
const pdfmake = require("pdfmake");

const robotoDir = path.join(path.dirname(require.resolve("pdfmake/package.json")), "fonts", "Roboto");

/** Roboto as pdfmake ships it (the QR sheets use the same files): Latin with every accent of Portuguese. */
export const FONT_FILES = {
  normal: path.join(robotoDir, "Roboto-Regular.ttf"),
  bold: path.join(robotoDir, "Roboto-Medium.ttf"),
  italics: path.join(robotoDir, "Roboto-Italic.ttf"),
  bolditalics: path.join(robotoDir, "Roboto-MediumItalic.ttf"),
};
const fontPaths = new Set(Object.values(FONT_FILES));

pdfmake.setFonts({ Roboto: FONT_FILES });
// No URL is fetched (fonts, images, attachments): pdfmake asks this before every request and every redirect.
pdfmake.setUrlAccessPolicy(() => false);
// No file of the server's disk but the fonts (an image, attachment or file given as a path is refused).
pdfmake.setLocalAccessPolicy((file) => fontPaths.has(file));

/** A 1×1 light grey PNG: what a storage image that is gone prints as (stretched to the size the document gives). */
export const MISSING_IMAGE =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4AWN48OABAAVEAqE84lVRAAAAAElFTkSuQmCC";

const DATA_IMAGE = /^data:image\/(png|jpeg);base64,/;

/** Images as pdfmake wants them (data URLs): storage files read through `readFile`, a gone one as MISSING_IMAGE. */
async function resolveImages(images, readFile) {
  const resolved = {};
  for (const [name, image] of Object.entries(images ?? {})) {
    if (typeof image === "string" && DATA_IMAGE.test(image)) resolved[name] = image;
    else if (image && typeof image === "object" && image.storage) {
      const bytes = await readFile(String(image.storage.folder), String(image.storage.name));
      resolved[name] = bytes ? dataUrl(bytes) : MISSING_IMAGE;
    } else throw new Error(`image '${name}': only data:image/png or jpeg URLs and storage files are accepted`);
  }
  return resolved;
}

/** The pool hands over PNG or JPEG only (it turns WebP and GIF into JPEG); JPEG starts with FF D8. */
function dataUrl(bytes) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = buffer[0] === 0xff && buffer[1] === 0xd8 ? "jpeg" : "png";
  return `data:image/${type};base64,${buffer.toString("base64")}`;
}

/** `{page}` and `{pages}` in every text of `node`, filled in (a fresh copy per page). */
function fillPageNumbers(node, page, pages) {
  if (typeof node === "string") return node.replaceAll("{pages}", String(pages)).replaceAll("{page}", String(page));
  if (Array.isArray(node)) return node.map((item) => fillPageNumbers(item, page, pages));
  if (node && typeof node === "object")
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, fillPageNumbers(value, page, pages)]));
  return node;
}

/** An SVG's <image href> goes to pdfkit's openImage, which would read a path from disk: data URLs only. */
const svgImage = (link) => (DATA_IMAGE.test(link) ? link : "");

/** Every `svg` node of the content gets svgImage as its image callback (pdfmake passes `options` through). */
function guardSvgImages(node) {
  if (Array.isArray(node)) {
    for (const item of node) guardSvgImages(item);
  } else if (node && typeof node === "object") {
    if ("svg" in node) node.options = { ...node.options, imageCallback: svgImage };
    for (const value of Object.values(node)) if (value && typeof value === "object") guardSvgImages(value);
  }
}

/**
 * Lays out and renders one document definition (as api/domain/pdf.ts PdfDocDefinition describes it) into PDF bytes.
 * `readFile(folder, name)` answers a storage file's bytes or null. Exported for the bench's comparison on the main
 * thread; the pool runs it in this worker.
 */
export async function renderPdf(doc, readFile = async () => null) {
  const definition = { ...doc, images: await resolveImages(doc.images, readFile) };
  for (const part of ["header", "footer"]) {
    const template = definition[part];
    if (template !== undefined && typeof template !== "function")
      definition[part] = (page, pages) => fillPageNumbers(template, page, pages);
  }
  guardSvgImages(definition.content);
  guardSvgImages(definition.background);
  const buffer = await pdfmake.createPdf(definition).getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * This thread's nice value raised (Linux: setpriority on a thread id applies to that thread alone, and lowering one's
 * own priority needs no privilege). When the cores are busy, the server's thread, which answers every request, then
 * gets the CPU before a PDF does: a PDF is a download the user waits seconds for anyway. Elsewhere, nothing happens.
 */
function lowerPriority(nice) {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid !== process.pid) os.setPriority(tid, nice);
  } catch {
    // not Linux, or not allowed: the thread keeps the process's priority
  }
}

if (parentPort) {
  const port = parentPort;
  if (workerData?.nice) lowerPriority(workerData.nice);
  let requests = 0;
  /** Storage reads waiting for the pool's answer, by request number. */
  const waiting = new Map();

  port.on("message", async (message) => {
    if (message.type === "file") {
      waiting.get(message.request)?.(message.bytes);
      waiting.delete(message.request);
      return;
    }
    if (message.type !== "render") return;
    const { id, doc } = message;
    const readFile = (folder, name) =>
      new Promise((resolve) => {
        const request = ++requests;
        waiting.set(request, resolve);
        port.postMessage({ type: "read", id, request, folder, name });
      });
    try {
      const pdf = await renderPdf(doc, readFile);
      // The bytes move to the pool without a copy when the array owns its whole buffer.
      const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : pdf.slice();
      port.postMessage({ type: "done", id, pdf: owned }, [owned.buffer]);
    } catch (error) {
      port.postMessage({ type: "failed", id, message: error instanceof Error ? error.message : String(error) });
    }
  });
  port.postMessage({ type: "ready" });
}
