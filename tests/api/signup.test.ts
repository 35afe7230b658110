import { describe, expect, test } from "vitest";

import { verifyPassword } from "../../api/auth/password.ts";
import { DEMO_FREE_CPFS } from "../../api/db/seed.ts";
import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits, withWrongCheckDigit } from "../support/cpf.ts";
import { branchId, COMPANY_A, companyId, countRows, userByEmail } from "../support/demo.ts";

const t = useTestApi();

let serial = 0;
/** A sign-up body that passes every field rule; each call has its own e-mail. */
function signUpBody(overrides: Record<string, unknown> = {}) {
  const email = `pessoa${++serial}@cadastro.com.br`;
  return {
    nome: "Maria das Dores",
    email,
    emailConfirmation: email,
    password: "segredo1",
    dataNascimento: "12/04/1990",
    cpf: DEMO_FREE_CPFS.asg,
    telefone: "(85) 9 9999-0000",
    ...overrides,
  };
}

/** A CPF pre-registered for this test in a demo branch (DEMO_FREE_CPFS are only three). */
async function preRegister(
  nine: string,
  branch = "Filial Aldeota",
  roleId = 5,
  extra: { ativo?: boolean; deleted_at?: Date } = {},
) {
  const cpf = cpfWithCheckDigits(nine);
  await t.db
    .insertInto("pre_registered_cpfs")
    .values({
      company_id: await companyId(t.db, COMPANY_A),
      branch_id: await branchId(t.db, branch),
      cpf,
      role_id: roleId,
      ...extra,
    })
    .execute();
  return cpf;
}

/** Runs a sign-up that must fail and proves nothing was written. */
async function refused(body: Record<string, unknown>) {
  const users = await countRows(t.db, "users");
  const answer = await t.post("/api/users", body);
  expect(await countRows(t.db, "users")).toBe(users);
  return answer;
}

describe("POST /api/users (sign-up)", () => {
  test("a pre-registered coordinator CPF signs up into that branch and role, then signs in", async () => {
    const body = signUpBody({ cpf: "526.153.780-07", nome: "  Carlos Novo  ", telefone: "85999990000" });
    expect(body.cpf.replace(/\D/g, "")).toBe(DEMO_FREE_CPFS.coordenador);
    const answer = await t.post("/api/users", body);
    expect(answer.status).toBe(201);
    const aldeota = await branchId(t.db, "Filial Aldeota");
    expect(answer.body.user).toMatchObject({
      nome: "Carlos Novo",
      email: body.email,
      cpf: DEMO_FREE_CPFS.coordenador,
      telefone: "85999990000",
      dataNascimento: "1990-04-12",
      roleId: 3,
      coordenador: 1,
      ativo: 1,
      companyId: aldeota,
      filialClientId: null,
      nivelAcesso: "Coordenador",
    });
    expect(answer.body.user).not.toHaveProperty("password_hash");

    const row = await t.db.selectFrom("users").selectAll().where("email", "=", body.email).executeTakeFirstOrThrow();
    expect(row.company_id).toBe(await companyId(t.db, COMPANY_A));
    expect(row.branch_id).toBe(aldeota);
    expect(row.password_hash).not.toContain("segredo1");
    expect(await verifyPassword("segredo1", row.password_hash)).toBe(true);

    const session = await t.post("/api/sessions", { email: body.email, password: "segredo1" });
    expect(session.status).toBe(200);
    expect(session.body.nivelAcesso).toBe("Coordenador");
  });

  test("an administrator CPF gets a company-wide account", async () => {
    const body = signUpBody({ cpf: DEMO_FREE_CPFS.admin });
    const answer = await t.post("/api/users", body);
    expect(answer.status).toBe(201);
    const hospital = await companyId(t.db, COMPANY_A);
    expect(answer.body.user).toMatchObject({
      roleId: 2,
      coordenador: null,
      companyId: hospital,
      nivelAcesso: "Administrador",
    });
    const row = await t.db
      .selectFrom("users")
      .select("branch_id")
      .where("email", "=", body.email)
      .executeTakeFirstOrThrow();
    expect(row.branch_id).toBeNull();
    const session = await t.post("/api/sessions", { email: body.email, password: "segredo1" });
    expect(session.body.empresaPrincipal).toEqual([{ Id_Empresas: hospital, NOME: COMPANY_A }]);
  });

  test("an ASG CPF gets an ASG account in its branch", async () => {
    const answer = await t.post("/api/users", signUpBody({ cpf: DEMO_FREE_CPFS.asg }));
    expect(answer.status).toBe(201);
    expect(answer.body.user).toMatchObject({
      roleId: 5,
      coordenador: null,
      companyId: await branchId(t.db, "Filial Aldeota"),
    });
  });

  test("a valid CPF that was not pre-registered answers 400 on the cpf field", async () => {
    const answer = await refused(signUpBody({ cpf: "529.982.247-25" }));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: "CPF não pré-cadastrado. Procure o administrador da sua empresa.",
      fieldErrors: { cpf: ["CPF não pré-cadastrado"] },
    });
  });

  test("an inactive or removed pre-registration does not open sign-up", async () => {
    const inactive = await refused(signUpBody({ cpf: "86675087215" }));
    expect(inactive.status).toBe(400);
    expect(inactive.body.fieldErrors).toEqual({ cpf: ["CPF não pré-cadastrado"] });
    const removed = await preRegister("300100200", "Filial Aldeota", 5, { deleted_at: new Date() });
    expect((await refused(signUpBody({ cpf: removed }))).status).toBe(400);
  });

  test("a CPF with wrong check digits answers 'Esse CPF não é válido!'", async () => {
    const answer = await refused(signUpBody({ cpf: withWrongCheckDigit(DEMO_FREE_CPFS.coordenador) }));
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({ cpf: ["Esse CPF não é válido!"] });
    expect(answer.body.message).toBe("Esse CPF não é válido!");
    expect((await refused(signUpBody({ cpf: "000.000.000-00" }))).body.fieldErrors).toEqual({
      cpf: ["Esse CPF não é válido!"],
    });
    expect((await refused(signUpBody({ cpf: "1234567890" }))).body.fieldErrors).toEqual({
      cpf: ["Esse CPF não é válido!"],
    });
  });

  test("different e-mails answer 'E-mails precisam ser iguais'", async () => {
    const cpf = await preRegister("300100201");
    const answer = await refused(signUpBody({ cpf, emailConfirmation: "outro@cadastro.com.br" }));
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({ emailConfirmation: ["E-mails precisam ser iguais"] });
    // The confirmation is compared the way the e-mail is stored: trimmed and in lower case.
    const body = signUpBody({ cpf });
    expect((await t.post("/api/users", { ...body, emailConfirmation: ` ${body.email.toUpperCase()} ` })).status).toBe(
      201,
    );
  });

  test("an e-mail already in use answers 409, whatever its case", async () => {
    const cpf = await preRegister("300100202");
    const answer = await refused(
      signUpBody({ cpf, email: "Admin@Demo.com.br", emailConfirmation: "admin@demo.com.br" }),
    );
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: "E-mail já cadastrado", fieldErrors: { email: ["E-mail já cadastrado"] } });
    expect(await t.db.selectFrom("users").select("id").where("cpf", "=", cpf).executeTakeFirst()).toBeUndefined();
  });

  test("a CPF that already has an account answers 409", async () => {
    const cpf = await preRegister("300100203");
    expect((await t.post("/api/users", signUpBody({ cpf }))).status).toBe(201);
    const again = await refused(signUpBody({ cpf }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "CPF já cadastrado", fieldErrors: { cpf: ["CPF já cadastrado"] } });
  });

  test("an e-mail or CPF held in another main company answers a text that names nobody (issue 22 item 11)", async () => {
    const outra = await userByEmail(t.db, "outra@demo.com.br");
    const cpf = await preRegister("300100208");
    const email = await refused(
      signUpBody({ cpf, email: "Outra@demo.com.br", emailConfirmation: "outra@demo.com.br" }),
    );
    expect(email.status).toBe(409);
    const emailText = "E-mail indisponível para cadastro. Informe outro e-mail.";
    expect(email.body).toEqual({ message: emailText, fieldErrors: { email: [emailText] } });

    // The other company's administrator's CPF, pre-registered in a branch of ours: the account is elsewhere.
    await t.db
      .insertInto("pre_registered_cpfs")
      .values({
        company_id: await companyId(t.db, COMPANY_A),
        branch_id: await branchId(t.db, "Filial Aldeota"),
        cpf: outra.cpf,
        role_id: 5,
      })
      .execute();
    const taken = await refused(signUpBody({ cpf: outra.cpf }));
    expect(taken.status).toBe(409);
    const cpfText = "CPF indisponível para cadastro. Se o número estiver correto, procure o suporte.";
    expect(taken.body).toEqual({ message: cpfText, fieldErrors: { cpf: [cpfText] } });
  });

  test("a company at its user limit refuses sign-up", async () => {
    const cpf = await preRegister("300100204");
    const hospital = await companyId(t.db, COMPANY_A);
    const { count } = await t.db
      .selectFrom("users")
      .select(({ fn }) => fn.countAll<string>().as("count"))
      .where("company_id", "=", hospital)
      .where("ativo", "=", 1)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable("companies")
      .set({ max_number_users: Number(count) })
      .where("id", "=", hospital)
      .execute();
    try {
      const answer = await refused(signUpBody({ cpf }));
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(
        `A empresa atingiu o número máximo de usuários ativos (${count}). Peça ao Administrador (P) para aumentar o limite.`,
      );
    } finally {
      await t.db.updateTable("companies").set({ max_number_users: 50 }).where("id", "=", hospital).execute();
    }
  });

  test("an inactive main company refuses sign-up", async () => {
    const cpf = await preRegister("300100205");
    const hospital = await companyId(t.db, COMPANY_A);
    await t.db.updateTable("companies").set({ ativo: false }).where("id", "=", hospital).execute();
    try {
      expect((await refused(signUpBody({ cpf }))).status).toBe(400);
    } finally {
      await t.db.updateTable("companies").set({ ativo: true }).where("id", "=", hospital).execute();
    }
  });

  test("an empty form answers every required-field message of spec §5", async () => {
    const answer = await refused({});
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toMatchObject({
      nome: ["Nome obrigatório"],
      email: ["E-mail obrigatório"],
      cpf: ["CPF obrigatório"],
      dataNascimento: ["Data de nascimento obrigatória"],
      telefone: ["Telefone obrigatório"],
      password: ["No mínimo 6 dígitos"],
    });
  });

  test("field rules: e-mail, birth date, phone and password", async () => {
    const cpf = await preRegister("300100206");
    const fieldErrorsOf = async (overrides: Record<string, unknown>) =>
      (await refused(signUpBody({ cpf, ...overrides }))).body.fieldErrors;
    expect(await fieldErrorsOf({ email: "sem-arroba", emailConfirmation: "sem-arroba" })).toMatchObject({
      email: ["Digite um email válido"],
    });
    expect(await fieldErrorsOf({ dataNascimento: "31/02/1990" })).toEqual({
      dataNascimento: ["A Data de nascimento é inválida!"],
    });
    expect(await fieldErrorsOf({ dataNascimento: "31/12/1939" })).toEqual({
      dataNascimento: ["A Data de nascimento é inválida!"],
    });
    expect(await fieldErrorsOf({ telefone: "85 9999" })).toEqual({ telefone: ["Digite um telefone válido"] });
    expect(await fieldErrorsOf({ password: "12345" })).toEqual({ password: ["No mínimo 6 dígitos"] });
    // The earliest year allowed is 1940.
    expect(
      (await t.post("/api/users", signUpBody({ cpf, dataNascimento: "01/01/1940" }))).body.user.dataNascimento,
    ).toBe("1940-01-01");
  });
});
