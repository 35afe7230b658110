/**
 * The list query pattern (docs/performance.md, migration 003): the catalogue list's rows and totals, read through
 * the folded columns, the branch-name sub-select, the deferred join and the count cache, compared with a
 * brute-force filter and sort in JavaScript over a few thousand generated names with accents and mixed case.
 * Then the cached totals are checked to follow writes made by the API and by plain SQL.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { CATALOGUES } from "../../api/domain/catalogues.ts";
import { MAX_PAGE_ROWS } from "../../api/domain/limits.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();
const c = CATALOGUES.setores;
const base = `/api${c.apiPath}`;

/** Accents of foldText's table only (api/lib/list-query.ts), in both cases. */
const WORDS = ["Área", "área", "AREA", "Recepção", "RECEPÇÃO", "Pediátrica", "pediatrica", "Ônibus", "Ünico"];
const MORE = ["Sala", "Higiênico", "QUÍMICO", "Ñandu", "copa", "Cozinha", "50%", "sala_b", "Àgua", "Ìndio"];
const BRANCHES = ["Unidade Íris", "Anexo Cárdio", "UNIDADE SUL"];
const PER_BRANCH = 1200;

let token = "";
let company = 0;
const branchIds: number[] = [];

/** A small deterministic generator, so a failure can be reproduced. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const fold = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");

beforeAll(async () => {
  token = await t.signIn("admin@demo.com.br");
  company = (await demoIds(t.db)).hospital;
  for (const [index, nome] of BRANCHES.entries()) {
    const { id } = await t.db
      .insertInto("branches")
      .values({ company_id: company, nome, cnpj: `1122233300${String(index).padStart(2, "0")}81` })
      .returning("id")
      .executeTakeFirstOrThrow();
    branchIds.push(id);
  }
  const next = random(42);
  const pick = (list: string[]) => list[Math.floor(next() * list.length)];
  for (const branchId of branchIds) {
    // The same numbers in every branch, so equal folded names tie across branches and the id decides.
    const rows = Array.from({ length: PER_BRANCH }, (_, index) => ({
      name: `${pick(WORDS)} ${index % 300} ${pick(MORE)} ${index}`,
      company_id: company,
      branch_id: branchId,
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await t.db
        .insertInto("sectors")
        .values(rows.slice(start, start + 500))
        .execute();
    }
  }
});

type Row = { id: number; name: string; empresa: string; branchId: number };

/** What the list must answer, computed without SQL: every live sector of the company, filtered and sorted here. */
async function bruteForce(options: { q: string; sort: "nome" | "empresa"; dir: "asc" | "desc"; branch?: number }) {
  const all = await t.db
    .selectFrom("sectors")
    .innerJoin("branches", "branches.id", "sectors.branch_id")
    .select(["sectors.id", "sectors.name", "branches.nome as empresa", "sectors.branch_id as branchId"])
    .where("sectors.company_id", "=", company)
    .where("sectors.deleted_at", "is", null)
    .execute();
  const term = fold(options.q.trim());
  const rows: Row[] = all.filter(
    (row) =>
      (options.branch === undefined || row.branchId === options.branch) &&
      (fold(row.name).includes(term) || fold(row.empresa).includes(term)),
  );
  const key = (row: Row) => fold(options.sort === "nome" ? row.name : row.empresa);
  const sign = options.dir === "asc" ? 1 : -1;
  // Byte order of the folded text (collation "C"), then the id, both in the list's direction.
  rows.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return sign * (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id);
  });
  return rows;
}

async function page(query: Record<string, string | number>) {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const answer = await t.get(`${base}?${params}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as { items: { id: number; name: string }[]; total: number; page: number; size: number };
}

const SEARCHES = ["", "area", "ÁREA", "recepcao", "iris", "CARDIO 1", "50%", "sala_b", "ñandu", "nada-assim"];

describe("the list query against a brute-force filter", () => {
  test.each(SEARCHES)("search %j: totals and every page checked, both sorts, both directions", async (q) => {
    for (const sort of ["nome", "empresa"] as const) {
      for (const dir of ["asc", "desc"] as const) {
        const expected = await bruteForce({ q, sort, dir });
        const ids = expected.map((row) => row.id);
        const pages = Math.max(1, Math.ceil(ids.length / 20));
        for (const number of new Set([1, 2, Math.ceil(pages / 2), pages, pages + 1])) {
          const answer = await page({ companyId: company, q, sort, dir, page: number, size: 20 });
          expect(answer.total).toBe(ids.length);
          expect(answer.items.map((item) => item.id)).toEqual(ids.slice((number - 1) * 20, number * 20));
        }
        // 'Todos' (size 0) is the first MAX_PAGE_ROWS rows (issue 22 item 3).
        const all = await page({ companyId: company, q, sort, dir, size: 0 });
        expect(all.items.map((item) => item.id)).toEqual(ids.slice(0, MAX_PAGE_ROWS));
        expect(all.total).toBe(ids.length);
      }
    }
  });

  test("one branch's scope, page size 160", async () => {
    const branch = branchIds[1];
    for (const q of ["", "AREA 1", "cardio"]) {
      const expected = (await bruteForce({ q, sort: "nome", dir: "desc", branch })).map((row) => row.id);
      expect(expected.length).toBeGreaterThan(0);
      const answer = await page({ filialId: branch, q, sort: "nome", dir: "desc", page: 3, size: 160 });
      expect(answer.total).toBe(expected.length);
      expect(answer.items.map((item) => item.id)).toEqual(expected.slice(320, 480));
    }
  });

  test("keyset chunks read the same rows in the same order", async () => {
    const expected = (await bruteForce({ q: "area", sort: "nome", dir: "desc" })).map((row) => row.id);
    const read: number[] = [];
    let after = "";
    for (;;) {
      const params = new URLSearchParams({ companyId: String(company), q: "area", sort: "nome", dir: "desc", after });
      params.set("size", "700");
      const answer = await t.get(`${base}?${params}`, { token });
      expect(answer.status).toBe(200);
      read.push(...answer.body.items.map((item: { id: number }) => item.id));
      if (answer.body.next === null) break;
      after = answer.body.next;
    }
    expect(read).toEqual(expected);
  });
});

describe("cached totals follow every write", () => {
  const total = async (q: string) => (await page({ companyId: company, q, size: 20 })).total;

  test("a create and a removal through the API, and inserts, updates and branch renames in plain SQL", async () => {
    const before = await total("zebra");
    expect(await total("zebra")).toBe(before);

    const created = await t.post(base, { name: "Zébra do teste", companyId: branchIds[0] }, { token });
    expect(created.status).toBe(201);
    expect(await total("zebra")).toBe(before + 1);

    await t.db
      .insertInto("sectors")
      .values({ name: "ZEBRA em SQL", company_id: company, branch_id: branchIds[2] })
      .execute();
    expect(await total("zebra")).toBe(before + 2);

    await t.db.updateTable("sectors").set({ name: "Outro nome" }).where("name", "=", "ZEBRA em SQL").execute();
    expect(await total("zebra")).toBe(before + 1);

    const id = created.body.id as number;
    expect((await t.delete(`${base}/${id}`, { token })).status).toBe(204);
    expect(await total("zebra")).toBe(before);

    // The branch's name is searched too: renaming it changes the total of a search for it.
    const branchTotal = await total("zebrafilial");
    await t.db.updateTable("branches").set({ nome: "Zebrafilial" }).where("id", "=", branchIds[2]).execute();
    // The branch's generated rows and the one renamed to 'Outro nome' above.
    expect(await total("zebrafilial")).toBe(branchTotal + PER_BRANCH + 1);
  });
});
