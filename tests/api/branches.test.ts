/**
 * Branches (filiais), spec 000 §2 'Branches', §3, §5 'Branches', §6 (who may write, the master-CPF rule), §7
 * (GET empresas/filiais, POST empresas/saveEmpresaFilial, PUT empresas/updateEmpresaFilial), §8; docs/organisation.md.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { useTestApi } from "../support/api.ts";
import { cnpjWithCheckDigits, punctuatedCnpj, withWrongCnpjCheckDigit } from "../support/cnpj.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

const ROLE_ACCOUNTS = ["principal", "admin", "coordenador", "auditor", "asg", "cliente", "semnivel", "outra"] as const;
const tokens = {} as Record<(typeof ROLE_ACCOUNTS)[number], string>;
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };

const DENIED_BRANCH = "Para cadastrar uma nova FILIAL entre em contato com o administrador do sistema";
const DUPLICATE = "Já existe uma filial cadastrada com o mesmo nome";

let serial = 0;
/** A fresh valid CNPJ per call. */
const newCnpj = () => cnpjWithCheckDigits(`4242${String(++serial).padStart(4, "0")}0001`);

const branchRow = (id: number) => t.db.selectFrom("branches").selectAll().where("id", "=", id).executeTakeFirst();
const countBranches = async () =>
  Number(
    (
      await t.db
        .selectFrom("branches")
        .select(({ fn }) => fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  for (const account of ROLE_ACCOUNTS) tokens[account] = await t.signIn(`${account}@demo.com.br`);
  Object.assign(ids, await demoIds(t.db));
});

function createBody(overrides: Record<string, unknown> = {}) {
  return {
    NOME: `Filial Teste ${++serial}`,
    CNPJ: newCnpj(),
    ENDERECO: "Rua das Flores",
    NUMERO: "120",
    Id_Empresas: ids.hospital,
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}, token = tokens.principal) {
  const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody(overrides), { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { ID: number; NOME: string; CNPJ: string; ATIVO: boolean };
}

describe("POST /api/empresas/saveEmpresaFilial", () => {
  test("the owner of a master CPF registers an active branch of the main company, CNPJ stored as digits", async () => {
    const cnpj = newCnpj();
    const answer = await t.post(
      "/api/empresas/saveEmpresaFilial",
      createBody({ NOME: "  Filial   Benfica ", CNPJ: punctuatedCnpj(cnpj), NUMERO: " 42 " }),
      { token: tokens.principal },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({
      ID: expect.any(Number),
      NOME: "Filial Benfica",
      CNPJ: cnpj,
      ENDERECO: "Rua das Flores",
      NUMERO: "42",
      ATIVO: true,
      Id_Empresas: ids.hospital,
    });
    expect(await branchRow(answer.body.ID)).toMatchObject({ cnpj, company_id: ids.hospital, ativo: true });
    // The cached list of every selector forgets itself on the write.
    const list = await t.get("/api/empresas/filiais", { token: tokens.admin });
    expect(list.body.map((branch: { ID: number }) => branch.ID)).toContain(answer.body.ID);
  });

  test("every field's message of spec 000 §5, nothing written", async () => {
    const before = await countBranches();
    const answer = await t.post(
      "/api/empresas/saveEmpresaFilial",
      { NOME: " ", CNPJ: "", ENDERECO: "", NUMERO: "", Id_Empresas: ids.hospital },
      { token: tokens.principal },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({
      NOME: ["Nome é obrigatório"],
      CNPJ: ["CNPJ é obrigatório"],
      ENDERECO: ["Endereço é obrigatório"],
      NUMERO: ["Número é obrigatório"],
    });
    expect(await countBranches()).toBe(before);
  });

  test.each([
    ["wrong check digit", withWrongCnpjCheckDigit(cnpjWithCheckDigits("112223330001"))],
    ["too short", "11.222.333/0001-8"],
    ["all zeros", "00000000000000"],
    ["letters", "abcdefghijklmn"],
  ])("a CNPJ with a %s is refused with 'Esse CNPJ não é válido!'", async (_label, cnpj) => {
    const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody({ CNPJ: cnpj }), {
      token: tokens.principal,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({ CNPJ: ["Esse CNPJ não é válido!"] });
  });

  test("Número is numeric", async () => {
    const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody({ NUMERO: "12A" }), {
      token: tokens.principal,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({ NUMERO: ["Digite apenas números"] });
  });

  test("a name the company already has, in any case, is 'Filial duplicada' (409); another company may use it", async () => {
    const before = await countBranches();
    for (const nome of ["Filial Aldeota", "FILIAL ALDEOTA", "filial aldeota", "Filial Caucaia (desativada)"]) {
      const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody({ NOME: nome }), {
        token: tokens.principal,
      });
      expect(answer.status, nome).toBe(409);
      expect(answer.body).toEqual({ message: DUPLICATE, fieldErrors: { NOME: [DUPLICATE] } });
    }
    expect(await countBranches()).toBe(before);
    const theirs = await create({ NOME: "Filial Aldeota", Id_Empresas: ids.other }, tokens.outra);
    expect(theirs.NOME).toBe("Filial Aldeota");
  });

  test("two concurrent creates of one name: one wins, the other is the duplicate answer", async () => {
    const body = createBody({ NOME: "Filial Corrida" });
    const answers = await Promise.all([
      t.post("/api/empresas/saveEmpresaFilial", body, { token: tokens.principal }),
      t.post("/api/empresas/saveEmpresaFilial", { ...body, NOME: "filial corrida" }, { token: tokens.principal }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });

  test("another tenant's company is 404, whoever asks; nothing written", async () => {
    const before = await countBranches();
    for (const token of [tokens.principal, tokens.admin]) {
      const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody({ Id_Empresas: ids.other }), {
        token,
      });
      expect(answer.status).toBe(404);
    }
    const missing = await t.post("/api/empresas/saveEmpresaFilial", createBody({ Id_Empresas: 999_999 }), {
      token: tokens.principal,
    });
    expect(missing.status).toBe(404);
    expect(await countBranches()).toBe(before);
  });

  test("ids beyond 32 bits and malformed bodies are 400, never 500", async () => {
    for (const Id_Empresas of [2_147_483_648, -2_147_483_649, 1.5, "x"]) {
      const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody({ Id_Empresas }), {
        token: tokens.principal,
      });
      expect(answer.status, String(Id_Empresas)).toBe(400);
    }
    const raw = await t.call("POST", "/api/empresas/saveEmpresaFilial", {
      token: tokens.principal,
      raw: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(raw.status).toBe(400);
  });

  test("a body over the limit is 413 before it is read", async () => {
    const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody({ ENDERECO: "x".repeat(1_100_000) }), {
      token: tokens.principal,
    });
    expect(answer.status).toBe(413);
  });

  test("signed out: 401", async () => {
    expect((await t.post("/api/empresas/saveEmpresaFilial", createBody())).status).toBe(401);
  });
});

describe("PUT /api/empresas/updateEmpresaFilial", () => {
  const updateBody = (branch: { ID: number; NOME: string; CNPJ: string }, overrides: Record<string, unknown> = {}) => ({
    ID: branch.ID,
    NOME: branch.NOME,
    CNPJ: branch.CNPJ,
    ENDERECO: "Av. Nova",
    NUMERO: "77",
    ATIVO: true,
    Id_Empresas: ids.hospital,
    ...overrides,
  });

  test("every field and the status change; the branch then leaves the active selectors and takes no new items", async () => {
    const branch = await create();
    const cnpj = newCnpj();
    const answer = await t.put(
      "/api/empresas/updateEmpresaFilial",
      updateBody(branch, { NOME: "Filial Renomeada", CNPJ: punctuatedCnpj(cnpj), ATIVO: false }),
      { token: tokens.principal },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      ID: branch.ID,
      NOME: "Filial Renomeada",
      CNPJ: cnpj,
      ENDERECO: "Av. Nova",
      NUMERO: "77",
      ATIVO: false,
      Id_Empresas: ids.hospital,
    });
    const list = await t.get(`/api/empresas/filiais?companyId=${ids.hospital}`, { token: tokens.admin });
    expect(list.body.find((item: { ID: number }) => item.ID === branch.ID)).toMatchObject({ ATIVO: false });
    // Catalogues and environments refuse an inactive branch (the same rule as the seed's 'Caucaia (desativada)').
    const sector = await t.post(
      "/api/setor",
      { name: "Setor na inativa", companyId: branch.ID },
      { token: tokens.admin },
    );
    expect(sector.status).toBe(400);
    expect(sector.body.message).toBe("A filial está inativa");

    const back = await t.put("/api/empresas/updateEmpresaFilial", updateBody(branch, { ATIVO: "true" }), {
      token: tokens.principal,
    });
    expect(back.status).toBe(200);
    expect(back.body.ATIVO).toBe(true);
  });

  test("its own name (another case) is fine; another branch's name is 'Filial duplicada'", async () => {
    const branch = await create({ NOME: "Filial Papicu" });
    const same = await t.put("/api/empresas/updateEmpresaFilial", updateBody(branch, { NOME: "FILIAL PAPICU" }), {
      token: tokens.principal,
    });
    expect(same.status).toBe(200);
    expect(same.body.NOME).toBe("FILIAL PAPICU");
    const clash = await t.put("/api/empresas/updateEmpresaFilial", updateBody(branch, { NOME: "filial messejana" }), {
      token: tokens.principal,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.fieldErrors).toEqual({ NOME: [DUPLICATE] });
    expect((await branchRow(branch.ID))?.nome).toBe("FILIAL PAPICU");
  });

  test("the same field messages as the create", async () => {
    const branch = await create();
    const answer = await t.put(
      "/api/empresas/updateEmpresaFilial",
      { ID: branch.ID, Id_Empresas: ids.hospital, NOME: "", CNPJ: "123", ENDERECO: "", NUMERO: "", ATIVO: true },
      { token: tokens.principal },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({
      NOME: ["Nome é obrigatório"],
      CNPJ: ["Esse CNPJ não é válido!"],
      ENDERECO: ["Endereço é obrigatório"],
      NUMERO: ["Número é obrigatório"],
    });
  });

  test("another tenant's branch, or a branch moved to another company, is 404 and unchanged", async () => {
    const theirs = await branchRow(ids.recife);
    const foreign = await t.put(
      "/api/empresas/updateEmpresaFilial",
      updateBody({ ID: ids.recife, NOME: "Invasor", CNPJ: newCnpj() }, { Id_Empresas: ids.other }),
      { token: tokens.principal },
    );
    expect(foreign.status).toBe(404);
    const moved = await t.put(
      "/api/empresas/updateEmpresaFilial",
      updateBody({ ID: ids.messejana, NOME: "Filial Messejana", CNPJ: newCnpj() }, { Id_Empresas: ids.other }),
      { token: tokens.principal },
    );
    expect(moved.status).toBe(404);
    expect(await branchRow(ids.recife)).toEqual(theirs);
  });
});

describe("who may write (spec 000 §6): roles 1 and 2 with a master CPF", () => {
  // [account, create status, message]: principal owns the demo company's master CPF, admin does not; outra owns
  // the other company's (it writes there); the others' roles may not manage branches at all.
  const MATRIX: [account: (typeof ROLE_ACCOUNTS)[number], status: number, message?: string][] = [
    ["principal", 201],
    ["admin", 403, DENIED_BRANCH],
    ["outra", 201],
    ["coordenador", 403, "Permissão negada!"],
    ["auditor", 403, "Permissão negada!"],
    ["asg", 403, "Permissão negada!"],
    ["cliente", 403, "Permissão negada!"],
    ["semnivel", 403, "Permissão negada!"],
  ];

  test.each(MATRIX)("%s: create answers %i", async (account, status, message) => {
    const company = account === "outra" ? ids.other : ids.hospital;
    const before = await countBranches();
    const answer = await t.post("/api/empresas/saveEmpresaFilial", createBody({ Id_Empresas: company }), {
      token: tokens[account],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (message) {
      expect(answer.body.message).toBe(message);
      expect(await countBranches()).toBe(before);
    }
  });

  test.each(MATRIX)("%s: edit answers %s", async (account, status, message) => {
    const company = account === "outra" ? ids.other : ids.hospital;
    const branch = await create({ Id_Empresas: company }, account === "outra" ? tokens.outra : tokens.principal);
    const answer = await t.put(
      "/api/empresas/updateEmpresaFilial",
      { ...createBody({ Id_Empresas: company }), ID: branch.ID, NOME: `${branch.NOME} editada`, ATIVO: false },
      { token: tokens[account] },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(status === 201 ? 200 : status);
    if (message) {
      expect(answer.body.message).toBe(message);
      expect((await branchRow(branch.ID))?.nome).toBe(branch.NOME);
    }
  });

  test("reads: everyone signed in, within scope (a branch-level user or a client sees their own branch)", async () => {
    for (const account of ["principal", "admin", "auditor"] as const) {
      const answer = await t.get("/api/empresas/filiais", { token: tokens[account] });
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBeGreaterThanOrEqual(4);
    }
    for (const account of ["coordenador", "semnivel", "cliente"] as const) {
      const answer = await t.get("/api/empresas/filiais", { token: tokens[account] });
      expect(answer.status).toBe(200);
      expect(answer.body.map((branch: { NOME: string }) => branch.NOME)).toEqual(["Filial Aldeota"]);
    }
  });
});

describe("GET /api/empresas/filiais with paging parameters", () => {
  test("search (name, address, CNPJ digits), sort, page and size, with the total", async () => {
    const prefix = "Zeta Paginada";
    const created = [];
    for (const [index, numero] of ["100", "20", "3"].entries()) {
      created.push(await create({ NOME: `${prefix} ${index + 1}`, NUMERO: numero, ENDERECO: `Rua Ômega ${index}` }));
    }
    const page = await t.get(`/api/empresas/filiais?q=${encodeURIComponent("zeta paginada")}&size=20`, {
      token: tokens.admin,
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 1, size: 20 });
    expect(page.body.items.map((item: { NOME: string }) => item.NOME)).toEqual([
      `${prefix} 1`,
      `${prefix} 2`,
      `${prefix} 3`,
    ]);

    const byNumber = await t.get(`/api/empresas/filiais?q=${encodeURIComponent(prefix)}&sort=numero&dir=desc`, {
      token: tokens.admin,
    });
    expect(byNumber.body.items.map((item: { NUMERO: string }) => item.NUMERO)).toEqual(["100", "20", "3"]);

    const byAddress = await t.get(`/api/empresas/filiais?q=${encodeURIComponent("rua omega")}`, {
      token: tokens.admin,
    });
    expect(byAddress.body.total).toBe(3);

    const cnpj = created[1].CNPJ;
    const byCnpj = await t.get(`/api/empresas/filiais?q=${encodeURIComponent(punctuatedCnpj(cnpj))}`, {
      token: tokens.admin,
    });
    expect(byCnpj.body.items.map((item: { ID: number }) => item.ID)).toEqual([created[1].ID]);

    const second = await t.get(`/api/empresas/filiais?q=${encodeURIComponent(prefix)}&page=2&size=20`, {
      token: tokens.admin,
    });
    expect(second.body).toMatchObject({ items: [], total: 3, page: 2 });

    const status = await t.get("/api/empresas/filiais?sort=status&size=0", { token: tokens.admin });
    expect(status.body.items[0].ATIVO).toBe(false);
    expect(status.body.total).toBe(status.body.items.length);
  });

  test("a branch-level user's page is their own branch; another company's id is 404; a bad size is 400", async () => {
    const own = await t.get("/api/empresas/filiais?size=0", { token: tokens.coordenador });
    expect(own.body).toMatchObject({ total: 1, items: [{ NOME: "Filial Aldeota" }] });
    expect((await t.get(`/api/empresas/filiais?companyId=${ids.other}&page=1`, { token: tokens.admin })).status).toBe(
      404,
    );
    expect((await t.get("/api/empresas/filiais?size=7", { token: tokens.admin })).status).toBe(400);
  });
});
