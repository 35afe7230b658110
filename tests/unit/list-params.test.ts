import { describe, expect, test } from "vitest";

import {
  apiListQuery,
  dayParam,
  idParam,
  listHref,
  PAGE_SIZE_OPTIONS,
  pagerPages,
  readListParams,
  textParam,
  type ListParams,
} from "../../app/lib/list-params.ts";

const DEFAULTS: ListParams = { q: "", ordem: "nome", dir: "asc", pagina: 1, tamanho: "20" };

describe("readListParams (app/lib/list-params.ts)", () => {
  test("defaults: no search, the default sort ascending, page 1, 20 per page", () => {
    expect(readListParams("http://x/setores", "nome")).toEqual(DEFAULTS);
    expect(readListParams(new URL("http://x/setores"), "empresa")).toEqual({ ...DEFAULTS, ordem: "empresa" });
  });

  test("reads q, ordem, dir, pagina and tamanho", () => {
    expect(
      readListParams("http://x/setores?q=Recep%C3%A7%C3%A3o&ordem=empresa&dir=desc&pagina=3&tamanho=todos", "nome"),
    ).toEqual({
      q: "Recepção",
      ordem: "empresa",
      dir: "desc",
      pagina: 3,
      tamanho: "todos",
    });
  });

  test("a relative URL is read too", () => {
    expect(readListParams("/riscos?pagina=2", "nome")).toEqual({ ...DEFAULTS, pagina: 2 });
  });

  test.each([
    ["pagina=0", { pagina: 1 }],
    ["pagina=-2", { pagina: 1 }],
    ["pagina=1.5", { pagina: 1 }],
    ["pagina=abc", { pagina: 1 }],
    ["tamanho=7", { tamanho: "20" }],
    ["tamanho=0", { tamanho: "20" }],
    ["tamanho=Todos", { tamanho: "20" }],
    ["dir=up", { dir: "asc" }],
    ["ordem=", { ordem: "nome" }],
    [`ordem=${"x".repeat(41)}`, { ordem: "nome" }],
    ["pagina=100001", { pagina: 1 }],
  ])("an invalid value falls back to the default: %s", (query, change) => {
    expect(readListParams(`http://x/setores?${query}`, "nome")).toEqual({ ...DEFAULTS, ...change });
  });

  test("the search is cut at 200 characters", () => {
    expect(readListParams(`http://x/setores?q=${"a".repeat(250)}`, "nome").q).toHaveLength(200);
  });

  test("a sort name of 40 characters, the API's longest, is kept", () => {
    expect(readListParams(`http://x/setores?ordem=${"x".repeat(40)}`, "nome").ordem).toBe("x".repeat(40));
  });

  test("control characters of the search (NUL, which the databases refuse) are read as spaces", () => {
    expect(readListParams("http://x/setores?q=a%00b%01c%7F", "nome").q).toBe("a b c");
  });

  test("the page-size choices of spec 000 §9", () => {
    expect(PAGE_SIZE_OPTIONS.map((option) => option.label)).toEqual(["20", "40", "80", "160", "Todos"]);
    for (const { value } of PAGE_SIZE_OPTIONS) {
      expect(readListParams(`http://x/setores?tamanho=${value}`, "nome").tamanho).toBe(value);
    }
  });
});

describe("apiListQuery", () => {
  test("maps the page's params to the API's q/sort/dir/page/size; 'todos' is size 0", () => {
    expect(apiListQuery(DEFAULTS)).toEqual({ q: undefined, sort: "nome", dir: "asc", page: 1, size: 20 });
    expect(apiListQuery({ q: "sala", ordem: "empresa", dir: "desc", pagina: 2, tamanho: "todos" })).toEqual({
      q: "sala",
      sort: "empresa",
      dir: "desc",
      page: 2,
      size: 0,
    });
  });
});

describe("listHref", () => {
  const at = (changes: Partial<ListParams>) => ({ ...DEFAULTS, ...changes });

  test("defaults are left out of the URL", () => {
    expect(listHref("/setores", DEFAULTS, {}, "nome")).toBe("/setores");
    expect(listHref("/setores", at({ pagina: 4 }), { pagina: 1 }, "nome")).toBe("/setores");
  });

  test("changing the page keeps search, sort and size", () => {
    expect(
      listHref("/setores", at({ q: "sala", ordem: "empresa", dir: "desc", tamanho: "40" }), { pagina: 3 }, "nome"),
    ).toBe("/setores?q=sala&ordem=empresa&dir=desc&pagina=3&tamanho=40");
  });

  test("a new search goes back to page 1 (spec 000 §9)", () => {
    expect(listHref("/setores", at({ pagina: 5, tamanho: "40" }), { q: "Recepção" }, "nome")).toBe(
      `/setores?q=${encodeURIComponent("Recepção").replace(/%20/g, "+")}&tamanho=40`,
    );
    // Clearing the search is a change of search too.
    expect(listHref("/setores", at({ q: "sala", pagina: 5 }), { q: "" }, "nome")).toBe("/setores");
  });

  test("a new page size goes back to page 1 (spec 000 §9)", () => {
    expect(listHref("/setores", at({ q: "sala", pagina: 5 }), { tamanho: "todos" }, "nome")).toBe(
      "/setores?q=sala&tamanho=todos",
    );
    expect(listHref("/setores", at({ pagina: 5, tamanho: "80" }), { tamanho: "20" }, "nome")).toBe("/setores");
  });

  test("sorting keeps the page; a page given with the new search is kept", () => {
    expect(listHref("/setores", at({ pagina: 2 }), { ordem: "empresa", dir: "desc" }, "nome")).toBe(
      "/setores?ordem=empresa&dir=desc&pagina=2",
    );
    expect(listHref("/setores", at({ pagina: 2 }), { q: "x", pagina: 3 }, "nome")).toBe("/setores?q=x&pagina=3");
  });

  test("the default sort of the list is what is left out", () => {
    expect(listHref("/categorias", at({ ordem: "empresa" }), {}, "empresa")).toBe("/categorias");
    expect(listHref("/categorias", at({ ordem: "empresa" }), {}, "nome")).toBe("/categorias?ordem=empresa");
  });

  test("round trip: readListParams reads back what listHref wrote", () => {
    const params: ListParams = { q: "Área & sala", ordem: "empresa", dir: "desc", pagina: 7, tamanho: "160" };
    expect(readListParams(`http://x${listHref("/riscos", params, {}, "nome")}`, "nome")).toEqual(params);
  });
});

describe("pagerPages: the pages within 5 of the current one (spec 000 §9)", () => {
  test.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 20, [1, 2, 3, 4, 5, 6]],
    [10, 20, [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]],
    [20, 20, [15, 16, 17, 18, 19, 20]],
    [3, 8, [1, 2, 3, 4, 5, 6, 7, 8]],
    [6, 11, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
  ])("page %i of %i shows %j", (current, total, pages) => {
    expect(pagerPages(current, total)).toEqual(pages);
  });

  test("no pages when the list is empty", () => {
    expect(pagerPages(1, 0)).toEqual([]);
  });
});

/** What a reader threw (a Response), or null when it returned. */
function thrownBy(read: () => unknown) {
  try {
    read();
    return null;
  } catch (error) {
    return error as Response;
  }
}

describe("the path's and free texts' readers: what the API would refuse is none, or 404", () => {
  test("textParam: no control characters, trimmed, cut at the length given", () => {
    expect([
      textParam(" \u0000piso\t "),
      textParam("x".repeat(300)).length,
      textParam(null),
      textParam("abc", 2),
    ]).toEqual(["piso", 200, "", "ab"]);
  });

  test.each(["1", "2147483647"])("idParam reads %s", (value) => {
    expect(idParam(value)).toBe(Number(value));
  });

  test.each(["0", "-1", "2147483648", "99999999999999999999", "1.5", "1e3", " 1", "１", "", undefined])(
    "idParam answers 404 to %j",
    (value) => {
      expect(thrownBy(() => idParam(value))?.status).toBe(404);
    },
  );

  test("idParam's 404 says what was not found", async () => {
    expect(await thrownBy(() => idParam("0", "Filial não encontrada"))?.text()).toBe("Filial não encontrada");
  });

  test.each(["2026-02-28", "2024-02-29"])("dayParam reads %s", (value) => {
    expect(dayParam(value)).toBe(value);
  });

  test.each([
    "2026-02-30",
    "2026-13-45",
    "2025-02-29",
    "0000-00-00",
    "9999-12-31",
    "2026-2-3",
    "28/02/2026",
    undefined,
  ])("dayParam answers 404 to %j", (value) => {
    expect(thrownBy(() => dayParam(value))?.status).toBe(404);
  });
});
