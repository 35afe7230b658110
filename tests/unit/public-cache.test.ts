/** api/lib/public-cache.ts: short-lived public answers are kept and replayed with their nonce; nothing else is. */
import { Hono } from "hono";
import { describe, expect, test } from "vitest";

import { pageChanges, publicCache } from "../../api/lib/public-cache.ts";

function appWithCache() {
  const pages = pageChanges();
  let clock = 1_000_000;
  let renders = 0;
  const app = new Hono<{ Variables: { nonce: string } }>();
  app.use("*", async (c, next) => {
    c.set("nonce", `nonce-${renders}`);
    await next();
    c.header("x-nonce-sent", c.get("nonce"));
  });
  app.use("*", publicCache({ now: () => clock, maxEntries: 2, pages }));
  app.all("/sala/:id", (c) => {
    renders++;
    const status = c.req.param("id") === "404" ? 404 : 200;
    return c.html(`<style nonce="${c.get("nonce")}"></style>render ${renders}`, status, {
      "cache-control": "public, max-age=60",
    });
  });
  app.get("/privada", (c) => {
    renders++;
    return c.text(`render ${renders}`, 200, { "cache-control": "private, no-store" });
  });
  app.get("/cookie", (c) => {
    renders++;
    return c.text(`render ${renders}`, 200, { "cache-control": "public, max-age=60", "set-cookie": "a=1" });
  });
  app.get("/imutavel", (c) => {
    renders++;
    return c.text(`render ${renders}`, 200, { "cache-control": "public, max-age=31536000" });
  });
  return {
    get: async (path: string, init?: RequestInit) => {
      const response = await app.request(path, init);
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    advance: (ms: number) => (clock += ms),
    pages,
    renders: () => renders,
  };
}

describe("publicCache", () => {
  test("a request with cookies (a signed-in person's page) is neither served from nor kept in the cache", async () => {
    const app = appWithCache();
    const visitor = await app.get("/sala/1");
    const signedIn = await app.get("/sala/1", { headers: { cookie: "sessao=abc" } });
    expect(signedIn.text).not.toBe(visitor.text);
    expect(signedIn.headers.get("age")).toBeNull();
    // The visitors' copy is still the one kept.
    expect((await app.get("/sala/1")).text).toBe(visitor.text);
    expect(app.renders()).toBe(2);
  });

  test("a public answer is replayed for max-age seconds, with its Age and the nonce it was rendered with", async () => {
    const app = appWithCache();
    const first = await app.get("/sala/1");
    expect(first.text).toBe('<style nonce="nonce-0"></style>render 1');
    app.advance(30_000);
    const again = await app.get("/sala/1");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("age")).toBe("30");
    expect(again.headers.get("x-nonce-sent")).toBe("nonce-0");
    expect(app.renders()).toBe(1);
    app.advance(30_001);
    expect((await app.get("/sala/1")).text).toBe('<style nonce="nonce-1"></style>render 2');
  });

  test("per URL and encoding; a 404 is kept too; the oldest entry leaves when full", async () => {
    const app = appWithCache();
    await app.get("/sala/1");
    await app.get("/sala/1?ver=todas");
    await app.get("/sala/1", { headers: { "accept-encoding": "gzip" } });
    expect(app.renders()).toBe(3);
    expect((await app.get("/sala/404")).status).toBe(404);
    expect((await app.get("/sala/404")).status).toBe(404);
    expect(app.renders()).toBe(4);
    await app.get("/sala/1"); // left the cache (two entries at most)
    expect(app.renders()).toBe(5);
  });

  test("private answers, answers with Set-Cookie, long max-age and other methods are not kept", async () => {
    const app = appWithCache();
    for (const path of ["/privada", "/privada", "/cookie", "/cookie", "/imutavel", "/imutavel"]) await app.get(path);
    await app.get("/sala/2", { method: "POST" });
    await app.get("/sala/2", { method: "POST" });
    expect(app.renders()).toBe(8);
  });

  test("a write to a page, or below it through its API, drops that page's kept answers and no other's", async () => {
    const app = appWithCache();
    await app.get("/sala/1");
    await app.get("/sala/12");
    expect(app.renders()).toBe(2);
    expect((await app.get("/sala/1/relato", { method: "POST" })).status).toBe(404); // no such route: nothing dropped
    expect((await app.get("/sala/1")).text).toContain("render 1");
    await app.get("/sala/1", { method: "POST" }); // the page's own form (render 3)
    expect((await app.get("/sala/1")).text).toContain("render 4");
    expect((await app.get("/sala/12")).text).toContain("render 2");
  });

  test("a change told from elsewhere (an incident handled through the API) drops that page's answers only", async () => {
    const app = appWithCache();
    await app.get("/sala/1");
    await app.get("/sala/2");
    app.pages.changed("/sala/1");
    await app.get("/sala/1");
    await app.get("/sala/2");
    expect(app.renders()).toBe(3);
  });
});
