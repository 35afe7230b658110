import type { MiddlewareHandler } from "hono";

import { replaceAnswer } from "./replace-answer.ts";

/**
 * A micro-cache for answers that declare themselves public for a short time (`Cache-Control: public, max-age=N`,
 * N ≤ MAX_AGE_S): today the public room page and its API call, which a queue of people scanning the same QR code asks
 * for again and again. The first answer is kept for N seconds, per URL and per encoding (it sits outside the
 * compression, so a hit costs neither a render nor a gzip), and replayed with an `Age` header; browsers and proxies
 * would keep it as long anyway. Never cached: other methods, requests with cookies, answers with Set-Cookie, other statuses than 200/404,
 * bodies over MAX_BODY_BYTES. The CSP nonce the page was rendered with goes back with it (`onHit`), so its inline
 * <style> still matches the Content-Security-Policy header. docs/room-page.md 'How it is served'.
 */
const MAX_AGE_S = 300;
const MAX_BODY_BYTES = 256 * 1024;
const CACHEABLE = /^public,\s*max-age=(\d+)$/;

type Entry = {
  expires: number;
  stored: number;
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  nonce: string;
};

/**
 * Changes to a public page made by other calls (a manager or an ASG handling a room's incident): the cache forgets
 * that page's answers, as it does for a write posted to the page itself. Per process, like the cache.
 */
export type PageChanges = { changed(path: string): void; onChange(listener: (path: string) => void): void };

export function pageChanges(): PageChanges {
  const listeners: ((path: string) => void)[] = [];
  return {
    changed: (path) => listeners.forEach((listener) => listener(path)),
    onChange: (listener) => void listeners.push(listener),
  };
}

export function publicCache<E extends { Variables: { nonce: string } }>(
  options: { maxEntries?: number; now?: () => number; pages?: PageChanges } = {},
): MiddlewareHandler<E> {
  const maxEntries = options.maxEntries ?? 500;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  options.pages?.onChange((path) => forgetPage(entries, path));

  return async (c, next) => {
    if (c.req.method !== "GET") {
      // A write about a page (a visitor's report posted to /info/ambiente/5, or to /api/info/ambiente/5/relato) drops
      // that page's kept answers here, so the next scan shows it; other instances keep theirs for their max-age.
      await next();
      if (c.res.status < 400) forgetPage(entries, new URL(c.req.url).pathname);
      return;
    }
    // A request with cookies may get a personal page (a signed-in inspector's room page offers 'Inspecionar'): it is
    // neither served from nor kept in the cache. Visitors scanning a QR code carry none.
    if (c.req.header("cookie")) return next();
    const gzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const key = `${gzip ? "gzip" : "identity"} ${c.req.url}`;
    const hit = entries.get(key);
    if (hit && hit.expires > now()) {
      c.set("nonce", hit.nonce);
      const headers = new Headers(hit.headers);
      headers.set("age", String(Math.floor((now() - hit.stored) / 1000)));
      return new Response(hit.body as Uint8Array<ArrayBuffer>, { status: hit.status, headers });
    }
    if (hit) entries.delete(key);

    await next();
    const response = c.res;
    const maxAge = Number(CACHEABLE.exec(response.headers.get("cache-control") ?? "")?.[1] ?? 0);
    if (!maxAge || maxAge > MAX_AGE_S || ![200, 404].includes(response.status)) return;
    if (response.headers.has("set-cookie") || !response.body) return;
    const length = Number(response.headers.get("content-length") ?? 0);
    if (length > MAX_BODY_BYTES) return;
    const body = new Uint8Array(await response.arrayBuffer());
    const headers = new Headers(response.headers);
    replaceAnswer(c, new Response(body as Uint8Array<ArrayBuffer>, { status: response.status, headers }));
    if (body.length > MAX_BODY_BYTES) return;
    // The oldest entry goes first when full (Map keeps insertion order).
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    const stored = now();
    entries.set(key, {
      expires: stored + maxAge * 1000,
      stored,
      status: response.status,
      headers: [...headers],
      body,
      nonce: c.get("nonce"),
    });
  };
}

/** The path a page and its API call share: /api/info/ambiente/5 and /info/ambiente/5 are the same page. */
const pagePath = (path: string) => path.replace(/^\/api(?=\/)/, "");

/** Drops the kept answers of the page a write went to, and of the pages above it (/info/ambiente/5 for …/5/relato). */
function forgetPage(entries: Map<string, unknown>, writtenPath: string) {
  const written = pagePath(writtenPath);
  for (const key of entries.keys()) {
    const path = pagePath(new URL(key.slice(key.indexOf(" ") + 1)).pathname);
    if (written === path || written.startsWith(`${path}/`)) entries.delete(key);
  }
}
