/**
 * Users of a main company (issue 11, docs/users.md): the list, the create calls per level, the level changes, the
 * seat limit (max_number_users) and the other names, against the API. The role matrix is users-role-matrix.test.ts.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits } from "../support/cpf.ts";
import { COMPANY_A, countRows, demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

let ids: Awaited<ReturnType<typeof demoIds>>;
const tokens: Record<string, string> = {};
let serial = 500_100_000;

/** A valid create body with a fresh e-mail and CPF. */
function person(overrides: Record<string, unknown> = {}) {
  serial += 1;
  return {
    nome: "Maria Nova",
    email: `nova${serial}@usuarios.test`,
    cpf: cpfWithCheckDigits(String(serial)),
    dataNascimento: "12/04/1990",
    telefone: "(85) 9 8888-7777",
    password: "segredo1",
    ...overrides,
  };
}

beforeAll(async () => {
  ids = await demoIds(t.db);
  for (const who of ["admin", "principal", "coordenador", "auditor", "outra"])
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
});

describe("GET /api/allUsers/{companyId}", () => {
  test("lists the company's users with the name of their branch or company", async () => {
    const answer = await t.get(`/api/allUsers/${ids.hospital}`, { token: tokens.admin });
    expect(answer.status).toBe(200);
    const byEmail = new Map(answer.body.map((user: any) => [user.email, user]));
    expect(byEmail.get("asg@demo.com.br")).toMatchObject({
      nome: "Sebastião ASG",
      roleId: 5,
      companyId: ids.aldeota,
      empresa: "Filial Aldeota",
      nivelAcesso: "ASG",
    });
    expect(byEmail.get("admin@demo.com.br")).toMatchObject({ empresa: COMPANY_A, companyId: ids.hospital });
    expect(byEmail.get("cliente@demo.com.br")).toMatchObject({ empresa: "Filial Aldeota", roleId: 7 });
    expect(byEmail.has("outra@demo.com.br")).toBe(false);
    expect(JSON.stringify(answer.body)).not.toMatch(/password|hash/i);
  });

  test("pages, searches name (accents folded), e-mail, CPF digits and companyId, and sorts", async () => {
    const path = `/api/allUsers/${ids.hospital}`;
    const byName = await t.get(`${path}?q=sebastiao`, { token: tokens.admin });
    expect(byName.body.items.map((user: any) => user.email)).toEqual(["asg@demo.com.br"]);
    const byEmail = await t.get(`${path}?q=AUDITOR@demo`, { token: tokens.admin });
    expect(byEmail.body.items.map((user: any) => user.nome)).toEqual(["Augusto Auditor"]);
    const byCpf = await t.get(`${path}?q=407.451`, { token: tokens.admin });
    expect(byCpf.body.items.map((user: any) => user.cpf)).toEqual(["40745185460"]);
    // A number is also a companyId: every user of Filial Messejana is found (and CPFs holding the digits).
    const byCompany = await t.get(`${path}?q=${ids.messejana}&size=0`, { token: tokens.admin });
    const found = byCompany.body.items.map((user: any) => user.email);
    expect(found).toEqual(expect.arrayContaining(["bruno@demo.com.br", "debora@demo.com.br"]));
    expect(
      byCompany.body.items.every(
        (user: any) => user.companyId === ids.messejana || user.cpf.includes(String(ids.messejana)),
      ),
    ).toBe(true);
    const sorted = await t.get(`${path}?sort=nome&dir=desc&size=0`, { token: tokens.admin });
    const names = sorted.body.items.map((user: any) => user.nome);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, "pt-BR", { sensitivity: "base" })));
    const page = await t.get(`${path}?page=1&size=20`, { token: tokens.admin });
    expect(page.body).toMatchObject({ page: 1, size: 20, total: sorted.body.total });
  });

  test("a coordinator sees the users of their branch only; the auditor may not open the list", async () => {
    const own = await t.get(`/api/allUsers/${ids.aldeota}?size=0`, { token: tokens.coordenador });
    expect(own.status).toBe(200);
    const companies = new Set(own.body.items.map((user: any) => user.empresa));
    expect([...companies]).toEqual(["Filial Aldeota"]);
    expect((await t.get(`/api/allUsers/${ids.messejana}`, { token: tokens.coordenador })).status).toBe(404);
    // The main company's id (the session's other companyId) lists the same branch.
    const viaCompany = await t.get(`/api/allUsers/${ids.hospital}?size=0`, { token: tokens.coordenador });
    expect(viaCompany.body.items).toEqual(own.body.items);
    const auditor = await t.get(`/api/allUsers/${ids.hospital}`, { token: tokens.auditor });
    expect(auditor.status).toBe(403);
    expect(auditor.body.message).toBe("Permissão negada!");
  });

  test("another company's id is 404", async () => {
    const answer = await t.get(`/api/allUsers/${ids.other}`, { token: tokens.admin });
    expect(answer.status).toBe(404);
  });
});

describe("POST /api/empresas/{level}: creating users", () => {
  test("an ASG in a branch, a Cliente of a branch, an Administrador and an Auditor of the company", async () => {
    const asg = await t.post(
      "/api/empresas/asg",
      { ...person({ nome: "Ana Nova" }), filiaId: ids.aldeota },
      {
        token: tokens.admin,
      },
    );
    expect(asg.status).toBe(201);
    expect(asg.body).toMatchObject({ nome: "Ana Nova", roleId: 5, companyId: ids.aldeota, ativo: 1 });
    expect(asg.body.telefone).toBe("85988887777");
    expect(asg.body.dataNascimento).toBe("1990-04-12");

    const client = await t.post(
      "/api/empresas/cliente",
      { ...person(), filiaId: ids.messejana },
      {
        token: tokens.admin,
      },
    );
    expect(client.status).toBe(201);
    expect(client.body).toMatchObject({ roleId: 7, filialClientId: ids.messejana, empresa: "Filial Messejana" });

    const body = person();
    const admin = await t.post(
      "/api/empresas/adminLocal",
      { ...body, companyId: ids.hospital },
      {
        token: tokens.principal,
      },
    );
    expect(admin.status).toBe(201);
    expect(admin.body).toMatchObject({ roleId: 2, companyId: ids.hospital, empresa: COMPANY_A });
    // The new administrator signs in with the password given.
    await t.signIn(body.email, body.password);

    const auditor = await t.post(
      "/api/empresas/auditor",
      { ...person(), companyId: ids.hospital },
      {
        token: tokens.admin,
      },
    );
    expect(auditor.body).toMatchObject({ roleId: 4, companyId: ids.hospital });

    const coordinator = await t.post(
      "/api/empresas/coordenador",
      { ...person(), filiaId: ids.aldeota },
      {
        token: tokens.admin,
      },
    );
    expect(coordinator.body).toMatchObject({ roleId: 3, coordenador: 1, nivelAcesso: "Coordenador" });
  });

  test("every field rule in Portuguese, and nothing written", async () => {
    const before = await countRows(t.db, "users");
    const empty = await t.post("/api/empresas/asg", { filiaId: ids.aldeota }, { token: tokens.admin });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toMatchObject({
      nome: ["Nome obrigatório"],
      email: ["E-mail obrigatório"],
      cpf: ["CPF obrigatório"],
      dataNascimento: ["Data de nascimento obrigatória"],
      telefone: ["Telefone obrigatório"],
      password: ["No mínimo 6 dígitos"],
    });
    const bad = await t.post(
      "/api/empresas/asg",
      { ...person({ email: "sem-arroba", cpf: "111.111.111-11", password: "123" }), filiaId: ids.aldeota },
      { token: tokens.admin },
    );
    expect(bad.body.fieldErrors).toMatchObject({
      email: ["Digite um email válido"],
      cpf: ["Esse CPF não é válido!"],
      password: ["No mínimo 6 dígitos"],
    });
    const noBranch = await t.post("/api/empresas/asg", person(), { token: tokens.admin });
    expect(noBranch.status).toBe(400);
    expect(await countRows(t.db, "users")).toBe(before);
  });

  test("an e-mail or CPF already taken is 409; an inactive or foreign branch refused", async () => {
    const taken = await t.post(
      "/api/empresas/asg",
      { ...person({ email: "ASG@demo.com.br" }), filiaId: ids.aldeota },
      { token: tokens.admin },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.fieldErrors).toEqual({ email: ["E-mail já cadastrado"] });
    const cpf = await t.post(
      "/api/empresas/asg",
      { ...person({ cpf: "40745185460" }), filiaId: ids.aldeota },
      { token: tokens.admin },
    );
    expect(cpf.status).toBe(409);
    expect(cpf.body.fieldErrors).toEqual({ cpf: ["CPF já cadastrado"] });
    const inactive = await t.post("/api/empresas/asg", { ...person(), filiaId: ids.caucaia }, { token: tokens.admin });
    expect(inactive.status).toBe(400);
    expect(inactive.body.message).toBe("A filial está inativa");
    const foreign = await t.post("/api/empresas/asg", { ...person(), filiaId: ids.recife }, { token: tokens.admin });
    expect(foreign.status).toBe(404);
    const foreignCompany = await t.post(
      "/api/empresas/auditor",
      { ...person(), companyId: ids.other },
      {
        token: tokens.admin,
      },
    );
    expect(foreignCompany.status).toBe(404);
  });

  test("a coordinator creates Coordenador and ASG in their own branch only", async () => {
    const own = await t.post(
      "/api/empresas/asg",
      { ...person(), filiaId: ids.aldeota },
      {
        token: tokens.coordenador,
      },
    );
    expect(own.status).toBe(201);
    const otherBranch = await t.post(
      "/api/empresas/coordenador",
      { ...person(), filiaId: ids.messejana },
      {
        token: tokens.coordenador,
      },
    );
    expect(otherBranch.status).toBe(404);
    const auditor = await t.post(
      "/api/empresas/auditor",
      { ...person(), companyId: ids.hospital },
      {
        token: tokens.coordenador,
      },
    );
    expect(auditor.status).toBe(403);
    expect(auditor.body.message).toBe("Permissão negada!");
  });
});

describe("max_number_users", () => {
  async function activeUsers() {
    const { count } = await t.db
      .selectFrom("users")
      .select(({ fn }) => fn.countAll<string>().as("count"))
      .where("company_id", "=", ids.hospital)
      .where("ativo", "=", 1)
      .executeTakeFirstOrThrow();
    return Number(count);
  }
  const limitTo = (max: number) =>
    t.db.updateTable("companies").set({ max_number_users: max }).where("id", "=", ids.hospital).execute();

  test("a full company refuses a new user with a clear message; inactivating one frees the seat", async () => {
    const full = await activeUsers();
    await limitTo(full);
    try {
      const before = await countRows(t.db, "users");
      const refused = await t.post(
        "/api/empresas/asg",
        { ...person(), filiaId: ids.aldeota },
        {
          token: tokens.admin,
        },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        `A empresa atingiu o número máximo de usuários ativos (${full}). Peça ao Administrador (P) para aumentar o limite.`,
      );
      expect(await countRows(t.db, "users")).toBe(before);

      // Inactivating Débora frees a seat; reactivating her while the seat is taken again is refused.
      const debora = await userByEmail(t.db, "debora@demo.com.br");
      const edit = (ativo: boolean) =>
        t.put(
          "/api/users",
          { userId: debora.id, nome: debora.nome, telefone: debora.telefone, ativo },
          {
            token: tokens.admin,
          },
        );
      expect((await edit(false)).status).toBe(200);
      const created = await t.post(
        "/api/empresas/asg",
        { ...person(), filiaId: ids.aldeota },
        {
          token: tokens.admin,
        },
      );
      expect(created.status).toBe(201);
      const back = await edit(true);
      expect(back.status).toBe(400);
      expect(back.body.message).toMatch(/^A empresa atingiu o número máximo de usuários ativos/);
      expect((await userByEmail(t.db, "debora@demo.com.br")).ativo).toBe(0);
      await limitTo(full + 1);
      expect((await edit(true)).status).toBe(200);
    } finally {
      await limitTo(1000);
    }
  });
});

describe("POST /api/empresas/transformTo*: changing a user's level", () => {
  let target: { id: number };
  let targetToken: string;

  beforeAll(async () => {
    const body = person({ nome: "Troca Nível" });
    const created = await t.post(
      "/api/empresas/coordenador",
      { ...body, filiaId: ids.aldeota },
      {
        token: tokens.admin,
      },
    );
    target = created.body;
    targetToken = await t.signIn(body.email, body.password);
  });

  test("to ASG, to Auditor and back to Coordenador; the user's sessions end", async () => {
    const asg = await t.post(
      "/api/empresas/transformToASG",
      { userId: target.id, filialId: ids.messejana },
      {
        token: tokens.admin,
      },
    );
    expect(asg.status).toBe(200);
    expect(asg.body).toMatchObject({ roleId: 5, coordenador: null, companyId: ids.messejana });
    expect((await t.get("/api/users/me", { token: targetToken })).status).toBe(401);

    const auditor = await t.post(
      "/api/empresas/transformToAuditor",
      { userId: target.id, companyId: ids.hospital },
      {
        token: tokens.admin,
      },
    );
    expect(auditor.body).toMatchObject({ roleId: 4, companyId: ids.hospital, empresa: COMPANY_A });
    const row = await t.db.selectFrom("users").selectAll().where("id", "=", target.id).executeTakeFirstOrThrow();
    expect(row.branch_id).toBeNull();

    const admin = await t.post(
      "/api/empresas/transformToAdminLocal",
      { userId: target.id, companyId: ids.hospital },
      { token: tokens.admin },
    );
    expect(admin.body).toMatchObject({ roleId: 2, nivelAcesso: "Administrador" });
    const back = await t.post(
      "/api/empresas/transformToCoordenador",
      { userId: target.id, filialId: ids.aldeota },
      { token: tokens.admin },
    );
    expect(back.body).toMatchObject({ roleId: 3, coordenador: 1, companyId: ids.aldeota });
  });

  test("not one's own level, not a level the caller may not give, not outside the scope", async () => {
    const admin = await userByEmail(t.db, "admin@demo.com.br");
    const own = await t.post(
      "/api/empresas/transformToAuditor",
      { userId: admin.id, companyId: ids.hospital },
      {
        token: tokens.admin,
      },
    );
    expect(own.status).toBe(400);
    expect(own.body.message).toBe("Você não pode alterar o próprio nível de acesso");

    const coordinatorGives = await t.post(
      "/api/empresas/transformToAuditor",
      { userId: target.id, companyId: ids.hospital },
      { token: tokens.coordenador },
    );
    expect(coordinatorGives.status).toBe(403);

    const owner = await userByEmail(t.db, "principal@demo.com.br");
    const onOwner = await t.post(
      "/api/empresas/transformToASG",
      { userId: owner.id, filialId: ids.aldeota },
      {
        token: tokens.admin,
      },
    );
    expect(onOwner.status).toBe(403);
    expect((await userByEmail(t.db, "principal@demo.com.br")).role_id).toBe(1);

    const foreignBranch = await t.post(
      "/api/empresas/transformToASG",
      { userId: target.id, filialId: ids.recife },
      {
        token: tokens.admin,
      },
    );
    expect(foreignBranch.status).toBe(404);
    const foreignUser = await userByEmail(t.db, "outra@demo.com.br");
    const other = await t.post(
      "/api/empresas/transformToASG",
      { userId: foreignUser.id, filialId: ids.aldeota },
      {
        token: tokens.admin,
      },
    );
    expect(other.status).toBe(404);
    expect((await userByEmail(t.db, "outra@demo.com.br")).role_id).toBe(2);
  });
});

describe("/api/nameUser: the other names of a user", () => {
  test("list, create, rename and remove; sorted; rules in Portuguese", async () => {
    const asg = await userByEmail(t.db, "asg@demo.com.br");
    const created = await t.post("/api/nameUser", { userId: asg.id, name: "  Tião  " }, { token: tokens.admin });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: "Tião", tb_UsersId: asg.id });
    await t.post("/api/nameUser", { userId: asg.id, name: "Bastião" }, { token: tokens.admin });
    const list = await t.get(`/api/nameUser?userId=${asg.id}`, { token: tokens.coordenador });
    expect(list.body.map((name: any) => name.name)).toEqual(["Bastião", "Seu Sebastião", "Tião"]);

    const twice = await t.post("/api/nameUser", { userId: asg.id, name: "tião" }, { token: tokens.admin });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("Este nome já está cadastrado para o usuário");
    const blank = await t.post("/api/nameUser", { userId: asg.id, name: " " }, { token: tokens.admin });
    expect(blank.body.fieldErrors).toEqual({ name: ["Nome obrigatório"] });

    const renamed = await t.put("/api/nameUser", { id: created.body.id, name: "Sebá" }, { token: tokens.coordenador });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Sebá");
    const removed = await t.delete(`/api/nameUser/${created.body.id}`, { token: tokens.admin });
    expect(removed.status).toBe(204);
    const after = await t.get(`/api/nameUser?userId=${asg.id}`, { token: tokens.admin });
    expect(after.body.map((name: any) => name.name)).toEqual(["Bastião", "Seu Sebastião"]);
  });

  test("names follow the user's scope; another tenant's or branch's user or name is 404", async () => {
    const admin = await userByEmail(t.db, "admin@demo.com.br");
    // The administrator is company-wide, outside the coordinator's branch (the 403 cases are in the role matrix).
    const byCoordinator = await t.post(
      "/api/nameUser",
      { userId: admin.id, name: "Toninho" },
      {
        token: tokens.coordenador,
      },
    );
    expect(byCoordinator.status).toBe(404);
    const own = await t.post("/api/nameUser", { userId: admin.id, name: "Toninho" }, { token: tokens.admin });
    expect(own.status).toBe(201);
    expect((await t.get(`/api/nameUser?userId=${admin.id}`, { token: tokens.outra })).status).toBe(404);
    expect((await t.delete(`/api/nameUser/${own.body.id}`, { token: tokens.outra })).status).toBe(404);
    expect((await t.put("/api/nameUser", { id: own.body.id, name: "X" }, { token: tokens.outra })).status).toBe(404);
    expect((await t.delete(`/api/nameUser/${own.body.id}`, { token: tokens.coordenador })).status).toBe(404);
    expect(await t.db.selectFrom("user_names").select("name").where("id", "=", own.body.id).executeTakeFirst()).toEqual(
      { name: "Toninho" },
    );
  });
});

describe("one scope for every user call (issue 22 item 7)", () => {
  test("a coordinator reaches their branch's client on every call, another branch's client on none", async () => {
    const create = (filiaId: number) =>
      t.post("/api/empresas/cliente", { ...person({ nome: "Cliente do Escopo" }), filiaId }, { token: tokens.admin });
    const own = (await create(ids.aldeota)).body;
    const other = (await create(ids.messejana)).body;
    expect([own.roleId, own.filialClientId, other.filialClientId]).toEqual([7, ids.aldeota, ids.messejana]);
    const row = (id: number) =>
      t.db
        .selectFrom("users")
        .select(["nome", "telefone", "role_id", "branch_id", "filial_client_id"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    const calls = (id: number) => ({
      list: () => t.get(`/api/allUsers/${ids.aldeota}`, { token: tokens.coordenador }),
      names: () => t.get(`/api/nameUser?userId=${id}`, { token: tokens.coordenador }),
      name: () => t.post("/api/nameUser", { userId: id, name: "Cliente Apelidado" }, { token: tokens.coordenador }),
      edit: () =>
        t.put(
          "/api/users",
          { userId: id, nome: "Cliente Renomeado", telefone: "85977776666", ativo: true },
          { token: tokens.coordenador },
        ),
      level: () =>
        t.post("/api/empresas/transformToASG", { userId: id, filialId: ids.aldeota }, { token: tokens.coordenador }),
    });

    const reach = calls(own.id);
    expect((await reach.list()).body.map((user: any) => user.id)).toContain(own.id);
    expect((await reach.names()).status).toBe(200);
    const named = await reach.name();
    expect(named.status).toBe(201);
    expect(named.body).toEqual({ id: expect.any(Number), name: "Cliente Apelidado", tb_UsersId: own.id });
    const edited = await reach.edit();
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.user).toMatchObject({ id: own.id, nome: "Cliente Renomeado", telefone: "85977776666" });
    expect(await row(own.id)).toMatchObject({ nome: "Cliente Renomeado", telefone: "85977776666", role_id: 7 });
    const moved = await reach.level();
    expect(moved.status).toBe(200);
    expect(await row(own.id)).toMatchObject({ role_id: 5, branch_id: ids.aldeota, filial_client_id: null });

    const away = calls(other.id);
    const before = await row(other.id);
    expect((await away.list()).body.map((user: any) => user.id)).not.toContain(other.id);
    for (const call of [away.names, away.name, away.edit, away.level]) {
      const answer = await call();
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe("Usuário não encontrado");
    }
    expect(await row(other.id)).toEqual(before);
    const names = await t.db.selectFrom("user_names").select("id").where("user_id", "=", other.id).execute();
    expect(names).toEqual([]);
  });
});

describe("one's own names for those who may not open the users page (issue 22 item 8)", () => {
  test.each(["auditor", "cliente"])(
    "the %s adds, lists, renames and removes their own names; another user's are 403",
    async (who) => {
      const token = await t.signIn(`${who}@demo.com.br`);
      const me = await userByEmail(t.db, `${who}@demo.com.br`);
      const nameRow = (id: number) =>
        t.db.selectFrom("user_names").select(["name", "user_id"]).where("id", "=", id).executeTakeFirst();

      const created = await t.post("/api/nameUser", { userId: me.id, name: `  Apelido ${who}  ` }, { token });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), name: `Apelido ${who}`, tb_UsersId: me.id });
      expect(await nameRow(created.body.id)).toEqual({ name: `Apelido ${who}`, user_id: me.id });
      const listed = await t.get(`/api/nameUser?userId=${me.id}`, { token });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([created.body]);
      const renamed = await t.put("/api/nameUser", { id: created.body.id, name: `Outro ${who}` }, { token });
      expect(renamed.status).toBe(200);
      expect(await nameRow(created.body.id)).toEqual({ name: `Outro ${who}`, user_id: me.id });

      // Sebastião (ASG of Filial Aldeota) is in both callers' scope: the role table still refuses him.
      const asg = await userByEmail(t.db, "asg@demo.com.br");
      const asgName = await t.db
        .selectFrom("user_names")
        .select("id")
        .where("user_id", "=", asg.id)
        .executeTakeFirstOrThrow();
      const asgNames = () =>
        t.db.selectFrom("user_names").select(["id", "name"]).where("user_id", "=", asg.id).execute();
      const before = await asgNames();
      const refused = [
        await t.post("/api/nameUser", { userId: asg.id, name: "Invasor" }, { token }),
        await t.get(`/api/nameUser?userId=${asg.id}`, { token }),
        await t.put("/api/nameUser", { id: asgName.id, name: "Invasor" }, { token }),
        await t.delete(`/api/nameUser/${asgName.id}`, { token }),
      ];
      for (const answer of refused) {
        expect(answer.status).toBe(403);
        expect(answer.body.message).toBe("Permissão negada!");
      }
      expect(await asgNames()).toEqual(before);

      expect((await t.delete(`/api/nameUser/${created.body.id}`, { token })).status).toBe(204);
      expect(await nameRow(created.body.id)).toBeUndefined();
    },
  );
});

describe("an e-mail or CPF held by another main company (issue 22 item 11)", () => {
  const EMAIL_UNAVAILABLE = "E-mail indisponível para cadastro. Informe outro e-mail.";
  const CPF_UNAVAILABLE = "CPF indisponível para cadastro. Se o número estiver correto, procure o suporte.";

  test("the own company's is named; another company's answers a text that names nobody; nothing is written", async () => {
    const asg = await userByEmail(t.db, "asg@demo.com.br");
    const outra = await userByEmail(t.db, "outra@demo.com.br");
    const before = await countRows(t.db, "users");
    const create = async (overrides: Record<string, unknown>, token = tokens.admin, filiaId = ids.aldeota) => {
      const answer = await t.post("/api/empresas/asg", { ...person(overrides), filiaId }, { token });
      expect(answer.status).toBe(409);
      return answer.body;
    };

    expect(await create({ email: "ASG@demo.com.br" })).toEqual({
      message: "E-mail já cadastrado",
      fieldErrors: { email: ["E-mail já cadastrado"] },
    });
    expect(await create({ cpf: asg.cpf })).toEqual({
      message: "CPF já cadastrado",
      fieldErrors: { cpf: ["CPF já cadastrado"] },
    });
    expect(await create({ email: "Outra@Demo.com.br" })).toEqual({
      message: EMAIL_UNAVAILABLE,
      fieldErrors: { email: [EMAIL_UNAVAILABLE] },
    });
    expect(await create({ cpf: outra.cpf })).toEqual({
      message: CPF_UNAVAILABLE,
      fieldErrors: { cpf: [CPF_UNAVAILABLE] },
    });
    // The other company's administrator learns no more about ours.
    expect(await create({ cpf: asg.cpf }, tokens.outra, ids.recife)).toEqual({
      message: CPF_UNAVAILABLE,
      fieldErrors: { cpf: [CPF_UNAVAILABLE] },
    });
    expect(await countRows(t.db, "users")).toBe(before);
  });
});
