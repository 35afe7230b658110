/**
 * Environments (spec 000 §5 'Environments', §7 'Environments', §8; docs/environments.md): the list per demo account,
 * search per 'Filtrar por' field, sort, pages and totals, keyset chunks, the register form's options, create, edit
 * and delete with their rules (mandatory/optional exclusivity, duplicate names, history, items of the same branch).
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import {
  ENVIRONMENT_SEARCH_FIELDS,
  ENVIRONMENT_SORTS,
  ENVIRONMENT_TEXTS as T,
  type EnvironmentSearchField,
  type EnvironmentSort,
} from "../../api/domain/environments.ts";
import {
  EnvironmentChunk,
  EnvironmentDetail,
  EnvironmentForm,
  EnvironmentItem,
  EnvironmentPage,
} from "../../api/routes/environments.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const tokens: Record<string, string> = {};
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0, test: 0 };
/** Live catalogue items of the test's own branch, by name. */
const items = { categories: {} as Record<string, number>, sectors: {}, risks: {}, procedures: {} } as Record<
  "categories" | "sectors" | "risks" | "procedures",
  Record<string, number>
>;
const TEST_BRANCH = "Filial Testes Ambientes";

beforeAll(async () => {
  for (const email of ["admin", "principal", "coordenador", "semnivel", "auditor", "cliente", "outra"]) {
    tokens[email] = await t.signIn(`${email}@demo.com.br`);
  }
  Object.assign(ids, await demoIds(t.db));
  ids.test = (
    await t.db
      .insertInto("branches")
      .values({ company_id: ids.hospital, nome: TEST_BRANCH, cnpj: "11222333000181" })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const add = async (table: "categories" | "sectors" | "procedures", names: string[]) => {
    for (const name of names) {
      const { id } = await t.db
        .insertInto(table)
        .values({ name, company_id: ids.hospital, branch_id: ids.test })
        .returning("id")
        .executeTakeFirstOrThrow();
      items[table][name] = id;
    }
  };
  await add("categories", ["Sala", "Banheiro"]);
  await add("sectors", ["Térreo A", "Bloco B"]);
  await add("procedures", ["Varrer", "Lavar", "Secar", "Polir"]);
  for (const [name, color] of [
    ["Biológico", "#aa0000"],
    ["Químico", "#00aa00"],
  ]) {
    const { id } = await t.db
      .insertInto("risks")
      .values({ name, color, company_id: ids.hospital, branch_id: ids.test })
      .returning("id")
      .executeTakeFirstOrThrow();
    items.risks[name] = id;
  }
});

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

type Item = EnvironmentItem;

/** The live environments of a scope, as the database has them. */
async function liveIds(where: { company?: number; branch?: number }) {
  const rows = await t.db
    .selectFrom("environments")
    .select("id")
    .where("deleted_at", "is", null)
    .$if(where.company !== undefined, (qb) => qb.where("company_id", "=", where.company!))
    .$if(where.branch !== undefined, (qb) => qb.where("branch_id", "=", where.branch!))
    .execute();
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

const idsOf = (list: Item[]) => list.map((item) => item.ID).sort((a, b) => a - b);

function list(query: string, token = tokens.admin) {
  return t.get(`/api/environments${query ? `?${query}` : ""}`, { token });
}

/** A valid body for the test branch (mandatory Varrer, Lavar; optional Secar). */
function body(overrides: Record<string, unknown> = {}) {
  return {
    name: "Sala de testes",
    andar: "1º andar",
    companyId: ids.test,
    categoriaId: items.categories.Sala,
    setorId: items.sectors["Térreo A"],
    riscos: [items.risks.Biológico],
    procedures: [items.procedures.Varrer, items.procedures.Lavar],
    proceduresNotMandatory: [items.procedures.Secar],
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}) {
  const answer = await t.post("/api/environments", body(overrides), { token: tokens.admin });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return EnvironmentDetail.parse(answer.body);
}

/** The environment tables as stored, to check a refused call wrote nothing. */
async function snapshot() {
  return {
    environments: await t.db.selectFrom("environments").selectAll().orderBy("id").execute(),
    risks: await t.db
      .selectFrom("environment_risks")
      .selectAll()
      .orderBy("environment_id")
      .orderBy("risk_id")
      .execute(),
    procedures: await t.db
      .selectFrom("environment_procedures")
      .selectAll()
      .orderBy("environment_id")
      .orderBy("procedure_id")
      .execute(),
  };
}

async function expectNothingWritten(call: () => Promise<{ status: number; body: any }>) {
  const before = await snapshot();
  const answer = await call();
  expect(await snapshot()).toEqual(before);
  return answer;
}

describe("GET /api/environments: the list per demo account", () => {
  test("an administrator sees every live environment of the main company, in the contract's list form", async () => {
    const answer = await list(`companyId=${ids.hospital}`);
    expect(answer.status).toBe(200);
    const items = EnvironmentItem.array().parse(answer.body);
    expect(idsOf(items)).toEqual(await liveIds({ company: ids.hospital }));
    expect(items.length).toBeGreaterThan(20);
    for (const item of answer.body as Item[]) {
      expect(Object.keys(item).sort()).toEqual(
        [
          "ANDAR",
          "AMBIENTE_NOME",
          "CATEGORIA",
          "EMPRESA",
          "EMPRESA_ID",
          "ID",
          "PROCEDIMENTOS",
          "RISCOS",
          "SETOR",
          "companyId",
          // Ours: the value the room's printed QR code carries (docs/qr-codes.md 'What the code holds').
          "qrCodigo",
        ].sort(),
      );
      expect(item.EMPRESA_ID).toBe(item.companyId);
      expect(item.qrCodigo).toMatch(/^[0-9a-f]{16}$/);
      expect(item.RISCOS.length).toBeGreaterThan(0);
    }
    const reception = items.find(
      (item) => item.AMBIENTE_NOME === "Recepção principal" && item.companyId === ids.aldeota,
    );
    expect(reception).toMatchObject({
      EMPRESA: "Filial Aldeota",
      CATEGORIA: "Sala",
      SETOR: "Recepção",
      ANDAR: "Térreo",
      RISCOS: ["Biológico", "Químico"],
    });
    expect(reception!.PROCEDIMENTOS.filter((p) => !p.mandatory).map((p) => p.name)).toEqual([
      "Limpar vaso sanitário",
      "Limpar vidros",
    ]);
    // No query is the caller's main company; filialId=-1 is every branch.
    expect((await list("")).body).toEqual(answer.body);
    expect((await list("filialId=-1")).body).toEqual(answer.body);
  });

  test("filialId narrows to one branch", async () => {
    const answer = await list(`filialId=${ids.messejana}`);
    expect(idsOf(answer.body)).toEqual(await liveIds({ branch: ids.messejana }));
    expect(answer.body.length).toBeGreaterThan(0);
  });

  test("the auditor and the principal see the whole company", async () => {
    for (const token of [tokens.auditor, tokens.principal]) {
      expect(idsOf((await list("", token)).body)).toEqual(await liveIds({ company: ids.hospital }));
    }
  });

  test.each(["coordenador", "semnivel", "cliente"])("%s sees only Filial Aldeota", async (who) => {
    const aldeota = await liveIds({ branch: ids.aldeota });
    expect(idsOf((await list("", tokens[who])).body)).toEqual(aldeota);
    expect(idsOf((await list(`companyId=${ids.hospital}`, tokens[who])).body)).toEqual(aldeota);
    const paged = await list("size=0", tokens[who]);
    expect(paged.body.total).toBe(aldeota.length);
    expect((await list(`filialId=${ids.messejana}`, tokens[who])).status).toBe(404);
    expect((await list(`filialClientId=${ids.messejana}`, tokens[who])).status).toBe(404);
  });

  test("the other company's administrator sees only its own environments", async () => {
    const answer = await list("", tokens.outra);
    expect(idsOf(answer.body)).toEqual(await liveIds({ company: ids.other }));
    expect(answer.body.map((item: Item) => item.AMBIENTE_NOME).sort()).toEqual(["Portaria", "Sala de reuniões"]);
    expect((await list(`companyId=${ids.hospital}`, tokens.outra)).status).toBe(404);
    expect((await list(`filialId=${ids.aldeota}`, tokens.outra)).status).toBe(404);
  });

  test("ids: those asked for, and no others", async () => {
    const [first, second, third] = await liveIds({ branch: ids.aldeota });
    const answer = await list(`ids=${first},${second}`);
    expect(answer.status).toBe(200);
    expect(idsOf(answer.body)).toEqual([first, second]);
    expect(idsOf(answer.body)).not.toContain(third);
    expect((await list(`ids=${first}&size=0`)).body.total).toBe(1);
    expect((await list(`ids=${first}`, tokens.coordenador)).body.map((item: Item) => item.ID)).toEqual([first]);
  });

  test("an id of another tenant's room, or another branch's for a branch-level user, is 404", async () => {
    const [first] = await liveIds({ branch: ids.aldeota });
    const [foreign] = await liveIds({ company: ids.other });
    const [messejana] = await liveIds({ branch: ids.messejana });
    expect((await list(`ids=${first},${foreign}`)).body).toEqual({ message: "Ambiente não encontrado" });
    expect((await list(`ids=${first},${messejana}`, tokens.coordenador)).status).toBe(404);
  });

  test("bad query values are 400, not server errors", async () => {
    for (const query of ["size=7", "page=0", "companyId=abc", "filialId=99999999999", "ids=1,,2", "dir=up"]) {
      expect((await list(query)).status, query).toBe(400);
    }
  });
});

describe("search: the 'Filtrar por' fields", () => {
  let all: Item[] = [];
  beforeAll(async () => {
    all = (await list(`companyId=${ids.hospital}`)).body;
  });

  const values = (item: Item, field: EnvironmentSearchField): string[] => {
    switch (field) {
      case "empresa":
        return [item.EMPRESA];
      case "ambiente":
        return [item.AMBIENTE_NOME];
      case "categoria":
        return [item.CATEGORIA];
      case "setor":
        return [item.SETOR];
      case "andar":
        return [item.ANDAR];
      case "risco":
        return item.RISCOS;
      case "procedimento":
        return item.PROCEDIMENTOS.map((p) => p.name);
    }
  };
  const expected = (term: string, fields: EnvironmentSearchField[]) =>
    all
      .filter((item) => fields.some((field) => values(item, field).some((value) => fold(value).includes(fold(term)))))
      .map((item) => item.ID)
      .sort((a, b) => a - b);
  const search = async (term: string, fields?: string) => {
    const answer = await list(
      `companyId=${ids.hospital}&size=0&q=${encodeURIComponent(term)}${fields ? `&fields=${fields}` : ""}`,
    );
    expect(answer.status).toBe(200);
    const page = EnvironmentPage.parse(answer.body);
    expect(page.total).toBe(page.items.length);
    return idsOf(page.items);
  };

  test.each([
    ["empresa", "ALDEOTA"],
    ["ambiente", "banheiro"],
    ["categoria", "enfermaria"],
    ["setor", "cirurgico"],
    ["andar", "TERREO"],
    ["risco", "biologico"],
    ["procedimento", "vidros"],
  ] as [EnvironmentSearchField, string][])("%s matches %s without case or accents", async (field, term) => {
    const found = await search(term, field);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(all.length);
    expect(found).toEqual(expected(term, [field]));
  });

  test("several fields match any of them; the default field is Ambiente only", async () => {
    expect(await search("recepcao", "ambiente,setor")).toEqual(expected("recepcao", ["ambiente", "setor"]));
    const byName = await search("recepção");
    expect(byName).toEqual(expected("recepcao", ["ambiente"]));
    expect(byName.length).toBeLessThan((await search("recepcao", "setor")).length);
    // Unknown fields are ignored; none known is the default.
    expect(await search("recepcao", "nada,ambiente")).toEqual(byName);
    expect(await search("recepcao", "nada")).toEqual(byName);
  });

  test("every field at once", async () => {
    const fields = ENVIRONMENT_SEARCH_FIELDS.map((field) => field.key);
    expect(await search("a", fields.join(","))).toEqual(expected("a", fields));
  });

  test("LIKE wildcards are plain text", async () => {
    expect(await search("%", "ambiente")).toEqual([]);
    expect(await search("_", "ambiente,categoria,setor,andar,risco,procedimento,empresa")).toEqual([]);
  });
});

describe("sort, pages and totals", () => {
  let all: Item[] = [];
  beforeAll(async () => {
    all = (await list(`companyId=${ids.hospital}`)).body;
  });

  const keyOf = (item: Item, sort: EnvironmentSort) => {
    const names = (list: string[]) => list.map(fold).sort().join(", ");
    switch (sort) {
      case "empresa":
        return fold(item.EMPRESA);
      case "ambiente":
        return fold(item.AMBIENTE_NOME);
      case "categoria":
        return fold(item.CATEGORIA);
      case "setor":
        return fold(item.SETOR);
      case "andar":
        return fold(item.ANDAR);
      case "riscos":
        return names(item.RISCOS);
      case "obrigatorios":
        return names(item.PROCEDIMENTOS.filter((p) => p.mandatory).map((p) => p.name));
      case "opcionais":
        return names(item.PROCEDIMENTOS.filter((p) => !p.mandatory).map((p) => p.name));
    }
  };
  const sorted = (sort: EnvironmentSort, dir: "asc" | "desc") => {
    const sign = dir === "asc" ? 1 : -1;
    return [...all]
      .sort((a, b) => {
        const [ka, kb] = [keyOf(a, sort), keyOf(b, sort)];
        if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
        return (a.ID - b.ID) * sign;
      })
      .map((item) => item.ID);
  };

  test.each(ENVIRONMENT_SORTS.flatMap((sort) => [[sort.key, "asc"] as const, [sort.key, "desc"] as const]))(
    "sort=%s dir=%s orders by the folded column, then id",
    async (sort, dir) => {
      const answer = await list(`companyId=${ids.hospital}&sort=${sort}&dir=${dir}&size=0`);
      expect(answer.body.items.map((item: Item) => item.ID)).toEqual(sorted(sort, dir));
    },
  );

  test("the plain list is sorted by name; an unknown sort is the name", async () => {
    expect(all.map((item) => item.ID)).toEqual(sorted("ambiente", "asc"));
    const unknown = await list(`companyId=${ids.hospital}&sort=nada&size=0`);
    expect(unknown.body.items.map((item: Item) => item.ID)).toEqual(sorted("ambiente", "asc"));
  });

  test("pages of 20 with the total; past the end is empty with the same total", async () => {
    const order = sorted("setor", "desc");
    const first = await list(`companyId=${ids.hospital}&sort=setor&dir=desc`);
    expect(first.body).toMatchObject({ total: all.length, page: 1, size: 20 });
    expect(first.body.items.map((item: Item) => item.ID)).toEqual(order.slice(0, 20));
    const second = await list(`companyId=${ids.hospital}&sort=setor&dir=desc&page=2&size=20`);
    expect(second.body.items.map((item: Item) => item.ID)).toEqual(order.slice(20, 40));
    const past = await list(`companyId=${ids.hospital}&page=9`);
    expect(past.body).toEqual({ items: [], total: all.length, page: 9, size: 20 });
  });

  test("totals follow writes: through the API, and links changed with plain SQL", async () => {
    const total = async (query: string) => (await list(`companyId=${ids.hospital}&${query}`)).body.total as number;
    const before = await total("size=20");
    const created = await create({ name: "Total segue escrita" });
    expect(await total("size=20")).toBe(before + 1);

    // A risk search counts environments linked to the risk: moving a link moves the total.
    const chemical = await total("q=quimico&fields=risco");
    await t.db.deleteFrom("environment_risks").where("environment_id", "=", created.id).execute();
    await t.db
      .insertInto("environment_risks")
      .values({ environment_id: created.id, risk_id: items.risks.Químico })
      .execute();
    expect(await total("q=quimico&fields=risco")).toBe(chemical + 1);
    await t.db.updateTable("environments").set({ deleted_at: new Date() }).where("id", "=", created.id).execute();
    expect(await total("q=quimico&fields=risco")).toBe(chemical);
    expect(await total("size=20")).toBe(before);
  });

  test("keyset chunks (after) give the whole list in order, in pieces", async () => {
    for (const [sort, dir] of [
      ["ambiente", "asc"],
      ["riscos", "desc"],
      ["empresa", "asc"],
    ] as const) {
      const seen: number[] = [];
      let after = "";
      for (let round = 0; round < 20; round++) {
        const answer = await list(`companyId=${ids.hospital}&sort=${sort}&dir=${dir}&after=${after}&size=7`);
        expect(answer.status).toBe(200);
        const chunk = EnvironmentChunk.parse(answer.body);
        seen.push(...chunk.items.map((item) => item.ID));
        if (!chunk.next) break;
        after = chunk.next;
      }
      expect(seen).toEqual(sorted(sort, dir));
    }
    expect((await list("after=nao-e-cursor")).status).toBe(400);
    expect((await list("after=&size=5001")).status).toBe(400);
  });
});

describe("GET /api/environments/form/{companyId}", () => {
  test("the branch's live categories, procedures, sectors and risks by name, in the contract's shapes", async () => {
    await t.db
      .insertInto("categories")
      .values({ name: "Removida", company_id: ids.hospital, branch_id: ids.test, deleted_at: new Date() })
      .execute();
    const answer = await t.get(`/api/environments/form/${ids.test}`, { token: tokens.admin });
    expect(answer.status).toBe(200);
    const form = EnvironmentForm.parse(answer.body);
    expect(form.categorias).toEqual([
      { ID_CATEGORIA: items.categories.Banheiro, DESCRICAO: "Banheiro", EMPRESA_ID: ids.test },
      { ID_CATEGORIA: items.categories.Sala, DESCRICAO: "Sala", EMPRESA_ID: ids.test },
    ]);
    expect(form.setores.map((s) => s.name)).toEqual(["Bloco B", "Térreo A"]);
    expect(form.procedimentos.map((p) => p.NAME_PROCEDIMENTO)).toEqual(["Lavar", "Polir", "Secar", "Varrer"]);
    expect(form.riscos).toEqual([
      { id: items.risks.Biológico, name: "Biológico", color: "#aa0000", EMPRESA_ID: ids.test },
      { id: items.risks.Químico, name: "Químico", color: "#00aa00", EMPRESA_ID: ids.test },
    ]);
  });

  test("in scope only: another tenant's branch, or another branch for a coordinator, is 404", async () => {
    expect((await t.get(`/api/environments/form/${ids.recife}`, { token: tokens.admin })).status).toBe(404);
    expect((await t.get(`/api/environments/form/${ids.messejana}`, { token: tokens.coordenador })).status).toBe(404);
    const own = await t.get(`/api/environments/form/${ids.aldeota}`, { token: tokens.coordenador });
    expect(own.status).toBe(200);
    expect(own.body.categorias.length).toBeGreaterThan(0);
  });

  test("a branch without categories or sectors answers empty lists (the form then shows 'Cadastros não realizados')", async () => {
    const answer = await t.get(`/api/environments/form/${ids.caucaia}`, { token: tokens.admin });
    expect(answer.body).toEqual({ categorias: [], procedimentos: [], setores: [], riscos: [] });
  });
});

describe("POST /api/environments", () => {
  test.each(["/api/environments", "/api/environments/"])(
    "%s creates it in the branch given as companyId",
    async (path) => {
      const name = `Copa ${path.endsWith("/") ? "B" : "A"}`;
      const answer = await t.post(path, body({ name: `  ${name}  ` }), { token: tokens.admin });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const detail = EnvironmentDetail.parse(answer.body);
      expect(detail).toMatchObject({
        name,
        andar: "1º andar",
        companyId: ids.test,
        empresa: TEST_BRANCH,
        categoriaId: items.categories.Sala,
        Categoria: { id: items.categories.Sala, name: "Sala" },
        setorId: items.sectors["Térreo A"],
        Setor: { id: items.sectors["Térreo A"], name: "Térreo A" },
        riscos: [items.risks.Biológico],
        procedures: [items.procedures.Lavar, items.procedures.Varrer],
        proceduresNotMandatory: [items.procedures.Secar],
        deletedAt: null,
      });
      const stored = await t.db.selectFrom("environments").selectAll().where("id", "=", detail.id).executeTakeFirst();
      expect(stored).toMatchObject({ name, company_id: ids.hospital, branch_id: ids.test, deleted_at: null });
      const links = await t.db
        .selectFrom("environment_procedures")
        .select(["procedure_id", "mandatory"])
        .where("environment_id", "=", detail.id)
        .orderBy("procedure_id")
        .execute();
      expect(links).toEqual(
        [
          { procedure_id: items.procedures.Varrer, mandatory: true },
          { procedure_id: items.procedures.Lavar, mandatory: true },
          { procedure_id: items.procedures.Secar, mandatory: false },
        ].sort((a, b) => a.procedure_id - b.procedure_id),
      );
      // GET by id answers the same.
      expect((await t.get(`/api/environments/${detail.id}`, { token: tokens.admin })).body).toEqual(answer.body);
    },
  );

  test("form values as text work too (a no-JS form posted as JSON by the web app)", async () => {
    const detail = await create({
      name: "Texto",
      companyId: String(ids.test),
      categoriaId: String(items.categories.Banheiro),
      riscos: String(items.risks.Químico),
      procedures: [],
      proceduresNotMandatory: [String(items.procedures.Polir)],
    });
    expect(detail).toMatchObject({
      categoriaId: items.categories.Banheiro,
      riscos: [items.risks.Químico],
      procedures: [],
      proceduresNotMandatory: [items.procedures.Polir],
    });
  });

  test("only optional procedures is enough; only mandatory ones too", async () => {
    await create({ name: "Só opcionais", procedures: [], proceduresNotMandatory: [items.procedures.Polir] });
    await create({ name: "Só obrigatórios", procedures: [items.procedures.Polir], proceduresNotMandatory: [] });
  });

  test.each([
    ["name", { name: "   " }, T.nameRequired],
    ["andar", { andar: "" }, T.andarRequired],
    ["riscos", { riscos: [] }, T.risksRequired],
    ["procedures", { procedures: [], proceduresNotMandatory: [] }, T.proceduresRequired],
    ["categoriaId", { categoriaId: undefined }, T.categoryRequired],
    ["setorId", { setorId: "" }, T.sectorRequired],
  ])("%s missing: 400 with the spec's message, nothing written", async (field, overrides, message) => {
    const answer = await expectNothingWritten(() =>
      t.post("/api/environments", body(overrides), { token: tokens.admin }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors[field]).toEqual([message]);
  });

  test("the spec's messages, letter for letter", () => {
    expect(T.nameRequired).toBe("Nome do ambiente é obrigatório");
    expect(T.andarRequired).toBe("Nome do andar é obrigatório");
    expect(T.risksRequired).toBe("Favor selecionar o(s) risco(s) do ambiente");
    expect(T.proceduresRequired).toBe("Favor selecionar o(s) procedimento(s) do ambiente");
    expect(T.duplicateDescription).toBe("Já existe um ambiente cadastrado com o mesmo nome e empresa");
    expect(T.hasHistory).toBe("Ambiente já possui historico e não pode ser deletado");
  });

  test("a procedure both mandatory and optional is refused", async () => {
    const answer = await expectNothingWritten(() =>
      t.post(
        "/api/environments",
        body({
          name: "Conflito",
          procedures: [items.procedures.Varrer],
          proceduresNotMandatory: [items.procedures.Varrer],
        }),
        { token: tokens.admin },
      ),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: T.procedureConflict,
      fieldErrors: { proceduresNotMandatory: [T.procedureConflict] },
    });
  });

  test("a duplicate name in the same branch is refused without regard to case; another branch may have it", async () => {
    await create({ name: "Almoxarifado" });
    for (const name of ["Almoxarifado", "ALMOXARIFADO", " almoxarifado "]) {
      const answer = await expectNothingWritten(() =>
        t.post("/api/environments", body({ name }), { token: tokens.admin }),
      );
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ message: T.duplicateDescription, fieldErrors: { name: [T.duplicateDescription] } });
    }
    // The demo's 'Recepção principal' exists in Matriz and Aldeota: one name per branch, not per main company.
    const demo = await t.post(
      "/api/environments",
      { ...body({ name: "Recepção principal" }) },
      { token: tokens.admin },
    );
    expect(demo.status).toBe(201);
  });

  test("category, sector, risks and procedures must be live items of the same branch: 404, nothing written", async () => {
    const [otherCategory] = await t.db
      .selectFrom("categories")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .execute();
    const foreign = async (table: "categories" | "sectors" | "risks" | "procedures") =>
      (await t.db.selectFrom(table).select("id").where("company_id", "=", ids.other).executeTakeFirstOrThrow()).id;
    const removed = (
      await t.db
        .insertInto("procedures")
        .values({ name: "Removido", company_id: ids.hospital, branch_id: ids.test, deleted_at: new Date() })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const cases: [string, Record<string, unknown>, string][] = [
      ["categoriaId", { categoriaId: otherCategory.id }, T.categoryNotFound],
      ["categoriaId", { categoriaId: await foreign("categories") }, T.categoryNotFound],
      ["setorId", { setorId: await foreign("sectors") }, T.sectorNotFound],
      ["riscos", { riscos: [items.risks.Biológico, await foreign("risks")] }, T.riskNotFound],
      ["procedures", { procedures: [await foreign("procedures")] }, T.procedureNotFound],
      ["proceduresNotMandatory", { proceduresNotMandatory: [removed] }, T.procedureNotFound],
      ["riscos", { riscos: [999_999] }, T.riskNotFound],
    ];
    for (const [field, overrides, message] of cases) {
      const answer = await expectNothingWritten(() =>
        t.post("/api/environments", body({ name: "Invasor", ...overrides }), { token: tokens.admin }),
      );
      expect(answer.status, field).toBe(404);
      expect(answer.body.fieldErrors, field).toEqual({ [field]: [message] });
    }
  });

  test("a branch of another tenant is 404, an inactive branch 400", async () => {
    const foreign = await expectNothingWritten(() =>
      t.post("/api/environments", body({ name: "Invasor", companyId: ids.recife }), { token: tokens.admin }),
    );
    expect(foreign.status).toBe(404);
    const inactive = await expectNothingWritten(() =>
      t.post("/api/environments", body({ name: "Inativa", companyId: ids.caucaia }), { token: tokens.admin }),
    );
    expect(inactive.status).toBe(400);
    expect(inactive.body.message).toBe("A filial está inativa");
  });

  test("only roleId 1 and 2 write: coordinators, users without a role, auditors and clients get 403", async () => {
    await create({ name: "Pela admin" });
    const principal = await t.post("/api/environments", body({ name: "Pela principal" }), { token: tokens.principal });
    expect(principal.status).toBe(201);
    for (const who of ["coordenador", "semnivel", "auditor", "cliente"]) {
      const answer = await expectNothingWritten(() =>
        t.post("/api/environments", body({ name: "Proibido", companyId: ids.aldeota }), { token: tokens[who] }),
      );
      expect(answer.status, who).toBe(403);
    }
  });
});

describe("PUT /api/environments/{id}", () => {
  test("changes the fields and replaces the risks and procedures; the branch stays", async () => {
    const created = await create({ name: "Antes" });
    const answer = await t.put(
      `/api/environments/${created.id}`,
      {
        name: "Depois",
        andar: "2º andar",
        categoriaId: items.categories.Banheiro,
        setorId: items.sectors["Bloco B"],
        riscos: [items.risks.Químico, items.risks.Biológico],
        procedures: [items.procedures.Polir],
        proceduresNotMandatory: [items.procedures.Varrer, items.procedures.Lavar],
        companyId: ids.aldeota,
      },
      { token: tokens.admin },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(EnvironmentDetail.parse(answer.body)).toMatchObject({
      id: created.id,
      name: "Depois",
      andar: "2º andar",
      companyId: ids.test,
      Categoria: { name: "Banheiro" },
      Setor: { name: "Bloco B" },
      riscos: [items.risks.Biológico, items.risks.Químico],
      procedures: [items.procedures.Polir],
      proceduresNotMandatory: [items.procedures.Lavar, items.procedures.Varrer],
    });
    const row = (await list(`ids=${created.id}`)).body[0] as Item;
    expect(row).toMatchObject({
      AMBIENTE_NOME: "Depois",
      EMPRESA: TEST_BRANCH,
      RISCOS: ["Biológico", "Químico"],
      PROCEDIMENTOS: [
        { name: "Polir", mandatory: true },
        { name: "Lavar", mandatory: false },
        { name: "Varrer", mandatory: false },
      ],
    });
  });

  test("duplicate names on edit: against the branch's other environments, case-insensitive; itself is fine", async () => {
    await create({ name: "Sala Azul" });
    const edited = await create({ name: "Sala Verde" });
    const clash = await expectNothingWritten(() =>
      t.put(`/api/environments/${edited.id}`, body({ name: "SALA AZUL" }), { token: tokens.admin }),
    );
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(T.duplicateDescription);
    const self = await t.put(`/api/environments/${edited.id}`, body({ name: "sala verde" }), { token: tokens.admin });
    expect(self.status).toBe(200);
    expect(self.body.name).toBe("sala verde");
  });

  test("the same rules as create: exclusivity, required fields, items of the same branch", async () => {
    const created = await create({ name: "Regras na edição" });
    const put = (overrides: Record<string, unknown>) =>
      expectNothingWritten(() => t.put(`/api/environments/${created.id}`, body(overrides), { token: tokens.admin }));
    const conflict = await put({
      procedures: [items.procedures.Secar],
      proceduresNotMandatory: [items.procedures.Secar],
    });
    expect(conflict.status).toBe(400);
    expect(conflict.body.fieldErrors).toEqual({ proceduresNotMandatory: [T.procedureConflict] });
    expect((await put({ riscos: [] })).body.fieldErrors).toEqual({ riscos: [T.risksRequired] });
    const foreign = await t.db
      .selectFrom("risks")
      .select("id")
      .where("company_id", "=", ids.other)
      .executeTakeFirstOrThrow();
    expect((await put({ riscos: [foreign.id] })).status).toBe(404);
    const aldeotaSector = await t.db
      .selectFrom("sectors")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .executeTakeFirstOrThrow();
    expect((await put({ setorId: aldeotaSector.id })).body.fieldErrors).toEqual({ setorId: [T.sectorNotFound] });
  });

  test("an unknown, removed or other tenant's environment is 404; branch-level users get 403", async () => {
    const [foreign] = await liveIds({ company: ids.other });
    for (const id of [foreign, 999_999]) {
      const answer = await t.put(`/api/environments/${id}`, body({ name: "Invasor" }), { token: tokens.admin });
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(T.notFound);
    }
    const [own] = await liveIds({ branch: ids.aldeota });
    expect((await t.put(`/api/environments/${own}`, body(), { token: tokens.coordenador })).status).toBe(403);
    expect((await t.put("/api/environments/2147483648", body(), { token: tokens.admin })).status).toBe(400);
  });
});

describe("DELETE /api/environments", () => {
  async function historyFor(
    environmentId: number,
    what: "booking" | "history" | "agenda" | "deleted agenda" | "legacy" | "legacy row",
  ) {
    const environment = await t.db
      .selectFrom("environments")
      .select(["company_id", "branch_id"])
      .where("id", "=", environmentId)
      .executeTakeFirstOrThrow();
    const asg = await userByEmail(t.db, "ana@demo.com.br");
    if (what === "legacy row") {
      await t.db
        .insertInto("legacy_history")
        .values({
          company_id: environment.company_id,
          branch_id: environment.branch_id,
          legacy_id: 700_000 + environmentId,
          environment_id: environmentId,
          user_id: asg.id,
          empresa: "Filial",
          ambiente_nome: "Sala antiga",
          nome_usuario: "Ana",
          inicio: new Date("2022-03-10T12:00:00Z"),
        })
        .execute();
      return;
    }
    if (what === "legacy") {
      await t.db
        .insertInto("legacy_observations")
        .values({
          company_id: environment.company_id,
          environment_id: environmentId,
          observacao: "Antes de 2022",
          created_at: new Date("2022-01-10T12:00:00Z"),
        })
        .execute();
      return;
    }
    const { id: periodicity } = await t.db
      .insertInto("periodicities")
      .values({
        branch_id: environment.branch_id,
        nome: `AGENDA_${environmentId}`,
        type: "sem",
        hora_base_inicial: "08:00",
        hora_base_final: "09:00",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { id: agenda } = await t.db
      .insertInto("agendas")
      .values({
        company_id: environment.company_id,
        branch_id: environment.branch_id,
        environment_id: environmentId,
        periodicity_id: periodicity,
        user_id: asg.id,
        vig_ini: "2024-01-01",
        vig_fim: "2024-12-31",
        deleted_at: what === "agenda" ? null : new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (what === "agenda" || what === "deleted agenda") return;
    const { id: booking } = await t.db
      .insertInto("bookings")
      .values({
        agenda_id: agenda,
        company_id: environment.company_id,
        branch_id: environment.branch_id,
        environment_id: environmentId,
        user_id: asg.id,
        data_agend: "2024-03-04",
        hora_ini: "08:00",
        hora_fim: "09:00",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (what === "history") {
      const procedure = await t.db
        .selectFrom("environment_procedures")
        .select("procedure_id")
        .where("environment_id", "=", environmentId)
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto("history")
        .values({ booking_id: booking, procedure_id: procedure.procedure_id, user_id: asg.id })
        .execute();
    }
  }

  const deleted = async (id: number) =>
    (await t.db.selectFrom("environments").select("deleted_at").where("id", "=", id).executeTakeFirstOrThrow())
      .deleted_at;

  test.each([
    [
      "DELETE /api/environments {ID} (the list form)",
      "/api/environments",
      (id: number) => ({ ID: id, AMBIENTE_NOME: "x" }),
    ],
    ["DELETE /api/environments/ {id} (the nested form)", "/api/environments/", (id: number) => ({ id, name: "x" })],
    ["DELETE /api/environments/{id}", "", () => undefined],
  ])("%s: soft delete, gone from the list and GET", async (_name, path, bodyOf) => {
    const created = await create({ name: `Remover ${path || "id"}` });
    const answer = await t.delete(path || `/api/environments/${created.id}`, {
      token: tokens.admin,
      ...(bodyOf(created.id) ? { json: bodyOf(created.id) } : {}),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(204);
    expect(await deleted(created.id)).toBeInstanceOf(Date);
    expect((await t.get(`/api/environments/${created.id}`, { token: tokens.admin })).status).toBe(404);
    expect((await list(`ids=${created.id}`)).body).toEqual([]);
    // Removed again: 404.
    expect((await t.delete(`/api/environments/${created.id}`, { token: tokens.admin })).status).toBe(404);
    // The name is free again.
    await create({ name: `Remover ${path || "id"}` });
  });

  test.each(["booking", "history", "agenda", "legacy", "legacy row"] as const)(
    "with history (%s) it is refused with the spec's message and stays",
    async (what) => {
      const created = await create({ name: `Com histórico ${what}` });
      await historyFor(created.id, what);
      for (const call of [
        () => t.delete("/api/environments", { token: tokens.admin, json: { ID: created.id } }),
        () => t.delete(`/api/environments/${created.id}`, { token: tokens.admin }),
      ]) {
        const answer = await call();
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual({ message: "Ambiente já possui historico e não pode ser deletado" });
      }
      expect(await deleted(created.id)).toBeNull();
    },
  );

  test("a removed agenda that never made a booking is not history", async () => {
    const created = await create({ name: "Agenda removida" });
    await historyFor(created.id, "deleted agenda");
    expect((await t.delete(`/api/environments/${created.id}`, { token: tokens.admin })).status).toBe(204);
  });

  test("another tenant's environment is 404 and stays; branch-level users get 403; a body without id is 400", async () => {
    const [foreign] = await liveIds({ company: ids.other });
    expect((await t.delete("/api/environments", { token: tokens.admin, json: { ID: foreign } })).status).toBe(404);
    expect((await t.delete(`/api/environments/${foreign}`, { token: tokens.admin })).status).toBe(404);
    expect(await deleted(foreign)).toBeNull();
    const [own] = await liveIds({ branch: ids.aldeota });
    expect((await t.delete(`/api/environments/${own}`, { token: tokens.coordenador })).status).toBe(403);
    expect(await deleted(own)).toBeNull();
    const empty = await t.delete("/api/environments", { token: tokens.admin, json: { name: "x" } });
    expect(empty.status).toBe(400);
  });
});

describe("GET /api/environments/{id}", () => {
  test("in scope: the nested form; another branch for a coordinator, or another tenant, is 404", async () => {
    const [aldeota] = await liveIds({ branch: ids.aldeota });
    const [messejana] = await liveIds({ branch: ids.messejana });
    const [foreign] = await liveIds({ company: ids.other });
    const own = await t.get(`/api/environments/${aldeota}`, { token: tokens.coordenador });
    expect(own.status).toBe(200);
    const detail = EnvironmentDetail.parse(own.body);
    expect(detail.companyId).toBe(ids.aldeota);
    expect(detail.Procedures.length).toBe(detail.procedures.length + detail.proceduresNotMandatory.length);
    expect((await t.get(`/api/environments/${messejana}`, { token: tokens.coordenador })).status).toBe(404);
    expect((await t.get(`/api/environments/${foreign}`, { token: tokens.admin })).status).toBe(404);
    expect((await t.get(`/api/environments/${aldeota}`, { token: tokens.outra })).status).toBe(404);
  });
});

describe("the database keeps the rules", () => {
  test("the unique index refuses a second live name in a branch, whatever the case", async () => {
    const created = await create({ name: "Índice único" });
    const row = await t.db
      .selectFrom("environments")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    const insert = sql`insert into environments (company_id, branch_id, name, andar, category_id, sector_id)
      values (${row.company_id}, ${row.branch_id}, ${"ÍNDICE ÚNICO".toLowerCase()}, 'x', ${row.category_id}, ${row.sector_id})`;
    await expect(insert.execute(t.db)).rejects.toMatchObject({ code: "23505" });
    expect(row.name_folded).toBe("indice unico");
  });
});
