/**
 * The frame every answer of server.ts gets (api/lib/request-frame.ts): the request id echoed and logged, the
 * security headers with the page's nonce, and an answer left as it is (no stream built around a finished page).
 */
import { gunzipSync } from "node:zlib";

import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import pino from "pino";
import { beforeAll, expect, test, vi } from "vitest";

import { bufferedCompression } from "../../api/lib/compression.ts";
import { requestFrame, type FrameVariables } from "../../api/lib/request-frame.ts";

const NativeResponse = globalThis.Response;
const page = Buffer.from(`<!DOCTYPE html><p>${"Relatório de limpeza ".repeat(200)}</p>`);
const lines: Record<string, unknown>[] = [];
let app: Hono<{ Variables: FrameVariables }>;

beforeAll(() => {
  // What serve() does when the server starts: the global Response becomes @hono/node-server's lightweight one.
  getRequestListener(() => new Response(null));
  const logger = pino({ base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  app = new Hono<{ Variables: FrameVariables }>();
  app.use("*", requestFrame({ logger, trustProxy: 0, production: true }));
  app.use("*", bufferedCompression());
  app.get("/", (c) => {
    const nonce = c.get("nonce");
    return new Response(page, { headers: { "content-type": "text/html; charset=utf-8", "x-nonce": nonce } });
  });
  app.get("/dados", (c) => c.json({ nome: "Recepção" }));
  // A native answer whose headers cannot change (as Response.redirect() or fetch() give).
  app.get("/fora", () => NativeResponse.redirect("https://exemplo.com.br/ajuda", 302));
});

test("a page keeps its body through the frame: gzipped whole, read without a stream built around it", async () => {
  const reads = vi.spyOn(NativeResponse.prototype, "arrayBuffer");
  try {
    const answer = await app.request("/", { headers: { "accept-encoding": "gzip" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await answer.arrayBuffer())).equals(page)).toBe(true);
    // c.header() on the finished answer would have rebuilt it around a ReadableStream of a native Response.
    expect(reads).not.toHaveBeenCalled();
  } finally {
    reads.mockRestore();
  }
});

test("the client's request id is echoed and logged; without one a new id is made", async () => {
  lines.length = 0;
  const echoed = await app.request("/dados", { headers: { "x-request-id": "r".repeat(80) } });
  expect(echoed.headers.get("x-request-id")).toBe("r".repeat(64));
  const made = await app.request("/dados");
  expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  expect(lines.map((line) => [line.msg, line.requestId, line.path, line.status])).toEqual([
    ["request", "r".repeat(64), "/dados", 200],
    ["request", made.headers.get("x-request-id"), "/dados", 200],
  ]);
  expect(await made.json()).toEqual({ nome: "Recepção" });
});

test("security headers on every answer, and the page's script nonce in its policy", async () => {
  const answer = await app.request("/");
  const nonce = answer.headers.get("x-nonce")!;
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(answer.headers.get("content-security-policy")).toContain(`script-src 'self' 'nonce-${nonce}'`);
  expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
  expect(answer.headers.get("x-frame-options")).toBe("DENY");
  expect(answer.headers.get("strict-transport-security")).toBe("max-age=31536000");
  const data = await app.request("/dados");
  expect(data.headers.get("content-security-policy")).toBeNull();
  expect(data.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
});

test("an answer whose headers cannot change is copied, not turned into a 500", async () => {
  const answer = await app.request("/fora", { headers: { "x-request-id": "r1" } });
  expect(answer.status).toBe(302);
  expect(answer.headers.get("location")).toBe("https://exemplo.com.br/ajuda");
  expect(answer.headers.get("x-request-id")).toBe("r1");
  expect(answer.headers.get("x-frame-options")).toBe("DENY");
});
