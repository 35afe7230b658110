/**
 * Pre-registered CPFs, spec 000 §2 'Pre-registered CPFs', §3, §4 (active, inactive, removed), §5 'Pre-registered
 * CPFs', §6 (who may write, the levels each role may give), §7 (GET empresas/funcionarios/{companyId}, POST
 * empresas/saveFuncionarios, PUT empresas/ativaInativaDeleteFuncionarios), §8; docs/organisation.md. Cross-tenant
 * 404s are in tests/api/tenancy.test.ts.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { DEMO_FREE_CPFS } from "../../api/db/seed.ts";
import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits, withWrongCheckDigit } from "../support/cpf.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const ROLE_ACCOUNTS = ["principal", "admin", "coordenador", "auditor", "asg", "cliente", "semnivel", "outra"] as const;
const tokens = {} as Record<(typeof ROLE_ACCOUNTS)[number], string>;
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };

const SAVE = "/api/empresas/saveFuncionarios";
const STATUS = "/api/empresas/ativaInativaDeleteFuncionarios";
const list = (companyId = ids.hospital, query = "") => `/api/empresas/funcionarios/${companyId}${query}`;

let serial = 0;
/** A fresh valid CPF per call. */
const newCpf = () => cpfWithCheckDigits(`55${String(++serial).padStart(7, "0")}`);
const punctuated = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

type Row = { ID: number; CPF: string; CNPJ: string; NOME_FILIAL: string; ATIVO: boolean; roleId: number | null };

const rowOf = (cpf: string) =>
  t.db.selectFrom("pre_registered_cpfs").selectAll().where("cpf", "=", cpf).orderBy("id", "desc").executeTakeFirst();

beforeAll(async () => {
  for (const account of ROLE_ACCOUNTS) {
    if (account === "asg") continue; // blocked on the web (spec 000 §6): no session to try with
    tokens[account] = await t.signIn(`${account}@demo.com.br`);
  }
  Object.assign(ids, await demoIds(t.db));
});

async function save(overrides: Record<string, unknown> = {}, token = tokens.admin) {
  return t.post(
    SAVE,
    { cpf: newCpf(), idEmpresa: ids.hospital, idEmpresaFilial: ids.aldeota, roleId: 5, ...overrides },
    { token },
  );
}

async function created(overrides: Record<string, unknown> = {}, token = tokens.admin) {
  const answer = await save(overrides, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Row;
}

describe("POST /api/empresas/saveFuncionarios", () => {
  test("an administrator pre-registers a CPF (mask accepted, digits stored) in a branch with a level", async () => {
    const cpf = newCpf();
    const answer = await save({ cpf: punctuated(cpf), idEmpresaFilial: ids.messejana, roleId: "3" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({
      ID: expect.any(Number),
      CPF: cpf,
      CNPJ: expect.stringMatching(/^\d{14}$/),
      NOME_FILIAL: "Filial Messejana",
      ATIVO: true,
      roleId: 3,
      Id_Empresas: ids.hospital,
      idEmpresaFilial: ids.messejana,
    });
    expect(await rowOf(cpf)).toMatchObject({ company_id: ids.hospital, branch_id: ids.messejana, ativo: true });
  });

  test("every level of §3 (2, 3, 4, 5) is given by roles 1 and 2", async () => {
    for (const roleId of [2, 3, 4, 5]) {
      expect((await created({ roleId }, tokens.principal)).roleId).toBe(roleId);
      expect((await created({ roleId }, tokens.admin)).roleId).toBe(roleId);
    }
  });

  test("spec 000 §5's messages, letter for letter", async () => {
    const messages = async (cpf: unknown) => (await save({ cpf })).body.fieldErrors?.cpf;
    expect(await messages("")).toEqual(["CPF do usuário é obrigatório"]);
    expect(await messages(undefined)).toEqual(["CPF do usuário é obrigatório"]);
    expect(await messages("123.456.789")).toEqual(["Favor inserir um CPF válido"]);
    expect(await messages("123456789012")).toEqual(["Favor inserir um CPF válido"]);
    expect(await messages(withWrongCheckDigit(newCpf()))).toEqual(["Esse CPF não é válido!"]);
    const noLevel = await save({ roleId: "" });
    expect(noLevel.status).toBe(400);
    expect(noLevel.body.fieldErrors.roleId).toEqual(["Nível de acesso é obrigatório"]);
    expect((await save({ roleId: 1 })).status).toBe(400);
    expect((await save({ roleId: 7 })).status).toBe(400);
  });

  test("a CPF already pre-registered (active or not) or already a user's is refused; a removed one may return", async () => {
    const cpf = newCpf();
    await created({ cpf });
    const again = await save({ cpf: punctuated(cpf), idEmpresaFilial: ids.matriz });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      message: "CPF já pré-cadastrado",
      fieldErrors: { cpf: ["CPF já pré-cadastrado"] },
    });
    // Another tenant cannot take it either: sign-up finds one invitation per CPF.
    const other = await save({ cpf, idEmpresa: ids.other, idEmpresaFilial: ids.recife }, tokens.outra);
    expect(other.status).toBe(409);
    expect((await t.put(STATUS, { acao: ["1"], cpf: [cpf] }, { token: tokens.admin })).status).toBe(200);
    expect((await save({ cpf })).status).toBe(409);
    expect((await t.put(STATUS, { acao: ["2"], cpf: [cpf] }, { token: tokens.admin })).status).toBe(200);
    expect((await save({ cpf })).status).toBe(201);

    const user = await userByEmail(t.db, "coordenador@demo.com.br");
    const taken = await save({ cpf: user.cpf });
    expect(taken.status).toBe(409);
    expect(taken.body.fieldErrors.cpf).toEqual(["Já existe um usuário cadastrado com este CPF"]);
  });

  test("another main company's pre-registration or user answers one text that names nobody (issue 22 item 11)", async () => {
    const neutral = "CPF indisponível para cadastro. Se o número estiver correto, procure o suporte.";
    const refusal = async (
      cpf: string,
      token = tokens.admin,
      place = { idEmpresa: ids.hospital, idEmpresaFilial: ids.aldeota },
    ) => {
      const answer = await save({ cpf, ...place }, token);
      expect(answer.status).toBe(409);
      return answer.body;
    };
    const ours = (await created()).CPF;
    const coordinator = await userByEmail(t.db, "coordenador@demo.com.br");
    const theirs = (await created({ idEmpresa: ids.other, idEmpresaFilial: ids.recife }, tokens.outra)).CPF;
    const theirUser = await userByEmail(t.db, "outra@demo.com.br");

    // The own company's: the precise texts.
    expect(await refusal(ours)).toEqual({
      message: "CPF já pré-cadastrado",
      fieldErrors: { cpf: ["CPF já pré-cadastrado"] },
    });
    expect(await refusal(coordinator.cpf)).toEqual({
      message: "Já existe um usuário cadastrado com este CPF",
      fieldErrors: { cpf: ["Já existe um usuário cadastrado com este CPF"] },
    });
    // Another company's invitation and another company's account: the same text, from either side.
    for (const cpf of [theirs, theirUser.cpf])
      expect(await refusal(cpf)).toEqual({ message: neutral, fieldErrors: { cpf: [neutral] } });
    const fromThere = { idEmpresa: ids.other, idEmpresaFilial: ids.recife };
    for (const cpf of [ours, coordinator.cpf])
      expect(await refusal(cpf, tokens.outra, fromThere)).toEqual({
        message: neutral,
        fieldErrors: { cpf: [neutral] },
      });

    const rows = await t.db
      .selectFrom("pre_registered_cpfs")
      .select(["cpf", "company_id"])
      .where("cpf", "in", [ours, theirs, coordinator.cpf, theirUser.cpf])
      .where("deleted_at", "is", null)
      .orderBy("company_id")
      .execute();
    expect(rows).toEqual([
      { cpf: ours, company_id: ids.hospital },
      { cpf: theirs, company_id: ids.other },
    ]);
  });

  test("the contract's payload without roleId pre-registers an ASG; a level sent empty is still refused (issue 22 item 13)", async () => {
    const cpf = newCpf();
    const answer = await t.post(
      SAVE,
      { cpf, idEmpresa: ids.hospital, idEmpresaFilial: ids.aldeota },
      { token: tokens.admin },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ CPF: cpf, roleId: 5, Id_Empresas: ids.hospital, idEmpresaFilial: ids.aldeota });
    expect(await rowOf(cpf)).toMatchObject({
      role_id: 5,
      company_id: ids.hospital,
      branch_id: ids.aldeota,
      ativo: true,
    });
    for (const roleId of ["", null]) {
      const other = newCpf();
      const refused = await save({ cpf: other, roleId });
      expect(refused.status).toBe(400);
      expect(refused.body.fieldErrors).toEqual({ roleId: ["Nível de acesso é obrigatório"] });
      expect(await rowOf(other)).toBeUndefined();
    }
  });

  test("roles: only 1 and 2 write; 3, no role, 4 and 7 are refused with 'Permissão negada!' and nothing is written", async () => {
    for (const account of ["coordenador", "semnivel", "auditor", "cliente"] as const) {
      const cpf = newCpf();
      const answer = await save({ cpf }, tokens[account]);
      expect(answer.status, account).toBe(403);
      expect(answer.body.message).toBe("Permissão negada!");
      expect(await rowOf(cpf)).toBeUndefined();
    }
  });

  test("the branch must be an active one of the caller's company; the company the caller's", async () => {
    const inactive = await save({ idEmpresaFilial: ids.caucaia });
    expect(inactive.status).toBe(400);
    expect(inactive.body.message).toBe("A filial está inativa");
    expect((await save({ idEmpresaFilial: ids.recife })).status).toBe(404);
    expect((await save({ idEmpresa: ids.other })).status).toBe(404);
    expect((await save({ idEmpresaFilial: 999_999 })).status).toBe(404);
  });
});

describe("GET /api/empresas/funcionarios/{companyId}", () => {
  test("the company's pre-registered CPFs with CPF, CNPJ, branch name and status; removed ones left out", async () => {
    const answer = await t.get(list(), { token: tokens.admin });
    expect(answer.status).toBe(200);
    const rows = answer.body as Row[];
    expect(rows.map((row) => row.CPF)).toEqual(expect.arrayContaining([DEMO_FREE_CPFS.asg, "86675087215"]));
    expect(rows.find((row) => row.CPF === "86675087215")).toMatchObject({
      ATIVO: false,
      NOME_FILIAL: "Filial Messejana",
    });
    const removed = await created();
    await t.put(STATUS, { acao: ["2"], cpf: [removed.CPF] }, { token: tokens.admin });
    const after = (await t.get(list(), { token: tokens.admin })).body as Row[];
    expect(after.map((row) => row.CPF)).not.toContain(removed.CPF);
  });

  test("a branch-level user sees their branch's only; auditors and clients may not open the list", async () => {
    const rows = (await t.get(list(), { token: tokens.coordenador })).body as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.NOME_FILIAL))).toEqual(new Set(["Filial Aldeota"]));
    // Their session's companyId is their branch (spec 000 §3 User.companyId): the same list.
    expect((await t.get(list(ids.aldeota), { token: tokens.coordenador })).body).toEqual(rows);
    expect((await t.get(list(ids.messejana), { token: tokens.coordenador })).status).toBe(404);
    expect((await t.get(list(), { token: tokens.semnivel })).status).toBe(200);
    expect((await t.get(list(), { token: tokens.auditor })).status).toBe(403);
    expect((await t.get(list(), { token: tokens.cliente })).status).toBe(403);
    expect((await t.get(list(ids.other), { token: tokens.admin })).status).toBe(404);
  });

  test("search (CPF digits or punctuated, CNPJ, branch name without accents), sort, page and size", async () => {
    const a = await created({ idEmpresaFilial: ids.matriz });
    const paged = await t.get(list(ids.hospital, `?q=${encodeURIComponent(punctuated(a.CPF).slice(0, 9))}`), {
      token: tokens.admin,
    });
    expect(paged.status).toBe(200);
    expect(paged.body.items.map((row: Row) => row.CPF)).toContain(a.CPF);
    const byBranch = await t.get(list(ids.hospital, "?q=MESSEJANA&size=0"), { token: tokens.admin });
    expect(byBranch.body.items.length).toBeGreaterThan(0);
    expect(byBranch.body.items.every((row: Row) => row.NOME_FILIAL === "Filial Messejana")).toBe(true);
    const byCnpj = await t.get(list(ids.hospital, `?q=${a.CNPJ.slice(0, 8)}&size=0`), { token: tokens.admin });
    expect(byCnpj.body.items.every((row: Row) => row.CNPJ.startsWith(a.CNPJ.slice(0, 8)))).toBe(true);

    const all = await t.get(list(ids.hospital, "?size=0&sort=cpf&dir=desc"), { token: tokens.admin });
    const cpfs = all.body.items.map((row: Row) => row.CPF);
    expect(cpfs).toEqual([...cpfs].sort().reverse());
    expect(all.body.total).toBe(cpfs.length);
    const byStatus = await t.get(list(ids.hospital, "?size=0&sort=status"), { token: tokens.admin });
    expect(byStatus.body.items[0].ATIVO).toBe(false);
    const page2 = await t.get(list(ids.hospital, "?size=20&page=2&sort=cpf"), { token: tokens.admin });
    expect(page2.body).toMatchObject({ page: 2, size: 20, total: cpfs.length });
    expect(page2.body.items.map((row: Row) => row.CPF)).toEqual([...cpfs].sort().slice(20, 40));
    expect((await t.get(list(ids.hospital, "?size=7"), { token: tokens.admin })).status).toBe(400);
  });
});

describe("PUT /api/empresas/ativaInativaDeleteFuncionarios", () => {
  test("codes 1 inactivate, 3 activate, 2 remove, all the ticked CPFs at once", async () => {
    const a = await created();
    const b = await created();
    const changed = await t.put(STATUS, { acao: ["1"], cpf: [a.CPF, punctuated(b.CPF)] }, { token: tokens.admin });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toEqual({ updated: 2 });
    expect(await rowOf(a.CPF)).toMatchObject({ ativo: false, deleted_at: null });
    expect(await rowOf(b.CPF)).toMatchObject({ ativo: false });
    await t.put(STATUS, { acao: ["3"], cpf: [a.CPF] }, { token: tokens.principal });
    expect(await rowOf(a.CPF)).toMatchObject({ ativo: true });
    // One code per CPF, in order.
    await t.put(STATUS, { acao: ["3", "2"], cpf: [b.CPF, a.CPF] }, { token: tokens.admin });
    expect(await rowOf(b.CPF)).toMatchObject({ ativo: true, deleted_at: null });
    expect((await rowOf(a.CPF))?.deleted_at).toBeInstanceOf(Date);
  });

  test("nothing selected: 'Favor selecionar pelo menos um registro'; bad codes refused", async () => {
    const empty = await t.put(STATUS, { acao: ["1"], cpf: [] }, { token: tokens.admin });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Favor selecionar pelo menos um registro");
    const a = await created();
    for (const acao of [["4"], [], ["1", "3", "2"], [1]]) {
      const answer = await t.put(STATUS, { acao, cpf: [a.CPF] }, { token: tokens.admin });
      expect(answer.status, JSON.stringify(acao)).toBe(400);
    }
    const conflicting = await t.put(STATUS, { acao: ["1", "3"], cpf: [a.CPF, a.CPF] }, { token: tokens.admin });
    expect(conflicting.status).toBe(400);
    expect(await rowOf(a.CPF)).toMatchObject({ ativo: true });
  });

  test("the administrator cannot change their own CPF's status: 'O usuário ADMINISTRADOR não pode alterar o PRÓPRIO status'", async () => {
    const admin = await userByEmail(t.db, "admin@demo.com.br");
    // The invitation an administrator signed up with stays in the list.
    await t.db
      .insertInto("pre_registered_cpfs")
      .values({ company_id: ids.hospital, branch_id: ids.matriz, cpf: admin.cpf, role_id: 2 })
      .execute();
    const other = await created();
    for (const acao of ["1", "2", "3"]) {
      const answer = await t.put(STATUS, { acao: [acao], cpf: [other.CPF, admin.cpf] }, { token: tokens.admin });
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe("O usuário ADMINISTRADOR não pode alterar o PRÓPRIO status");
    }
    expect(await rowOf(admin.cpf)).toMatchObject({ ativo: true, deleted_at: null });
    expect(await rowOf(other.CPF)).toMatchObject({ ativo: true });
    // Another administrator may.
    expect((await t.put(STATUS, { acao: ["1"], cpf: [admin.cpf] }, { token: tokens.principal })).status).toBe(200);
    expect(await rowOf(admin.cpf)).toMatchObject({ ativo: false });
  });

  test("all or nothing: one CPF outside the scope (another tenant's, removed, unknown) is 404 and nothing changes", async () => {
    const a = await created();
    const foreign = await created({ idEmpresa: ids.other, idEmpresaFilial: ids.recife }, tokens.outra);
    const removed = await created();
    await t.put(STATUS, { acao: ["2"], cpf: [removed.CPF] }, { token: tokens.admin });
    for (const cpf of [foreign.CPF, removed.CPF, newCpf()]) {
      const answer = await t.put(STATUS, { acao: ["1"], cpf: [a.CPF, cpf] }, { token: tokens.admin });
      expect(answer.status).toBe(404);
      expect(await rowOf(a.CPF)).toMatchObject({ ativo: true });
    }
    expect(await rowOf(foreign.CPF)).toMatchObject({ ativo: true, deleted_at: null });
  });

  test("roles: branch-level users, auditors and clients are refused", async () => {
    const a = await created();
    for (const account of ["coordenador", "semnivel", "auditor", "cliente"] as const) {
      const answer = await t.put(STATUS, { acao: ["1"], cpf: [a.CPF] }, { token: tokens[account] });
      expect(answer.status, account).toBe(403);
      expect(answer.body.message).toBe("Permissão negada!");
    }
    expect(await rowOf(a.CPF)).toMatchObject({ ativo: true });
  });
});

describe("sign-up accepts only an active pre-registered CPF (spec 000 §4)", () => {
  const signUp = (cpf: string, email: string) =>
    t.post("/api/users", {
      nome: "Pessoa Pré-cadastrada",
      email,
      emailConfirmation: email,
      password: "segredo1",
      dataNascimento: "12/04/1990",
      cpf,
      telefone: "(85) 9 9999-0000",
    });

  test("inactivated: refused with the sign-up message; activated again: accepted with the branch and level", async () => {
    const a = await created({ roleId: 3, idEmpresaFilial: ids.messejana });
    await t.put(STATUS, { acao: ["1"], cpf: [a.CPF] }, { token: tokens.admin });
    const refused = await signUp(a.CPF, "inativo@cadastro.com.br");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: "CPF não pré-cadastrado. Procure o administrador da sua empresa.",
      fieldErrors: { cpf: ["CPF não pré-cadastrado"] },
    });
    await t.put(STATUS, { acao: ["3"], cpf: [a.CPF] }, { token: tokens.admin });
    const accepted = await signUp(a.CPF, "ativo@cadastro.com.br");
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const user = await userByEmail(t.db, "ativo@cadastro.com.br");
    expect(user).toMatchObject({ company_id: ids.hospital, branch_id: ids.messejana, role_id: 3 });
  });

  test("removed: refused; never pre-registered: refused", async () => {
    const a = await created();
    await t.put(STATUS, { acao: ["2"], cpf: [a.CPF] }, { token: tokens.admin });
    expect((await signUp(a.CPF, "removido@cadastro.com.br")).status).toBe(400);
    expect((await signUp(newCpf(), "nunca@cadastro.com.br")).status).toBe(400);
  });
});
