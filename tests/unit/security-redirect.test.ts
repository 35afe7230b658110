/** Issue 7 item 4: the one return-URL check (app/session.server.ts safeRedirectTo). */
import { describe, expect, test } from "vitest";

import { safeRedirectTo } from "../../app/session.server.ts";

describe("safeRedirectTo", () => {
  test.each([
    "/%09/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%0a/evil.example",
    "/%0d%0a/evil.example",
    "/%2509/evil.example",
    "/ /evil.example",
    "/%20/evil.example",
    "/\u00a0/evil.example",
    "/\u2028/evil.example",
    "/\\evil.example",
    "/%5cevil.example",
    "/%5Cevil.example",
    "//evil.example",
    "/%2fevil.example",
    "/%2F%2Fevil.example",
    "https://evil.example/",
    "evil.example",
    "javascript:alert(1)",
    "/%E0%A4%A",
    "",
    // Issue 22 item 1: dot segments resolve to a path that starts with '//'.
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/%2e//evil.example",
    "/a/%2e%2e//evil.example",
    "/./%2fevil.example",
  ])("refuses %j", (value) => {
    expect(safeRedirectTo(value, "/casa")).toBe("/casa");
  });

  test.each([
    ["/setores", "/setores"],
    ["/setores?q=sala&page=2", "/setores?q=sala&page=2"],
    ["/relatorios/agenda?de=2024-01-01#topo", "/relatorios/agenda?de=2024-01-01#topo"],
    ["/setores?q=%C3%A1rea", "/setores?q=%C3%A1rea"],
  ])("keeps our path %j", (value, expected) => {
    expect(safeRedirectTo(value, "/casa")).toBe(expected);
  });

  test("non-strings and the default fallback", () => {
    expect(safeRedirectTo(null)).toBe("/dashboard");
    expect(safeRedirectTo(undefined)).toBe("/dashboard");
    expect(safeRedirectTo(new File([], "x"))).toBe("/dashboard");
  });
});

test("an encoded space in the query of our own page is kept", () => {
  expect(safeRedirectTo("/setores?q=sala%20azul", "/casa")).toBe("/setores?q=sala%20azul");
  expect(safeRedirectTo("/setores?q=sala+azul", "/casa")).toBe("/setores?q=sala+azul");
});
