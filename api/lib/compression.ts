/**
 * The web server's compression and static files (docs/performance.md 'The render path'), used by server.ts.
 *
 * - `bufferedCompression`: dynamic HTML, JSON and single-fetch data are small, so the whole body is read and
 *   gzipped in one call (synchronously below 64 KB, on libuv's thread pool above) instead of through a
 *   CompressionStream per response, which costs more than the compression itself for a 20 KB page.
 * - `staticFiles`: public/ is indexed once at start-up and served from memory, with the `.br`/`.gz` siblings that
 *   `npm run build` writes (scripts/precompress.ts; a file without them is compressed once, at start-up). Build
 *   assets (fingerprinted) are immutable for a year. Requests for anything else reach Remix without a file-system
 *   look-up; only a path with a file extension that is not in the index is looked for on disk (a file added to
 *   public/ after start, as the bench does), and a file found is kept in the index from then on.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from "node:zlib";

import type { MiddlewareHandler } from "hono";

import { replaceAnswer } from "./replace-answer.ts";

const gzipAsync = promisify(gzip);

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|x-javascript)|image\/svg\+xml)/;
const SYNC_LIMIT = 64 * 1024;
const MIN_BYTES = 1024;
/** Answers that never have a body (a Response with one cannot be built for them). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/**
 * zlib's levels 1-3 are its fast strategy: on the 38 KB list page level 3 costs 135 µs against level 6's 376 µs
 * for 6.5 % more bytes (6.5 KB against 6.1 KB); nginx's default is 1. Build assets are precompressed at level 9.
 */
const GZIP_LEVEL = 3;

function acceptsEncoding(header: string | undefined, encoding: "gzip" | "br") {
  if (!header) return false;
  return header
    .split(",")
    .map((part) => part.trim().split(";"))
    .some(([name, ...params]) => name === encoding && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)));
}

function appendVary(headers: Headers) {
  const vary = headers.get("vary");
  if (!vary) headers.set("vary", "accept-encoding");
  else if (!/accept-encoding/i.test(vary)) headers.set("vary", `${vary}, accept-encoding`);
}

export function bufferedCompression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const response = c.res;
    // Status and headers only: reading `body` or `statusText` of @hono/node-server's lightweight response builds the
    // native Response and its stream, which arrayBuffer() below reads without (docs/performance.md 'The render path').
    if (c.req.method === "HEAD" || NULL_BODY_STATUSES.has(response.status)) return;
    if (response.headers.has("content-encoding")) return;
    const type = response.headers.get("content-type") ?? "";
    // Event streams must flow; no-transform forbids it.
    if (!COMPRESSIBLE.test(type) || type.startsWith("text/event-stream")) return;
    if (/no-transform/.test(response.headers.get("cache-control") ?? "")) return;
    if (!acceptsEncoding(c.req.header("accept-encoding"), "gzip")) return;
    const body = new Uint8Array(await response.arrayBuffer());
    const headers = new Headers(response.headers);
    appendVary(headers);
    let out: Uint8Array = body;
    if (body.length >= MIN_BYTES) {
      out =
        body.length <= SYNC_LIMIT
          ? gzipSync(body, { level: GZIP_LEVEL })
          : await gzipAsync(body, { level: GZIP_LEVEL });
      headers.set("content-encoding", "gzip");
    }
    headers.set("content-length", String(out.length));
    // No statusText: the node server writes the status code alone.
    replaceAnswer(c, new Response(out as Uint8Array<ArrayBuffer>, { status: response.status, headers }));
  };
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".csv": "text/csv; charset=utf-8",
};

type StaticFile = { type: string; raw: Uint8Array; gzip?: Uint8Array; br?: Uint8Array; cacheControl: string };

/** Reads one file of public/ with its compressed forms (the build's siblings, or made now). */
function loadFile(file: string, urlPath: string): StaticFile {
  const ext = path.extname(file).toLowerCase();
  const type = TYPES[ext] ?? "application/octet-stream";
  const raw = new Uint8Array(readFileSync(file));
  const cacheControl = urlPath.startsWith("/build/") ? "public, max-age=31536000, immutable" : "public, max-age=3600";
  const entry: StaticFile = { type, raw, cacheControl };
  if (COMPRESSIBLE.test(type) && raw.length >= MIN_BYTES) {
    entry.gzip = existsSync(`${file}.gz`) ? new Uint8Array(readFileSync(`${file}.gz`)) : gzipSync(raw, { level: 9 });
    entry.br = existsSync(`${file}.br`)
      ? new Uint8Array(readFileSync(`${file}.br`))
      : brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } });
  }
  return entry;
}

function indexDir(dir: string, prefix: string, index: Map<string, StaticFile>) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const urlPath = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) indexDir(full, urlPath, index);
    else if (entry.isFile() && !/\.(gz|br)$/.test(entry.name)) index.set(urlPath, loadFile(full, urlPath));
  }
}

function respond(file: StaticFile, acceptEncoding: string | undefined, head: boolean) {
  const headers = new Headers({ "content-type": file.type, "cache-control": file.cacheControl });
  let body = file.raw;
  if (file.br || file.gzip) {
    headers.set("vary", "accept-encoding");
    if (file.br && acceptsEncoding(acceptEncoding, "br")) {
      body = file.br;
      headers.set("content-encoding", "br");
    } else if (file.gzip && acceptsEncoding(acceptEncoding, "gzip")) {
      body = file.gzip;
      headers.set("content-encoding", "gzip");
    }
  }
  headers.set("content-length", String(body.length));
  return new Response(head ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

export function staticFiles(publicDir: string): MiddlewareHandler {
  const index = new Map<string, StaticFile>();
  indexDir(publicDir, "", index);
  const root = path.resolve(publicDir);
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    let file = index.get(urlPath);
    // A path with an extension that is not indexed (single fetch's .data is Remix's): a file added since start?
    if (!file && /\.[a-z0-9]+$/i.test(urlPath) && !urlPath.endsWith(".data")) {
      const full = path.resolve(root, `.${urlPath}`);
      if (full.startsWith(`${root}${path.sep}`) && existsSync(full) && statSync(full).isFile()) {
        // Read and compressed once, then served from memory like the files indexed at start-up.
        file = loadFile(full, urlPath);
        index.set(urlPath, file);
      }
    }
    if (!file) return next();
    return respond(file, c.req.header("accept-encoding"), c.req.method === "HEAD");
  };
}
