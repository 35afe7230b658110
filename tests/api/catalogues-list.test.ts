/**
 * Catalogue lists (spec 000 §7 'Reference data', docs/decisions/004-catalogues.md 'Lists'): the contract's plain
 * array, the paged answer with search, sort and page size, and the branch scope; plus GET /api/empresas/filiais.
 * The same tests run for sectors, risks, procedures and categories.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { CATALOGUE_KINDS, CATALOGUES } from "../../api/domain/catalogues.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

/** Names given to a branch of the test's own, in no particular order; ORDERED is the pt-BR order (accents folded). */
const NAMES = ["Banheiro", "Área", "Zelo", "area externa", "Sala 100%", "Ábaco", "arena", "Recepção", "Copa"];
const ORDERED = ["Ábaco", "Área", "area externa", "arena", "Banheiro", "Copa", "Recepção", "Sala 100%", "Zelo"];
const ORDER_BRANCH = "Ânima Filial Ordem";
const PAGING_BRANCH = "Filial Paginação";
const PAGING_COUNT = 45;
const ITEM_KEYS = ["EMPRESA_ID", "color", "companyId", "deletedAt", "empresa", "id", "name"];

const tokens: Record<string, string> = {};
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, order: 0, paging: 0, recife: 0 };

beforeAll(async () => {
  for (const email of ["admin", "principal", "coordenador", "semnivel", "auditor", "outra"]) {
    tokens[email] = await t.signIn(`${email}@demo.com.br`);
  }
  Object.assign(ids, await demoIds(t.db));
  const branch = async (nome: string, cnpj: string) =>
    (
      await t.db
        .insertInto("branches")
        .values({ company_id: ids.hospital, nome, cnpj })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  ids.order = await branch(ORDER_BRANCH, "11222333000181");
  ids.paging = await branch(PAGING_BRANCH, "11444777000161");

  for (const kind of CATALOGUE_KINDS) {
    const c = CATALOGUES[kind];
    const rows = (branch: number, names: string[]) =>
      names.map((name, index) => ({
        name,
        company_id: ids.hospital,
        branch_id: branch,
        ...(c.hasColor ? { color: `#0000${String(10 + index).padStart(2, "0")}` } : {}),
      }));
    await t.db
      .insertInto(c.table as "risks")
      .values(rows(ids.order, NAMES) as never)
      .execute();
    const paging = Array.from({ length: PAGING_COUNT }, (_, index) => `Item ${String(index + 1).padStart(2, "0")}`);
    // Inserted backwards, so an order by id would not pass for an order by name.
    await t.db
      .insertInto(c.table as "risks")
      .values(rows(ids.paging, paging.reverse()) as never)
      .execute();
  }
});

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

describe.each(CATALOGUE_KINDS)("GET the %s list", (kind) => {
  const c = CATALOGUES[kind];
  const base = `/api${c.apiPath}`;
  const list = (query: string, token = tokens.admin) => t.get(`${base}?${query}`, { token });

  /** The live rows of the table, as the API should list them. */
  const liveRows = (where: { company?: number; branch?: number }) =>
    t.db
      .selectFrom(c.table as "risks")
      .select(["id", "name", "branch_id"])
      .where("deleted_at", "is", null)
      .$if(where.company !== undefined, (qb) => qb.where("company_id", "=", where.company!))
      .$if(where.branch !== undefined, (qb) => qb.where("branch_id", "=", where.branch!))
      .execute();

  describe("without paging parameters: the contract's plain array", () => {
    test("every live item of the main company, with the contract's fields", async () => {
      const answer = await list(`companyId=${ids.hospital}`);
      expect(answer.status).toBe(200);
      expect(Array.isArray(answer.body)).toBe(true);
      const expected = await liveRows({ company: ids.hospital });
      expect(answer.body.map((item: { id: number }) => item.id).sort()).toEqual(expected.map((row) => row.id).sort());
      for (const item of answer.body) {
        expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
        expect(item.deletedAt).toBeNull();
        expect(item.EMPRESA_ID).toBe(item.companyId);
        if (c.hasColor) expect(item.color).toMatch(/^#[0-9a-f]{6}$/);
        else expect(item.color).toBeNull();
      }
      const recepcao = answer.body.find(
        (item: { name: string; companyId: number }) => item.name === "Recepção" && item.companyId === ids.order,
      );
      expect(recepcao).toMatchObject({ empresa: ORDER_BRANCH, EMPRESA_ID: ids.order });
    });

    test("sorted by name in pt-BR order", async () => {
      const answer = await list(`filialId=${ids.order}`);
      expect(answer.body.map((item: { name: string }) => item.name)).toEqual(ORDERED);
    });

    test("no companyId is the caller's main company; filialId=-1 is every branch", async () => {
      const all = await list(`companyId=${ids.hospital}`);
      expect((await t.get(base, { token: tokens.admin })).body).toEqual(all.body);
      expect((await list("filialId=-1")).body).toEqual(all.body);
    });

    test("filialId narrows to one branch", async () => {
      const answer = await list(`filialId=${ids.messejana}`);
      expect(answer.status).toBe(200);
      const expected = await liveRows({ branch: ids.messejana });
      expect(answer.body.length).toBe(expected.length);
      expect(answer.body.length).toBeGreaterThan(0);
      expect(new Set(answer.body.map((item: { companyId: number }) => item.companyId))).toEqual(
        new Set([ids.messejana]),
      );
    });

    test("deleted items are dropped", async () => {
      const victim = await t.db
        .insertInto(c.table as "risks")
        .values({
          name: "Apagado da lista",
          company_id: ids.hospital,
          branch_id: ids.matriz,
          ...(c.hasColor ? { color: "#123456" } : {}),
        } as never)
        .returning("id")
        .executeTakeFirstOrThrow();
      const before = await list(`filialId=${ids.matriz}`);
      expect(before.body.map((item: { id: number }) => item.id)).toContain(victim.id);
      await t.db
        .updateTable(c.table as "risks")
        .set({ deleted_at: new Date() })
        .where("id", "=", victim.id)
        .execute();
      const after = await list(`filialId=${ids.matriz}`);
      expect(after.body.map((item: { id: number }) => item.id)).not.toContain(victim.id);
      expect(after.body.length).toBe(before.body.length - 1);
      const paged = await list(`filialId=${ids.matriz}&q=apagado`);
      expect(paged.body).toEqual({ items: [], total: 0, page: 1, size: 20 });
    });

    test("ids narrows to those items", async () => {
      const rows = await liveRows({ branch: ids.order });
      const two = [rows[0].id, rows[3].id];
      const answer = await list(`companyId=${ids.hospital}&ids=${two.join(",")}`);
      expect(answer.status).toBe(200);
      expect(answer.body.map((item: { id: number }) => item.id).sort()).toEqual(two.sort());
      const paged = await list(`ids=${two.join(",")}&page=1`);
      expect(paged.body.total).toBe(2);
    });

    test("ids of another tenant's items are 404 'não encontrado', their rows never listed", async () => {
      const theirs = await liveRows({ company: ids.other });
      const [mine] = await liveRows({ company: ids.hospital });
      expect(theirs.length).toBeGreaterThan(0);
      const answer = await list(`ids=${mine.id},${theirs.map((row) => row.id).join(",")}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: `${c.title} não encontrad${c.feminine ? "a" : "o"}` });
    });

    test("malformed ids answer 400", async () => {
      expect((await list("ids=1,,2")).status).toBe(400);
      expect((await list("ids=abc")).status).toBe(400);
    });
  });

  describe("with paging parameters: { items, total, page, size }", () => {
    test("the first page of 20 by default", async () => {
      const answer = await list(`filialId=${ids.paging}&page=1`);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(["items", "page", "size", "total"]);
      expect(answer.body).toMatchObject({ total: PAGING_COUNT, page: 1, size: 20 });
      expect(answer.body.items.map((item: { name: string }) => item.name)).toEqual(
        Array.from({ length: 20 }, (_, index) => `Item ${String(index + 1).padStart(2, "0")}`),
      );
      for (const item of answer.body.items) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    });

    test("page and size: the last page holds the rest; past the end is empty; the total stays", async () => {
      const third = await list(`filialId=${ids.paging}&page=3&size=20`);
      expect(third.body).toMatchObject({ total: PAGING_COUNT, page: 3, size: 20 });
      expect(third.body.items.map((item: { name: string }) => item.name)).toEqual([
        "Item 41",
        "Item 42",
        "Item 43",
        "Item 44",
        "Item 45",
      ]);

      const forty = await list(`filialId=${ids.paging}&page=2&size=40`);
      expect(forty.body.items).toHaveLength(5);
      expect(forty.body.items[0].name).toBe("Item 41");

      const beyond = await list(`filialId=${ids.paging}&page=9&size=20`);
      expect(beyond.body).toEqual({ items: [], total: PAGING_COUNT, page: 9, size: 20 });
    });

    test("size=0 ('Todos') is every item on one page", async () => {
      const answer = await list(`filialId=${ids.paging}&size=0`);
      expect(answer.body).toMatchObject({ total: PAGING_COUNT, page: 1, size: 0 });
      expect(answer.body.items).toHaveLength(PAGING_COUNT);
      const page2 = await list(`filialId=${ids.paging}&size=0&page=2`);
      expect(page2.body.items).toHaveLength(PAGING_COUNT);
    });

    test("the total counts the whole main company across pages", async () => {
      const answer = await list(`companyId=${ids.hospital}&size=20&page=2`);
      expect(answer.body.total).toBe((await liveRows({ company: ids.hospital })).length);
      expect(answer.body.items).toHaveLength(20);
    });

    test.each([["size=7"], ["size=-1"], ["page=0"], ["page=abc"], ["dir=up"]])("%s answers 400", async (query) => {
      const answer = await list(`filialId=${ids.paging}&${query}`);
      expect(answer.status).toBe(400);
    });

    test("any one paging parameter asks for a page (q, sort, dir, page, size)", async () => {
      for (const query of ["q=", "sort=nome", "dir=desc", "page=1", "size=20"]) {
        const answer = await list(`filialId=${ids.order}&${query}`);
        expect(answer.body, query).toHaveProperty("total", NAMES.length);
      }
    });

    test("q ignores case and accents: 'recepcao' finds 'Recepção'", async () => {
      for (const q of ["recepcao", "RECEPÇÃO", "Recepção", "ecepç", "  recepcao  "]) {
        const answer = await list(`filialId=${ids.order}&q=${encodeURIComponent(q)}`);
        expect(
          answer.body.items.map((item: { name: string }) => item.name),
          q,
        ).toEqual(["Recepção"]);
        expect(answer.body.total, q).toBe(1);
      }
      const area = await list(`filialId=${ids.order}&q=AREA`);
      expect(area.body.items.map((item: { name: string }) => item.name)).toEqual(["Área", "area externa"]);
    });

    test("q matches the branch name too", async () => {
      const answer = await list(`companyId=${ids.hospital}&q=anima filial&size=0`);
      expect(answer.body.total).toBe(NAMES.length);
      expect(new Set(answer.body.items.map((item: { empresa: string }) => item.empresa))).toEqual(
        new Set([ORDER_BRANCH]),
      );
    });

    test("q treats % and _ as text, not as wildcards", async () => {
      const percent = await list(`filialId=${ids.order}&q=${encodeURIComponent("%")}`);
      expect(percent.body.items.map((item: { name: string }) => item.name)).toEqual(["Sala 100%"]);
      const underscore = await list(`filialId=${ids.order}&q=_`);
      expect(underscore.body).toEqual({ items: [], total: 0, page: 1, size: 20 });
    });

    test("a blank q does not filter; a q with no match is an empty page", async () => {
      expect((await list(`filialId=${ids.order}&q=%20%20`)).body.total).toBe(NAMES.length);
      expect((await list(`filialId=${ids.order}&q=inexistente`)).body).toEqual({
        items: [],
        total: 0,
        page: 1,
        size: 20,
      });
    });

    test("sort=nome asc and desc in pt-BR order ('Área' next to 'area', before 'Banheiro')", async () => {
      const asc = await list(`filialId=${ids.order}&sort=nome&dir=asc`);
      expect(asc.body.items.map((item: { name: string }) => item.name)).toEqual(ORDERED);
      const desc = await list(`filialId=${ids.order}&sort=nome&dir=desc`);
      expect(desc.body.items.map((item: { name: string }) => item.name)).toEqual([...ORDERED].reverse());
      // Without sort, the name; an unknown sort falls back to the name as well.
      expect(
        (await list(`filialId=${ids.order}&page=1`)).body.items.map((item: { name: string }) => item.name),
      ).toEqual(ORDERED);
      expect(
        (await list(`filialId=${ids.order}&sort=xyz`)).body.items.map((item: { name: string }) => item.name),
      ).toEqual(ORDERED);
    });

    test("sort=empresa asc and desc, branch names with accents folded", async () => {
      const branchOrder = (items: { empresa: string }[]) =>
        items.map((item) => item.empresa).filter((name, index, all) => all[index - 1] !== name);
      const expected = [ORDER_BRANCH, "Filial Aldeota", "Filial Messejana", PAGING_BRANCH, "Matriz Fortaleza"];
      const asc = await list(`companyId=${ids.hospital}&sort=empresa&dir=asc&size=0`);
      expect(branchOrder(asc.body.items)).toEqual(expected);
      const desc = await list(`companyId=${ids.hospital}&sort=empresa&dir=desc&size=0`);
      expect(branchOrder(desc.body.items)).toEqual([...expected].reverse());
      expect(desc.body.total).toBe(asc.body.total);
    });

    test("a page of a sorted list is the slice of the whole sorted list", async () => {
      const all = await list(`companyId=${ids.hospital}&sort=nome&dir=desc&size=0`);
      const page2 = await list(`companyId=${ids.hospital}&sort=nome&dir=desc&size=20&page=2`);
      expect(page2.body.items).toEqual(all.body.items.slice(20, 40));
      const names = all.body.items.map((item: { name: string }) => fold(item.name));
      expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)));
    });

    if (c.hasColor) {
      test("sort=cor orders by colour", async () => {
        const answer = await list(`filialId=${ids.order}&sort=cor&dir=desc`);
        const colors = answer.body.items.map((item: { color: string }) => item.color);
        expect(colors).toEqual([...colors].sort().reverse());
      });
    }
  });

  describe("scope", () => {
    test("another tenant's companyId or branch answers 404", async () => {
      expect((await list(`companyId=${ids.other}`)).status).toBe(404);
      expect((await list(`filialId=${ids.recife}`)).status).toBe(404);
      expect((await list(`companyId=${ids.hospital}&filialId=${ids.recife}`)).status).toBe(404);
      expect((await list(`filialId=${ids.recife}&page=1`)).status).toBe(404);
      expect((await list("filialId=999999")).status).toBe(404);
    });

    test("the other tenant lists only its own items", async () => {
      const answer = await list("", tokens.outra);
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBeGreaterThan(0);
      expect(answer.body.length).toBe((await liveRows({ company: ids.other })).length);
      expect((await list(`companyId=${ids.hospital}`, tokens.outra)).status).toBe(404);
      expect((await list(`filialId=${ids.aldeota}`, tokens.outra)).status).toBe(404);
    });

    test.each(["coordenador", "semnivel"])(
      "a branch-level user (%s@, Filial Aldeota) sees only Aldeota",
      async (who) => {
        const aldeota = await liveRows({ branch: ids.aldeota });
        for (const query of ["", `companyId=${ids.hospital}`, `filialId=${ids.aldeota}`]) {
          const answer = await list(query, tokens[who]);
          expect(answer.status, query).toBe(200);
          expect(answer.body.map((item: { id: number }) => item.id).sort(), query).toEqual(
            aldeota.map((row) => row.id).sort(),
          );
        }
        const paged = await list(`companyId=${ids.hospital}&sort=empresa&size=0`, tokens[who]);
        expect(paged.body.total).toBe(aldeota.length);
        expect(new Set(paged.body.items.map((item: { companyId: number }) => item.companyId))).toEqual(
          new Set([ids.aldeota]),
        );
        const search = await list(`q=anima`, tokens[who]);
        expect(search.body.total).toBe(0);
      },
    );

    test.each(["coordenador", "semnivel"])("%s@ asking for another branch gets 404", async (who) => {
      for (const branch of [ids.messejana, ids.matriz, ids.order, ids.recife]) {
        expect((await list(`filialId=${branch}`, tokens[who])).status, String(branch)).toBe(404);
        expect((await list(`filialId=${branch}&size=0`, tokens[who])).status, String(branch)).toBe(404);
      }
      expect((await list(`companyId=${ids.other}`, tokens[who])).status).toBe(404);
    });

    test("a branch-level user's ids outside the branch are 404, and the own branch's are listed", async () => {
      const messejana = await liveRows({ branch: ids.messejana });
      const [aldeota] = await liveRows({ branch: ids.aldeota });
      const answer = await list(`ids=${messejana.map((row) => row.id).join(",")}`, tokens.coordenador);
      expect(answer.status).toBe(404);
      const own = await list(`ids=${aldeota.id}`, tokens.coordenador);
      expect(own.body.map((item: { id: number }) => item.id)).toEqual([aldeota.id]);
    });

    test("the auditor (roleId 4) reads the whole main company", async () => {
      const answer = await list(`companyId=${ids.hospital}&size=0`, tokens.auditor);
      expect(answer.status).toBe(200);
      expect(answer.body.total).toBe((await liveRows({ company: ids.hospital })).length);
    });

    test("without a token: 401", async () => {
      const answer = await t.get(`${base}?companyId=${ids.hospital}`);
      expect(answer.status).toBe(401);
    });
  });
});

describe("GET /api/empresas/filiais", () => {
  const BRANCH_KEYS = ["ATIVO", "CNPJ", "ENDERECO", "ID", "Id_Empresas", "NOME", "NUMERO"];

  const branchesOf = (company: number) =>
    t.db.selectFrom("branches").selectAll().where("company_id", "=", company).execute();

  test("every branch of the main company with the contract's fields, the inactive one with ATIVO false", async () => {
    const answer = await t.get(`/api/empresas/filiais?companyId=${ids.hospital}`, { token: tokens.admin });
    expect(answer.status).toBe(200);
    const rows = await branchesOf(ids.hospital);
    expect(answer.body).toHaveLength(rows.length);
    for (const branch of answer.body) expect(Object.keys(branch).sort()).toEqual(BRANCH_KEYS);
    expect([...answer.body].sort((a: { ID: number }, b: { ID: number }) => a.ID - b.ID)).toEqual(
      rows
        .sort((a, b) => a.id - b.id)
        .map((row) => ({
          ID: row.id,
          NOME: row.nome,
          CNPJ: row.cnpj,
          ENDERECO: row.endereco,
          NUMERO: row.numero,
          ATIVO: row.ativo,
          Id_Empresas: ids.hospital,
        })),
    );
    const byName = Object.fromEntries(
      answer.body.map((branch: { NOME: string; ATIVO: boolean }) => [branch.NOME, branch.ATIVO]),
    );
    expect(byName).toMatchObject({
      "Matriz Fortaleza": true,
      "Filial Aldeota": true,
      "Filial Messejana": true,
      "Filial Caucaia (desativada)": false,
    });
  });

  test("without companyId: the caller's main company; the principal and the auditor see the same", async () => {
    const withId = await t.get(`/api/empresas/filiais?companyId=${ids.hospital}`, { token: tokens.admin });
    expect((await t.get("/api/empresas/filiais", { token: tokens.admin })).body).toEqual(withId.body);
    expect((await t.get("/api/empresas/filiais", { token: tokens.principal })).body).toEqual(withId.body);
    expect((await t.get("/api/empresas/filiais", { token: tokens.auditor })).body).toEqual(withId.body);
  });

  test.each(["coordenador", "semnivel"])("a branch-level user (%s@) gets only the own branch", async (who) => {
    for (const path of ["/api/empresas/filiais", `/api/empresas/filiais?companyId=${ids.hospital}`]) {
      const answer = await t.get(path, { token: tokens[who] });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([
        expect.objectContaining({ ID: ids.aldeota, NOME: "Filial Aldeota", ATIVO: true, Id_Empresas: ids.hospital }),
      ]);
    }
  });

  test("another tenant's companyId answers 404; the other tenant gets its own branches", async () => {
    expect((await t.get(`/api/empresas/filiais?companyId=${ids.other}`, { token: tokens.admin })).status).toBe(404);
    const theirs = await t.get("/api/empresas/filiais", { token: tokens.outra });
    expect(theirs.status).toBe(200);
    expect(theirs.body.map((branch: { NOME: string }) => branch.NOME).sort()).toEqual(["Filial Olinda", "Sede Recife"]);
    expect((await t.get(`/api/empresas/filiais?companyId=${ids.hospital}`, { token: tokens.outra })).status).toBe(404);
  });

  test("without a token: 401", async () => {
    expect((await t.get("/api/empresas/filiais")).status).toBe(401);
  });
});
