/**
 * `npm run create-owner` (api/db/create-owner-cli.ts) on an empty embedded database: what it writes, the form's
 * messages for bad values with nothing written, and the refusal once a company exists. The command run as a process,
 * its exit codes and the hidden password are in production-start.test.ts.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { verifyPassword } from "../../api/auth/password.ts";
import { openDatabase, type Database } from "../../api/db/connection.ts";
import { createOwner, type OwnerIo } from "../../api/db/create-owner-cli.ts";
import { migrate } from "../../api/db/migrate.ts";
import { OWNER_EXISTS } from "../../api/services/companies.ts";

const FLAGS = {
  company: "Limpa Tudo Ltda",
  cnpj: "11.222.333/0001-81",
  address: "Rua das Flores",
  number: "10",
  district: "Centro",
  city: "Fortaleza",
  name: "Maria Dona",
  email: "Maria@LimpaTudo.com.br",
  cpf: "529.982.247-25",
  "birth-date": "10/05/1980",
  phone: "(85) 9 8888-7777",
};
const argv = (flags: Record<string, string>) => Object.entries(flags).map(([flag, value]) => `--${flag}=${value}`);

function io(password: string, answers: Record<string, string> = {}) {
  const lines: string[] = [];
  const asked: string[] = [];
  const terminal: OwnerIo = {
    ask: async (prompt) => (asked.push(prompt), answers[prompt] ?? ""),
    password: async () => password,
    out: (line) => lines.push(line),
  };
  return { terminal, lines, asked };
}

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ memory: true });
  await migrate(database);
}, 60_000);
afterAll(() => database.close());

const count = async (table: "companies" | "users" | "master_cpfs" | "company_boards") =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(database.db)).rows[0].n);

describe("create-owner", () => {
  test("bad values: the web form's messages per flag, nothing written", async () => {
    const run = io("123");
    const code = await createOwner(
      database,
      [...argv({ ...FLAGS, cpf: "111.111.111-11" }), "--boards=1,10"],
      run.terminal,
    );
    expect(code).toBe(1);
    expect(run.lines).toEqual([
      "Nothing was written. Fix these values:",
      "  --boards: Quadro de auditoria inválido",
      "  --cpf: Esse CPF não é válido!",
      "  password: No mínimo 6 dígitos",
    ]);
    expect(await count("companies")).toBe(0);
    expect(await count("users")).toBe(0);
  });

  test("missing values are asked for on a terminal; without one the flag is named", async () => {
    const { company: _company, ...withoutName } = FLAGS;
    const noTerminal = { ...io("segredo42").terminal, ask: null };
    const lines: string[] = [];
    expect(await createOwner(database, argv(withoutName), { ...noTerminal, out: (line) => lines.push(line) })).toBe(2);
    expect(lines[0].split("\n")[0]).toBe(
      "Missing --company (Nome da empresa principal); run on a terminal to be asked.",
    );

    const asking = io("", { "Nome da empresa principal": "" });
    expect(await createOwner(database, argv(withoutName), asking.terminal)).toBe(1);
    expect(asking.asked).toEqual(["Nome da empresa principal"]);
    expect(asking.lines).toContain("  --company: Nome obrigatório");
    expect(await count("companies")).toBe(0);
  });

  test("first run: the company, its eight boards, the Administrador (P) with the master CPF; a second run refused", async () => {
    const run = io("segredo-42");
    expect(await createOwner(database, argv(FLAGS), run.terminal)).toBe(0);
    const company = await database.db.selectFrom("companies").selectAll().executeTakeFirstOrThrow();
    expect(company).toMatchObject({ nome: "Limpa Tudo Ltda", cnpj: "11222333000181", ativo: true, created_by: null });
    expect(company.max_number_users).toBe(50);
    expect(await count("company_boards")).toBe(8);
    const owner = await database.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(owner).toMatchObject({
      company_id: company.id,
      role_id: 1,
      email: "maria@limpatudo.com.br",
      cpf: "52998224725",
      telefone: "85988887777",
      data_nascimento: "1980-05-10",
    });
    expect(await verifyPassword("segredo-42", owner.password_hash)).toBe(true);
    expect(await database.db.selectFrom("master_cpfs").selectAll().execute()).toEqual([
      expect.objectContaining({ cpf: "52998224725", company_id: company.id }),
    ]);
    expect(run.lines.join("\n")).not.toContain("segredo-42");

    const again = io("segredo-42");
    const other = { ...FLAGS, cnpj: "45.723.174/0001-10", email: "outro@x.com.br", cpf: "153.509.460-56" };
    expect(await createOwner(database, argv(other), again.terminal)).toBe(1);
    expect(again.lines).toEqual([`Nothing was written. ${OWNER_EXISTS}`]);
    expect([await count("companies"), await count("users"), await count("master_cpfs")]).toEqual([1, 1, 1]);
  });
});
