/**
 * Issue 22 items 5, 10 and 12 at the rule level (api/lib/http-guards.ts): the address the first proxy of ours saw,
 * the public origin of links, and the origin check of form posts. tests/api/security-web.test.ts runs the same
 * through server.ts.
 */
import { describe, expect, test } from "vitest";

import { clientAddressOf, publicOrigin, sameOrigin, serverOrigin } from "../../api/lib/http-guards.ts";

const request = (headers: Record<string, string>) => new Request("http://127.0.0.1:3000/entrar", { headers });

describe("clientAddressOf behind proxies of ours", () => {
  test("one proxy: the address nginx appended, not the one the client wrote", () => {
    const forwarded = request({ "x-forwarded-for": "10.77.0.1, 203.0.113.5" });
    expect(clientAddressOf(forwarded, "127.0.0.1", 1)).toBe("203.0.113.5");
  });

  test("two proxies: the second address from the right", () => {
    const forwarded = request({ "x-forwarded-for": "10.77.0.1, 203.0.113.5, 10.0.0.2" });
    expect(clientAddressOf(forwarded, "127.0.0.1", 2)).toBe("203.0.113.5");
  });
});

describe("serverOrigin (links built outside a request)", () => {
  test("PUBLIC_URL when set", () => {
    expect(serverOrigin({ publicUrl: "https://limpeza.example.com", host: "0.0.0.0" }, 3000)).toBe(
      "https://limpeza.example.com",
    );
  });

  test("else the address listened on, a wildcard address as localhost", () => {
    expect(serverOrigin({ host: "0.0.0.0" }, 3000)).toBe("http://localhost:3000");
    expect(serverOrigin({ host: "::" }, 3000)).toBe("http://localhost:3000");
    expect(serverOrigin({ host: "127.0.0.1" }, 41234)).toBe("http://127.0.0.1:41234");
    expect(serverOrigin({ host: "::1" }, 3000)).toBe("http://[::1]:3000");
  });
});

describe("publicOrigin", () => {
  const proxied = request({ "x-forwarded-host": "limpeza.example.com:8443", "x-forwarded-proto": "https" });

  test("behind a proxy of ours, the host and scheme it received, port included", () => {
    expect(publicOrigin(proxied, { trustProxy: 1 })).toBe("https://limpeza.example.com:8443");
  });

  test("PUBLIC_URL comes first", () => {
    expect(publicOrigin(proxied, { publicUrl: "https://limpeza.example.com", trustProxy: 1 })).toBe(
      "https://limpeza.example.com",
    );
  });

  test("without TRUST_PROXY the forwarded headers are the client's words: the request's own origin", () => {
    expect(publicOrigin(proxied, { trustProxy: 0 })).toBe("http://127.0.0.1:3000");
  });

  test("a forwarded host that is more than a host (a path, credentials) is not believed", () => {
    const odd = request({ "x-forwarded-host": "evil.example/x", "x-forwarded-proto": "https" });
    expect(publicOrigin(odd, { trustProxy: 1 })).toBe("http://127.0.0.1:3000");
  });
});

describe("sameOrigin", () => {
  test("a post without Origin is refused", () => {
    expect(sameOrigin(request({}), "http://127.0.0.1:3000")).toBe(false);
  });

  test("the Origin must be the public origin, scheme included", () => {
    const post = request({ origin: "http://limpeza.example.com:8443", "x-forwarded-host": "limpeza.example.com:8443" });
    expect(sameOrigin(post, "https://limpeza.example.com:8443")).toBe(false);
  });
});
