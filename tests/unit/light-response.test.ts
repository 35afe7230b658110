/**
 * The server's Response (docs/performance.md 'The render path'): @hono/node-server replaces the global Response with
 * a lightweight one, and patches/@hono+node-server+2.1.8.patch lets it answer text(), json() and arrayBuffer()
 * from a string or byte body without building a native Response and its stream. These tests pin the Fetch rules
 * the patch must keep: the same content, one read only, clone refused after a read, other bodies as before.
 */
import { gunzipSync } from "node:zlib";

import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { beforeAll, describe, expect, test, vi } from "vitest";

import { bufferedCompression } from "../../api/lib/compression.ts";

const NativeResponse = globalThis.Response;
let LightResponse: typeof Response;

beforeAll(() => {
  // What serve() does when the server starts: the global Response becomes the lightweight one.
  getRequestListener(() => new Response(null));
  LightResponse = globalThis.Response;
});

describe("the server's Response", () => {
  test("is the lightweight one, and still a Response", () => {
    expect(LightResponse).not.toBe(NativeResponse);
    expect(new LightResponse("x")).toBeInstanceOf(NativeResponse);
  });

  test("reads a string or byte body without a native Response (the patch is applied)", async () => {
    const reads = ["json", "text", "arrayBuffer"].map((method) =>
      vi.spyOn(NativeResponse.prototype, method as "json" | "text" | "arrayBuffer"),
    );
    try {
      await new LightResponse("[1]").json();
      await new LightResponse("a").text();
      await new LightResponse(new Uint8Array([1])).arrayBuffer();
      for (const read of reads) expect(read).not.toHaveBeenCalled();
    } finally {
      for (const read of reads) read.mockRestore();
    }
  });

  test("json(), text() and arrayBuffer() give the body, accents included", async () => {
    const body = JSON.stringify({ nome: "Recepção", itens: [1, 2] });
    expect(await new LightResponse(body).json()).toEqual({ nome: "Recepção", itens: [1, 2] });
    expect(await new LightResponse(body).text()).toBe(body);
    expect(new TextDecoder().decode(await new LightResponse(body).arrayBuffer())).toBe(body);
    const bytes = new TextEncoder().encode("Área útil");
    expect(await new LightResponse(bytes).text()).toBe("Área útil");
    // A view into a larger buffer: only its own bytes.
    const view = new Uint8Array([0, 65, 66, 0]).subarray(1, 3);
    expect([...new Uint8Array(await new LightResponse(view).arrayBuffer())]).toEqual([65, 66]);
  });

  test("arrayBuffer() is a copy: changing it leaves the body sent alone", async () => {
    for (const bytes of [new Uint8Array([1, 2, 3]), Buffer.concat([Buffer.from([1, 2]), Buffer.from([3])])]) {
      const copy = new Uint8Array(await new LightResponse(bytes).arrayBuffer());
      copy[0] = 9;
      expect([...bytes]).toEqual([1, 2, 3]);
    }
  });

  test("the compression reads a page without a native Response, and gzips it whole", async () => {
    const page = Buffer.from(`<!DOCTYPE html><p>${"Relatório de limpeza ".repeat(200)}</p>`);
    const app = new Hono();
    app.use("*", bufferedCompression());
    app.get("/", () => new LightResponse(page, { headers: { "content-type": "text/html; charset=utf-8" } }));
    app.get("/vazio", () => new LightResponse(null, { status: 204 }));
    const reads = vi.spyOn(NativeResponse.prototype, "arrayBuffer");
    try {
      const answer = await app.request("/", { headers: { "accept-encoding": "gzip" } });
      expect(reads).not.toHaveBeenCalled();
      expect(answer.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(new Uint8Array(await answer.arrayBuffer())).equals(page)).toBe(true);
      expect((await app.request("/vazio", { headers: { "accept-encoding": "gzip" } })).status).toBe(204);
    } finally {
      reads.mockRestore();
    }
  });

  test("a body is read once: a second read rejects, bodyUsed says so, clone throws", async () => {
    const response = new LightResponse('{"a":1}', { status: 201, headers: { "content-type": "application/json" } });
    expect(response.bodyUsed).toBe(false);
    await response.json();
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    // Status and headers stay readable after the body.
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
  });

  test("malformed JSON rejects, as the Fetch json() does", async () => {
    await expect(new LightResponse("{nope").json()).rejects.toThrow(SyntaxError);
  });

  test("a clone taken before reading reads the same body", async () => {
    const response = new LightResponse("abc");
    const clone = response.clone();
    expect(await clone.text()).toBe("abc");
    expect(await response.text()).toBe("abc");
  });

  test("stream and empty bodies read as before", async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("fluxo"));
        controller.close();
      },
    });
    expect(await new LightResponse(stream).text()).toBe("fluxo");
    expect(await new LightResponse(null).text()).toBe("");
  });
});
