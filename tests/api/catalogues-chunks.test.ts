/**
 * Keyset chunks of the catalogue lists (GET with `after`), what streamed exports read: walking every chunk gives the
 * rows of the whole list in its order, for any search and sort; a cursor that the API did not give is a 400; the
 * scope applies as to every list. The same tests run for sectors, risks, procedures and categories.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { CATALOGUE_KINDS, CATALOGUES } from "../../api/domain/catalogues.ts";
import { CHUNK_SIZE_INVALID, CURSOR_INVALID } from "../../api/lib/list-query.ts";
import { importCatalogueRows } from "../../api/services/catalogues.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

/** Two branches of the test's own; the accented one sorts first. Names fold to ties ('Área 3' and 'area 3'). */
const BRANCHES = ["Ânima Blocos", "Filial Blocos"];
const NAMES = Array.from({ length: 12 }, (_, index) => [
  `Área ${index + 1}`,
  `area ${index + 1}`,
  `Zona ${index}`,
]).flat();
const ITEM_KEYS = ["EMPRESA_ID", "color", "companyId", "deletedAt", "empresa", "id", "name"];

type Item = { id: number; name: string; empresa: string; companyId: number };
type Chunk = { items: Item[]; next: string | null };

const tokens: Record<string, string> = {};
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };
const branchIds: number[] = [];

beforeAll(async () => {
  for (const email of ["admin", "coordenador", "outra"]) tokens[email] = await t.signIn(`${email}@demo.com.br`);
  Object.assign(ids, await demoIds(t.db));
  for (const [index, nome] of BRANCHES.entries()) {
    const { id } = await t.db
      .insertInto("branches")
      .values({ company_id: ids.hospital, nome, cnpj: `1122233300${String(index).padStart(2, "0")}81` })
      .returning("id")
      .executeTakeFirstOrThrow();
    branchIds.push(id);
  }
  // Through the catalogue service, as the seed and the CSV import write them; the first branch gets them backwards,
  // so an order by id would not pass for an order by name.
  const scope = { level: "company" as const, companyId: ids.hospital };
  for (const kind of CATALOGUE_KINDS) {
    for (const [index, branch] of branchIds.entries()) {
      const names = index === 0 ? [...NAMES].reverse() : NAMES;
      const rows = names.map((name, line) => ({ line: line + 2, name, color: `#00${String(line).padStart(4, "0")}` }));
      await importCatalogueRows(t.db, CATALOGUES[kind], scope, branch, rows);
    }
  }
});

describe.each(CATALOGUE_KINDS)("GET the %s list in keyset chunks", (kind) => {
  const c = CATALOGUES[kind];
  const base = `/api${c.apiPath}`;
  const list = (query: string, token = tokens.admin) => t.get(`${base}?${query}`, { token });

  /** Every chunk of a list, checking each answer on the way. */
  async function walk(query: string, size: number, token = tokens.admin) {
    const items: Item[] = [];
    let after = "";
    for (let calls = 1; ; calls++) {
      const answer = await list(`${query}&size=${size}&after=${encodeURIComponent(after)}`, token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(["items", "next"]);
      const chunk = answer.body as Chunk;
      expect(chunk.items.length).toBeLessThanOrEqual(size);
      items.push(...chunk.items);
      if (chunk.next === null) {
        expect(chunk.items.length).toBeLessThan(size);
        return { items, calls };
      }
      expect(chunk.items.length).toBe(size);
      after = chunk.next;
      if (calls > 500) throw new Error("the chunks never end");
    }
  }

  /** The same list on one page (size=0): what the chunks must add up to. */
  async function whole(query: string) {
    const answer = await list(`${query}&size=0`);
    expect(answer.status).toBe(200);
    return answer.body.items as Item[];
  }

  const orders = [
    "sort=nome&dir=asc",
    "sort=nome&dir=desc",
    "sort=empresa&dir=asc",
    "sort=empresa&dir=desc",
    ...(c.hasColor ? ["sort=cor&dir=asc", "sort=cor&dir=desc"] : []),
  ];

  test.each(orders)("%s, with a search: the chunks are the whole list, in its order", async (order) => {
    const query = `companyId=${ids.hospital}&q=${encodeURIComponent("área")}&${order}`;
    const expected = await whole(query);
    // Both branches, and ties on the folded name ('Área 1' / 'area 1') in each.
    expect(expected.length).toBe(2 * 24);
    const { items, calls } = await walk(query, 7);
    expect(calls).toBe(Math.ceil((expected.length + 1) / 7));
    expect(items).toEqual(expected);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
  });

  test.each(orders)("%s over the whole main company, chunk sizes 1, 5 and 1000", async (order) => {
    const query = `companyId=${ids.hospital}&${order}`;
    const expected = await whole(query);
    expect(expected.length).toBeGreaterThan(2 * NAMES.length);
    for (const size of [5, 1000]) expect((await walk(query, size)).items).toEqual(expected);
    const narrowed = `filialId=${branchIds[1]}&q=zona&${order}`;
    expect((await walk(narrowed, 1)).items).toEqual(await whole(narrowed));
  });

  test("a size that divides the list ends with an empty chunk; 1000 rows unless told", async () => {
    const query = `filialId=${branchIds[0]}&sort=nome`;
    const all = await whole(query);
    expect(all.length).toBe(NAMES.length);
    const exact = await walk(query, NAMES.length / 2);
    expect(exact.calls).toBe(3);
    expect(exact.items).toEqual(all);
    const single = await list(`${query}&after=`);
    expect(single.body).toEqual({ items: all, next: null });
  });

  test("without sort the order is the name's; the plain list and the pages are unchanged", async () => {
    const query = `filialId=${branchIds[1]}`;
    const chunk = await list(`${query}&after=`);
    expect(chunk.body.items).toEqual(await whole(`${query}&sort=nome&dir=asc`));
    expect(Array.isArray((await list(query)).body)).toBe(true);
    expect((await list(`${query}&page=1`)).body).toMatchObject({ total: NAMES.length, page: 1, size: 20 });
  });

  test.each([
    ["not base64url", "abc!"],
    ["not JSON", Buffer.from("nada").toString("base64url")],
    ["not a key and an id", Buffer.from(JSON.stringify({ key: "a", id: 1 })).toString("base64url")],
    ["an id that is not a whole number", Buffer.from(JSON.stringify(["a", 1.5])).toString("base64url")],
    ["a key that is not text", Buffer.from(JSON.stringify([1, 1])).toString("base64url")],
  ])("a cursor that is %s answers 400 in Portuguese", async (_what, after) => {
    const answer = await list(`companyId=${ids.hospital}&sort=nome&after=${encodeURIComponent(after)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: CURSOR_INVALID, fieldErrors: { after: [CURSOR_INVALID] } });
  });

  test.each(["0", "-1", "5001"])("size=%s with after answers 400; sizes up to 5000 are fine", async (size) => {
    const answer = await list(`companyId=${ids.hospital}&after=&size=${size}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(CHUNK_SIZE_INVALID);
    expect((await list(`companyId=${ids.hospital}&after=&size=5000`)).status).toBe(200);
    expect((await list(`companyId=${ids.hospital}&after=&size=7`)).status).toBe(200);
  });

  describe("scope", () => {
    test("another tenant gets nothing of ours: not by companyId, branch, ids nor a cursor of ours", async () => {
      const ours = await walk(`companyId=${ids.hospital}&sort=nome`, 1000);
      expect((await list(`companyId=${ids.hospital}&after=`, tokens.outra)).status).toBe(404);
      expect((await list(`filialId=${branchIds[0]}&after=`, tokens.outra)).status).toBe(404);
      const byIds = await list(`ids=${ours.items.map((item) => item.id).join(",")}&after=`, tokens.outra);
      expect(byIds.status).toBe(404);

      const theirs = await walk("sort=nome", 2, tokens.outra);
      expect(theirs.items.length).toBeGreaterThan(0);
      const ourIds = new Set(ours.items.map((item) => item.id));
      const ourBranches = new Set(ours.items.map((item) => item.companyId));
      for (const item of theirs.items) {
        expect(ourBranches.has(item.companyId)).toBe(false);
        expect(ourIds.has(item.id)).toBe(false);
      }
      // A cursor taken from our list only says where to start: the rows are still the caller's own.
      const first = await list(`companyId=${ids.hospital}&sort=nome&size=1&after=`);
      const borrowed = await list(`sort=nome&after=${first.body.next}`, tokens.outra);
      expect(borrowed.status).toBe(200);
      for (const item of borrowed.body.items as Item[]) expect(ourBranches.has(item.companyId)).toBe(false);
    });

    test("a branch-level user's chunks hold their own branch only", async () => {
      const { items } = await walk("sort=empresa", 3, tokens.coordenador);
      expect(items.length).toBeGreaterThan(0);
      expect(new Set(items.map((item) => item.companyId))).toEqual(new Set([ids.aldeota]));
      expect((await list(`filialId=${branchIds[0]}&after=`, tokens.coordenador)).status).toBe(404);
    });
  });
});
