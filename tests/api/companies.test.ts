/**
 * Main companies (empresas matriz), spec 000 §2 'Main companies', §3 (Company, create/edit payloads), §5 'Main
 * companies', §6 (roleId 1 only), §7 (GET /empresas/listmatriz, empresas/all, empresas/{companyId},
 * /empresas/quadros, /quadroPadrao, POST and PUT /empresas), §8, §9 (max_number_users 50); docs/organisation.md.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { verifyPassword } from "../../api/auth/password.ts";
import { useTestApi } from "../support/api.ts";
import { cnpjWithCheckDigits, punctuatedCnpj } from "../support/cnpj.ts";
import { cpfWithCheckDigits } from "../support/cpf.ts";
import { countRows, demoIds } from "../support/demo.ts";

const t = useTestApi();

const ROLE_ACCOUNTS = ["principal", "admin", "coordenador", "auditor", "asg", "cliente", "semnivel", "outra"] as const;
const tokens = {} as Record<(typeof ROLE_ACCOUNTS)[number], string>;
const ids = { hospital: 0, other: 0 };

let serial = 0;
const next = () => String(++serial).padStart(4, "0");

beforeAll(async () => {
  for (const account of ROLE_ACCOUNTS) tokens[account] = await t.signIn(`${account}@demo.com.br`);
  const demo = await demoIds(t.db);
  ids.hospital = demo.hospital;
  ids.other = demo.other;
});

/** A valid create payload with a fresh CNPJ, admin e-mail and CPF. */
function createBody(overrides: Record<string, unknown> = {}, admin: Record<string, unknown> = {}) {
  const n = next();
  return {
    nome: `Empresa Nova ${n}`,
    cnpj: punctuatedCnpj(cnpjWithCheckDigits(`7373${n}0001`)),
    endereco: "Rua Nova",
    numero: "10",
    bairro: "Centro",
    cidade: "Sobral",
    quadroIds: [1, 3, 8],
    max_number_users: 50,
    userAdmin: {
      nome: `Admin Novo ${n}`,
      email: `admin.${n}@nova.com.br`,
      cpf: cpfWithCheckDigits(`818${n}00`.slice(0, 9)),
      dataNascimento: "12/04/1988",
      telefone: "(85) 9 8888-7777",
      password: "segredo1",
      ...admin,
    },
    ...overrides,
  };
}

async function createCompany(overrides: Record<string, unknown> = {}, admin: Record<string, unknown> = {}) {
  const body = createBody(overrides, admin);
  const answer = await t.post("/api/empresas", body, { token: tokens.principal });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { body, company: answer.body as { ID: number; NOME: string; CNPJ: string } };
}

/** Rows of every table a create writes, to show that a refused create wrote none. */
async function counts() {
  return {
    companies: await countRows(t.db, "companies"),
    company_boards: await countRows(t.db, "company_boards"),
    users: await countRows(t.db, "users"),
    master_cpfs: await countRows(t.db, "master_cpfs"),
  };
}

describe("POST /api/empresas", () => {
  test("creates the company, its boards, its admin (roleId 2, scrypt hash) and the admin's master CPF", async () => {
    const { body, company } = await createCompany({ max_number_users: undefined });
    expect(company).toEqual({
      ID: expect.any(Number),
      NOME: body.nome,
      CNPJ: body.cnpj.replace(/\D/g, ""),
      ENDERECO: "Rua Nova",
      NUMERO: "10",
      BAIRRO: "Centro",
      CIDADE: "Sobral",
      ATIVO: true,
      max_number_users: 50,
      late_tolerance_minutes: 15,
      quadros: [
        { ID: 1, label: "Ambientes" },
        { ID: 3, label: "Atividades em aberto por CNPJ" },
        { ID: 8, label: "Resumo das Atividades" },
      ],
    });
    const admin = await t.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", body.userAdmin.email)
      .executeTakeFirstOrThrow();
    expect(admin).toMatchObject({
      company_id: company.ID,
      branch_id: null,
      role_id: 2,
      cpf: body.userAdmin.cpf,
      telefone: "85988887777",
      data_nascimento: "1988-04-12",
      ativo: 1,
    });
    expect(admin.password_hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword("segredo1", admin.password_hash)).toBe(true);
    const master = await t.db.selectFrom("master_cpfs").selectAll().where("company_id", "=", company.ID).execute();
    expect(master).toEqual([{ cpf: body.userAdmin.cpf, company_id: company.ID }]);

    // The admin signs in with the chosen password and owns the new company: they may register its branches.
    const token = await t.signIn(body.userAdmin.email, "segredo1");
    const session = await t.get("/api/sessions/current", { token });
    expect(session.body).toMatchObject({
      empresaPrincipal: [{ Id_Empresas: company.ID, NOME: body.nome }],
      cpfUserMaster: [{ CPF: body.userAdmin.cpf, Id_Empresas: company.ID }],
    });
    const branch = await t.post(
      "/api/empresas/saveEmpresaFilial",
      {
        NOME: "Sede",
        CNPJ: cnpjWithCheckDigits("737399990001"),
        ENDERECO: "Rua 1",
        NUMERO: "1",
        Id_Empresas: company.ID,
      },
      { token },
    );
    expect(branch.status, JSON.stringify(branch.body)).toBe(201);
    // A new tenant: nothing of the demo company is theirs, and theirs is nobody else's.
    expect((await t.get("/api/empresas/filiais", { token })).body.map((b: { NOME: string }) => b.NOME)).toEqual([
      "Sede",
    ]);
    expect((await t.get(`/api/empresas/filiais?companyId=${ids.hospital}`, { token })).status).toBe(404);
    expect((await t.get("/api/setor", { token })).body).toEqual([]);
  });

  test("the registrar keeps the record in their list, without joining the new tenant", async () => {
    const { company } = await createCompany();
    const list = await t.get("/api/empresas/listmatriz", { token: tokens.principal });
    expect(list.body.map((c: { ID: number }) => c.ID)).toEqual(expect.arrayContaining([ids.hospital, company.ID]));
    expect((await t.get(`/api/empresas/${company.ID}`, { token: tokens.principal })).status).toBe(200);
    // The session facts (empresaPrincipal, cpfUserMaster) and the scope stay the principal's own company.
    const session = await t.get("/api/sessions/current", { token: tokens.principal });
    expect(session.body.empresaPrincipal).toEqual([{ Id_Empresas: ids.hospital, NOME: "Hospital Boa Saúde" }]);
    expect((await t.get(`/api/empresas/filiais?companyId=${company.ID}`, { token: tokens.principal })).status).toBe(
      404,
    );
    // Another administrator of the demo company does not see it.
    const theirs = await t.get("/api/empresas/listmatriz", { token: tokens.admin });
    expect(theirs.body.map((c: { ID: number }) => c.ID)).toEqual([ids.hospital]);
    expect((await t.get(`/api/empresas/${company.ID}`, { token: tokens.admin })).status).toBe(404);
  });

  test("every message of spec 000 §5 'Main companies', nothing written", async () => {
    const before = await counts();
    const answer = await t.post(
      "/api/empresas",
      {
        nome: "",
        cnpj: "",
        endereco: "",
        numero: "",
        bairro: "",
        cidade: "",
        quadroIds: [],
        userAdmin: { nome: "", email: "", cpf: "", dataNascimento: "", telefone: "", password: "123" },
      },
      { token: tokens.principal },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({
      nome: ["Nome obrigatório"],
      cnpj: ["CNPJ obrigatório"],
      endereco: ["Endereço obrigatório"],
      numero: ["Número obrigatório"],
      bairro: ["Bairro obrigatório"],
      cidade: ["Cidade obrigatório"],
      quadroIds: ["É necessário pelo menos um quadro"],
      "userAdmin.nome": ["Nome de usuário obrigatório"],
      "userAdmin.email": ["E-mail obrigatório"],
      "userAdmin.cpf": ["CPF obrigatório"],
      "userAdmin.dataNascimento": ["Data de nascimento obrigatória"],
      "userAdmin.telefone": ["Telefone obrigatório"],
      "userAdmin.password": ["No mínimo 6 dígitos"],
    });
    expect(await counts()).toEqual(before);
  });

  test("invalid values: CNPJ, e-mail, CPF, date, boards outside 1 to 9, a zero user limit", async () => {
    const answer = await t.post(
      "/api/empresas",
      createBody(
        { cnpj: "11.222.333/0001-82", quadroIds: [1, 10], max_number_users: 0 },
        { email: "nao-e-email", cpf: "111.111.111-12", dataNascimento: "31/02/1990" },
      ),
      { token: tokens.principal },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({
      cnpj: ["Esse CNPJ não é válido!"],
      quadroIds: ["Quadro de auditoria inválido"],
      max_number_users: ["Digite um número inteiro de 1 a 100000"],
      "userAdmin.email": ["Digite um email válido"],
      "userAdmin.cpf": ["Esse CPF não é válido!"],
      "userAdmin.dataNascimento": ["A Data de nascimento é inválida!"],
    });
  });

  test("one transaction: an admin e-mail or CPF already taken, or a CNPJ already registered, leaves nothing", async () => {
    const before = await counts();
    const cases: [string, Record<string, unknown>, Record<string, unknown>, Record<string, string[]>][] = [
      ["e-mail", {}, { email: "ADMIN@demo.com.br" }, { "userAdmin.email": ["E-mail já cadastrado"] }],
      ["CPF", {}, { cpf: "98393704561" }, { "userAdmin.cpf": ["CPF já cadastrado"] }],
      ["CNPJ", { cnpj: "95961066080247" }, {}, { cnpj: ["CNPJ já cadastrado"] }],
    ];
    for (const [label, company, admin, fieldErrors] of cases) {
      const body = createBody(company, admin);
      const answer = await t.post("/api/empresas", body, { token: tokens.principal });
      expect(answer.status, label).toBe(409);
      expect(answer.body.fieldErrors, label).toEqual(fieldErrors);
      const written = await t.db.selectFrom("companies").select("id").where("nome", "=", body.nome).execute();
      expect(written, label).toEqual([]);
    }
    expect(await counts()).toEqual(before);
  });

  test("roleId 1 only: every other role is refused with 'Permissão negada!' before the body is read", async () => {
    const before = await counts();
    for (const account of ROLE_ACCOUNTS.filter((name) => name !== "principal")) {
      const answer = await t.post("/api/empresas", createBody(), { token: tokens[account] });
      expect(answer.status, account).toBe(403);
      expect(answer.body.message).toBe("Permissão negada!");
      const invalid = await t.post("/api/empresas", {}, { token: tokens[account] });
      expect(invalid.status, `${account} (empty body)`).toBe(403);
    }
    expect(await counts()).toEqual(before);
    expect((await t.post("/api/empresas", createBody())).status).toBe(401);
  });
});

describe("PUT /api/empresas", () => {
  const updateBody = (id: number, overrides: Record<string, unknown> = {}) => ({
    id,
    nome: "Empresa Editada",
    cnpj: cnpjWithCheckDigits(`7474${next()}0001`),
    endereco: "Av. Editada",
    numero: "99",
    bairro: "Meireles",
    cidade: "Fortaleza",
    ativo: false,
    max_number_users: 80,
    quadroIds: [2, 4],
    ...overrides,
  });

  test("every field, the status and the boards (replaced)", async () => {
    const { company } = await createCompany();
    const body = updateBody(company.ID);
    const answer = await t.put("/api/empresas", body, { token: tokens.principal });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      ID: company.ID,
      NOME: "Empresa Editada",
      CNPJ: body.cnpj,
      ENDERECO: "Av. Editada",
      NUMERO: "99",
      BAIRRO: "Meireles",
      CIDADE: "Fortaleza",
      ATIVO: false,
      max_number_users: 80,
      late_tolerance_minutes: 15,
      quadros: [
        { ID: 2, label: "Atividades em aberto por funcionário" },
        { ID: 4, label: "Atividades que demandam mais tempo" },
      ],
    });
    const boards = await t.get(`/api/empresas/quadros?companyId=${company.ID}`, { token: tokens.principal });
    expect(boards.body.map((board: { ID: number }) => board.ID)).toEqual([2, 4]);
  });

  test("the inspections' board (9, opt-in) is chosen like any other", async () => {
    const { company } = await createCompany();
    const answer = await t.put("/api/empresas", updateBody(company.ID, { quadroIds: [2, 9] }), {
      token: tokens.principal,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.quadros).toEqual([
      { ID: 2, label: "Atividades em aberto por funcionário" },
      { ID: 9, label: "Inspeções: pontuação média" },
    ]);
  });

  test("the messages of the edit, and a user limit below the company's users", async () => {
    const { company } = await createCompany();
    const empty = await t.put(
      "/api/empresas",
      updateBody(company.ID, { nome: "", cidade: " ", max_number_users: "", quadroIds: [] }),
      { token: tokens.principal },
    );
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toEqual({
      nome: ["Nome obrigatório"],
      cidade: ["Cidade obrigatório"],
      max_number_users: ["Número de funcionários é obrigatório"],
      quadroIds: ["É necessário pelo menos um quadro"],
    });
    const hospitalUsers = await t.db
      .selectFrom("users")
      .select(({ fn }) => fn.countAll<string>().as("n"))
      .where("company_id", "=", ids.hospital)
      .where("ativo", "=", 1)
      .executeTakeFirstOrThrow();
    const below = await t.put(
      "/api/empresas",
      updateBody(ids.hospital, {
        nome: "Hospital Boa Saúde",
        cnpj: "95961066080247",
        ativo: true,
        max_number_users: 2,
      }),
      { token: tokens.principal },
    );
    expect(below.status).toBe(400);
    expect(below.body.fieldErrors.max_number_users).toEqual([
      `O número máximo de funcionários não pode ser menor que o de usuários ativos (${hospitalUsers.n})`,
    ]);
    const taken = await t.put("/api/empresas", updateBody(company.ID, { cnpj: "72079477424314" }), {
      token: tokens.principal,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.fieldErrors).toEqual({ cnpj: ["CNPJ já cadastrado"] });
  });

  test("another tenant's company is 404 for everyone (before the role); other roles get 403 on their own", async () => {
    const before = await t.db.selectFrom("companies").selectAll().where("id", "=", ids.other).executeTakeFirst();
    for (const account of ROLE_ACCOUNTS.filter((name) => name !== "outra")) {
      const answer = await t.put("/api/empresas", updateBody(ids.other), { token: tokens[account] });
      expect(answer.status, account).toBe(404);
    }
    expect(await t.db.selectFrom("companies").selectAll().where("id", "=", ids.other).executeTakeFirst()).toEqual(
      before,
    );
    for (const account of ["admin", "auditor", "coordenador", "cliente", "semnivel", "asg"] as const) {
      const answer = await t.put("/api/empresas", updateBody(ids.hospital), { token: tokens[account] });
      expect(answer.status, account).toBe(403);
      expect(answer.body.message).toBe("Permissão negada!");
    }
    const own = await t.put("/api/empresas", updateBody(ids.other), { token: tokens.outra });
    expect(own.status).toBe(403);
  });
});

describe("reads", () => {
  test("GET /empresas/listmatriz: the caller's own company (and those they own or registered)", async () => {
    for (const account of ["admin", "auditor", "coordenador", "cliente"] as const) {
      const answer = await t.get("/api/empresas/listmatriz", { token: tokens[account] });
      expect(answer.status).toBe(200);
      expect(
        answer.body.map((company: { ID: number }) => company.ID),
        account,
      ).toEqual([ids.hospital]);
    }
    const outra = await t.get("/api/empresas/listmatriz", { token: tokens.outra });
    expect(outra.body).toEqual([
      {
        ID: ids.other,
        NOME: "Limpa Bem Serviços",
        CNPJ: "72079477424314",
        ENDERECO: "Av. Santos Dumont",
        NUMERO: "1500",
        BAIRRO: "Aldeota",
        CIDADE: "Recife",
        ATIVO: true,
        max_number_users: 50,
        late_tolerance_minutes: 15,
      },
    ]);
    expect((await t.get("/api/empresas/all", { token: tokens.outra })).body).toEqual(outra.body);
  });

  test("GET /empresas/listmatriz with paging: search by name or CNPJ, sort, page, size", async () => {
    const made = [];
    for (const suffix of ["Gama", "Alfa", "Beta"])
      made.push((await createCompany({ nome: `Rede Ípsilon ${suffix}` })).company);
    const page = await t.get(`/api/empresas/listmatriz?q=${encodeURIComponent("rede ipsilon")}&sort=nome&dir=desc`, {
      token: tokens.principal,
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 1, size: 20 });
    expect(page.body.items.map((c: { NOME: string }) => c.NOME)).toEqual([
      "Rede Ípsilon Gama",
      "Rede Ípsilon Beta",
      "Rede Ípsilon Alfa",
    ]);
    const byCnpj = await t.get(`/api/empresas/listmatriz?q=${punctuatedCnpj(made[1].CNPJ)}`, {
      token: tokens.principal,
    });
    expect(byCnpj.body.items.map((c: { ID: number }) => c.ID)).toEqual([made[1].ID]);
    const none = await t.get("/api/empresas/listmatriz?q=nada-assim&page=1", { token: tokens.principal });
    expect(none.body).toEqual({ items: [], total: 0, page: 1, size: 20 });
    expect((await t.get("/api/empresas/listmatriz?size=3", { token: tokens.principal })).status).toBe(400);
  });

  test("GET /empresas/{companyId}, /empresas/quadros and /quadroPadrao", async () => {
    const own = await t.get(`/api/empresas/${ids.other}`, { token: tokens.outra });
    expect(own.status).toBe(200);
    expect(own.body.quadros.map((board: { ID: number }) => board.ID)).toEqual([1, 2, 8]);
    expect((await t.get(`/api/empresas/${ids.other}`, { token: tokens.principal })).status).toBe(404);
    expect((await t.get("/api/empresas/2147483648", { token: tokens.principal })).status).toBe(400);

    const boards = await t.get("/api/empresas/quadros", { token: tokens.coordenador });
    // The ninth, 'Inspeções: pontuação média', is ours (issue 29); the demo's first company shows it.
    expect(boards.body.map((board: { ID: number }) => board.ID)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await t.get(`/api/empresas/quadros?companyId=${ids.hospital}`, { token: tokens.outra })).status).toBe(404);

    const defaults = await t.get("/api/quadroPadrao", { token: tokens.auditor });
    expect(defaults.body).toHaveLength(9);
    expect(defaults.body[0]).toEqual({ ID: 1, label: "Ambientes" });
    expect(defaults.body[8]).toEqual({ ID: 9, label: "Inspeções: pontuação média" });
    expect((await t.get("/api/quadroPadrao")).status).toBe(401);
  });

  test("the fixed paths are not taken for a company id", async () => {
    expect((await t.get("/api/empresas/filiais", { token: tokens.admin })).body).toEqual(expect.any(Array));
    expect((await t.get("/api/empresas/all", { token: tokens.admin })).status).toBe(200);
    expect((await t.get("/api/empresas/quadros", { token: tokens.admin })).status).toBe(200);
    expect((await t.get("/api/empresas/listmatriz", { token: tokens.admin })).status).toBe(200);
  });
});
