import { readFileSync } from "node:fs";
import path from "node:path";

import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { describe, expect, test } from "vitest";

import {
  foldSearch,
  foldText,
  isPaged,
  ListQuery,
  MAX_PAGE_ROWS,
  pageOf,
  PAGE_SIZES,
} from "../../api/lib/list-query.ts";

/** A Kysely that only compiles, to read the SQL foldText builds. */
const compiler = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe("foldSearch (api/lib/list-query.ts)", () => {
  test("lower case, accents removed, trimmed, wrapped in %", () => {
    expect(foldSearch("Recepção")).toBe("%recepcao%");
    expect(foldSearch("  ÁREA Química ")).toBe("%area quimica%");
    expect(foldSearch("recepcao")).toBe("%recepcao%");
  });

  test("LIKE's wildcards and the escape character are matched literally", () => {
    expect(foldSearch("50%")).toBe("%50\\%%");
    expect(foldSearch("sala_1")).toBe("%sala\\_1%");
    expect(foldSearch("a\\b")).toBe("%a\\\\b%");
    expect(foldSearch("%_")).toBe("%\\%\\_%");
  });

  test("an empty term matches everything", () => {
    expect(foldSearch("")).toBe("%%");
    expect(foldSearch("   ")).toBe("%%");
  });
});

describe("foldText", () => {
  test("lower() then translate() of the accented letters, as literals", () => {
    const { sql, parameters } = foldText("item.name").compile(compiler);
    expect(sql).toBe(`translate(lower("item"."name"), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')`);
    expect(parameters).toEqual([]);
  });

  test("the two strings pair each accented letter with its plain one", () => {
    const [, accented, plain] = foldText("x")
      .compile(compiler)
      .sql.match(/'([^']*)', '([^']*)'/)!;
    expect([...accented]).toHaveLength([...plain].length);
    const folded = [...accented].map((char) => char.normalize("NFD").replace(/[\u0300-\u036f]/g, ""));
    expect(folded.join("")).toBe(plain);
  });

  test("matches the expression of the sort indexes (migration 002), so PostgreSQL can use them", () => {
    const migration = readFileSync(
      path.resolve(import.meta.dirname, "../../api/db/migrations/002_catalogue_sort_indexes.sql"),
      "utf8",
    );
    const expression = foldText("name")
      .compile(compiler)
      .sql.replace(/"name"/, "name");
    for (const table of ["sectors", "risks", "procedures", "categories"]) {
      expect(migration).toContain(`${table}_sort_idx on ${table} (company_id, ${expression})`);
    }
  });
});

describe("ListQuery, isPaged, pageOf", () => {
  test("page sizes are 20, 40, 80, 160 and 0 (all)", () => {
    expect(PAGE_SIZES).toEqual([20, 40, 80, 160, 0]);
    for (const size of PAGE_SIZES) expect(ListQuery.safeParse({ size: String(size) }).success).toBe(true);
    for (const size of ["7", "-1", "21", "abc"]) expect(ListQuery.safeParse({ size }).success).toBe(false);
  });

  test("page starts at 1; dir is asc or desc", () => {
    expect(ListQuery.safeParse({ page: "0" }).success).toBe(false);
    expect(ListQuery.safeParse({ page: "1.5" }).success).toBe(false);
    expect(ListQuery.safeParse({ dir: "up" }).success).toBe(false);
    expect(ListQuery.parse({ page: "3", dir: "desc" })).toEqual({ page: 3, dir: "desc" });
  });

  test("any paging parameter asks for a page; none keeps the contract's plain list", () => {
    expect(isPaged({})).toBe(false);
    expect(isPaged({ q: "" })).toBe(true);
    expect(isPaged({ sort: "nome" })).toBe(true);
    expect(isPaged({ dir: "desc" })).toBe(true);
    expect(isPaged({ page: 1 })).toBe(true);
    expect(isPaged({ size: 0 })).toBe(true);
  });

  test("pageOf: 20 per page from page 1 by default; size 0 is the first MAX_PAGE_ROWS rows", () => {
    expect(pageOf({})).toEqual({ page: 1, size: 20, limit: 20, offset: 0 });
    expect(pageOf({ page: 3, size: 40 })).toEqual({ page: 3, size: 40, limit: 40, offset: 80 });
    expect(pageOf({ page: 4, size: 0 })).toEqual({ page: 4, size: 0, limit: MAX_PAGE_ROWS, offset: 0 });
  });
});
