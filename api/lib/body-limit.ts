import busboy from "busboy";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

import { MAX_PAGE_ROWS } from "../domain/limits.ts";

/** The two body limits (BODY_LIMIT and UPLOAD_LIMIT) and their defaults. */
export type BodyLimits = { body: number; upload: number };
export const DEFAULT_BODY_LIMITS: BodyLimits = { body: 1024 * 1024, upload: 20 * 1024 * 1024 };

/**
 * What one form (multipart or urlencoded) may hold besides its bytes and its text (BODY_LIMIT for all its fields
 * together; docs/security.md 'Limits'). Parsing a form is
 * one synchronous pass over all its parts: 2,000 fields take a few milliseconds, 60,000 half a second of a blocked
 * process. The longest real forms tick one box per row of a page ('Todos': MAX_PAGE_ROWS) or send 50 inspection
 * items with their photo inputs.
 */
export const FORM_LIMITS = { fields: 2 * MAX_PAGE_ROWS, files: 200 } as const;

export function formatBytes(bytes: number) {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1)).toLocaleString("pt-BR")} MB`;
  return `${Math.round(bytes / 1024).toLocaleString("pt-BR")} KB`;
}

export function tooLargeMessage(limit: number, upload: boolean) {
  return upload
    ? `Os arquivos enviados passam do limite de ${formatBytes(limit)} por envio. Envie arquivos menores ou um de cada vez.`
    : `Os dados enviados passam do limite de ${formatBytes(limit)}.`;
}

export const FORM_TEXTS = {
  tooManyFields: `O formulário enviado tem campos demais: no máximo ${FORM_LIMITS.fields.toLocaleString("pt-BR")} por envio.`,
  tooManyFiles: `O formulário enviado tem arquivos demais: no máximo ${FORM_LIMITS.files} por envio.`,
  textTooLarge: (limit: number) => `O texto do formulário enviado passa do limite de ${formatBytes(limit)}.`,
  unreadable: "Os dados enviados não puderam ser lidos. Tente novamente.",
};

export type BodyRefusal = { status: 400 | 413; message: string };

/**
 * Reads a form body (multipart or urlencoded) through a streaming parser that counts its fields and files and the
 * size of their text while the bytes arrive, stopping at the first limit passed. A form within its limits comes back
 * as its bytes and, parsed in the same pass, as its FormData (fields in order, files with their name and type): the
 * API's routes read that one (`limitBodies` hands it to Hono), so a 20 MB post is parsed once, not twice.
 */
export async function readBoundedForm(
  request: Request,
  limits: { bytes: number; text: number; upload: boolean },
  /** Whether to build the FormData (the API's routes read it; the web's Remix parses the bytes itself). */
  build = true,
): Promise<{ ok: true; body: Uint8Array<ArrayBuffer>; form: FormData } | ({ ok: false } & BodyRefusal)> {
  const refuse = (status: 400 | 413, message: string) => ({ ok: false as const, status, message });
  let parser: busboy.Busboy;
  try {
    // One over each limit: busboy signals some limits on reaching them, some on passing them; the counts below are ours.
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: {
        fields: FORM_LIMITS.fields + 1,
        files: FORM_LIMITS.files + 1,
        parts: FORM_LIMITS.fields + FORM_LIMITS.files + 1,
        fieldSize: limits.text + 1,
      },
    });
  } catch {
    return refuse(400, FORM_TEXTS.unreadable);
  }
  let refusal: BodyRefusal | null = null;
  const stop = (status: 400 | 413, message: string) => void (refusal ??= { status, message });
  let fields = 0;
  let files = 0;
  let text = 0;
  // Parts in the order they came (a file's bytes arrive after its name): the FormData is built once all are in.
  const parts: { name: string; value: string | { chunks: Buffer[]; filename: string; type: string } }[] = [];
  parser.on("field", (name, value, info) => {
    if (++fields > FORM_LIMITS.fields) stop(413, FORM_TEXTS.tooManyFields);
    // A form's text, all its fields together, is no more than a whole urlencoded form may be: decoding text is the
    // dear part of parsing a form (20 MB of fields held the process 150-280 ms per parse; files cost a fraction).
    text += value.length;
    if (info.valueTruncated || text > limits.text) stop(413, FORM_TEXTS.textTooLarge(limits.text));
    if (build && !refusal) parts.push({ name, value });
  });
  parser.on("file", (name, stream, info) => {
    if (++files > FORM_LIMITS.files) stop(413, FORM_TEXTS.tooManyFiles);
    const file = { chunks: [] as Buffer[], filename: info.filename ?? "", type: info.mimeType };
    if (build && !refusal) parts.push({ name, value: file });
    stream.on("data", (chunk: Buffer) => {
      if (build && !refusal) file.chunks.push(chunk);
    });
  });
  parser.on("fieldsLimit", () => stop(413, FORM_TEXTS.tooManyFields));
  parser.on("partsLimit", () => stop(413, FORM_TEXTS.tooManyFields));
  parser.on("filesLimit", () => stop(413, FORM_TEXTS.tooManyFiles));
  const closed = new Promise<void>((resolve) => {
    parser.on("error", () => {
      stop(400, FORM_TEXTS.unreadable);
      resolve();
    });
    parser.on("close", resolve);
  });

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.bytes) return refuse(413, tooLargeMessage(limits.bytes, limits.upload));
      chunks.push(value);
      // A file part waiting to be read holds the parser back: wait for it (or for the parser's end) before more.
      if (!parser.write(value)) await Promise.race([new Promise((resolve) => parser.once("drain", resolve)), closed]);
      if (refusal) return { ok: false, ...(refusal as BodyRefusal) };
    }
  } catch {
    // The client went away mid-body (or sent a broken chunked encoding).
    return refuse(400, FORM_TEXTS.unreadable);
  } finally {
    reader.releaseLock();
  }
  parser.end();
  await closed;
  if (refusal) return { ok: false, ...(refusal as BodyRefusal) };
  const form = new FormData();
  for (const { name, value } of parts)
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new File(value.chunks as Uint8Array<ArrayBuffer>[], value.filename, { type: value.type }));
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, body, form };
}

const formKind = (type: string) =>
  type.startsWith("multipart/form-data")
    ? "multipart"
    : type.startsWith("application/x-www-form-urlencoded")
      ? "urlencoded"
      : null;

/**
 * Refuses a request body over its limits before anyone holds it whole: from Content-Length at once, and while reading
 * a body sent without one (chunked), stopping at the limit. Multipart bodies (CSV files, images) get the larger upload
 * limit; every other body (forms, JSON) the small one. Form bodies also pass readBoundedForm (parts, fields, their
 * text: 413; a form that does not parse: 400), so no route's formData() ever meets an unbounded form. `answer`
 * writes the refusal (JSON for the API, a page for the web).
 */
export function limitBodies(
  limits: BodyLimits,
  answer: (c: Context, message: string, status: 400 | 413) => Response | Promise<Response>,
  /** handOn: the parsed form becomes the one `c.req.formData()` answers (the API; Remix parses the bytes itself). */
  options: { handOn: boolean } = { handOn: true },
): MiddlewareHandler {
  const forBody = bodyLimit({
    maxSize: limits.body,
    onError: (c) => answer(c, tooLargeMessage(limits.body, false), 413),
  });
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    const kind = formKind(type);
    if (!kind) return forBody(c, next);
    if (!c.req.raw.body) return next();
    const upload = kind === "multipart";
    const bytes = upload ? limits.upload : limits.body;
    const length = c.req.header("content-length");
    if (length !== undefined && !c.req.header("transfer-encoding") && Number(length) > bytes)
      return answer(c, tooLargeMessage(bytes, upload), 413);
    const read = await readBoundedForm(c.req.raw, { bytes, text: limits.body, upload }, options.handOn);
    if (!read.ok) return answer(c, read.message, read.status);
    c.req.raw = new Request(c.req.raw, { body: read.body });
    // The form parsed by the guard is the one `c.req.formData()` / `parseBody()` answer: no second parse in a route.
    // (Hono keeps a promise there, though its type says FormData.)
    if (options.handOn) c.req.bodyCache.formData = Promise.resolve(read.form) as unknown as FormData;
    return next();
  };
}
