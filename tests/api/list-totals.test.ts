/**
 * The users and pre-registered CPF lists keep their totals in the count cache like the other lists
 * (docs/performance.md 'Caches and their invalidation', migration 009): a repeated search answers the cached total,
 * and every write, through the API or in plain SQL, makes the next request count again.
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits } from "../support/cpf.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

let ids: Awaited<ReturnType<typeof demoIds>>;
let admin = "";
let serial = 500_300_000;
const nextCpf = () => cpfWithCheckDigits(String((serial += 1)));

beforeAll(async () => {
  ids = await demoIds(t.db);
  admin = await t.signIn("admin@demo.com.br");
});

describe("the users list's total", () => {
  const total = async (q: string) => {
    const answer = await t.get(`/api/allUsers/${ids.hospital}?q=${encodeURIComponent(q)}&size=20`, { token: admin });
    expect(answer.status).toBe(200);
    return answer.body.total as number;
  };

  test("follows a create through the API and inserts, updates and deletes in plain SQL", async () => {
    const before = await total("zuleica");
    expect(await total("zuleica")).toBe(before);

    const cpf = nextCpf();
    const created = await t.post(
      "/api/empresas/asg",
      {
        nome: "Zuleica Nova",
        email: `zuleica${serial}@totais.test`,
        cpf,
        dataNascimento: "12/04/1990",
        telefone: "(85) 9 8888-7777",
        password: "segredo1",
        filiaId: ids.aldeota,
      },
      { token: admin },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await total("zuleica")).toBe(before + 1);

    // Another process's write (another server on the same PostgreSQL, a script): the version moves with it.
    const copy = await t.db.selectFrom("users").selectAll().where("cpf", "=", cpf).executeTakeFirstOrThrow();
    const { id: _id, nome_folded: _folded, ...columns } = copy;
    const secondCpf = nextCpf();
    await t.db
      .insertInto("users")
      .values({ ...columns, nome: "Zuleica em SQL", email: `sql${serial}@totais.test`, cpf: secondCpf })
      .execute();
    expect(await total("zuleica")).toBe(before + 2);

    await t.db.updateTable("users").set({ nome: "Outra pessoa" }).where("cpf", "=", secondCpf).execute();
    expect(await total("zuleica")).toBe(before + 1);
    expect(await total("Outra pessoa")).toBe(1);
    await t.db.deleteFrom("users").where("cpf", "=", secondCpf).execute();
    expect(await total("Outra pessoa")).toBe(0);
    expect(await total("zuleica")).toBe(before + 1);
  });

  test("a repeated page answers the cached total: a write that does not move the version is not counted", async () => {
    const before = await total("zuleica");
    // The insert trigger off for one statement: the row is there, the version has not moved.
    const {
      id: _id,
      nome_folded: _folded,
      ...columns
    } = await t.db.selectFrom("users").selectAll().where("nome", "=", "Zuleica Nova").executeTakeFirstOrThrow();
    const hiddenCpf = nextCpf();
    await t.db.transaction().execute(async (trx) => {
      await sql`alter table users disable trigger users_list_version_ins`.execute(trx);
      await trx
        .insertInto("users")
        .values({ ...columns, nome: "Zuleica escondida", email: `oculta${serial}@totais.test`, cpf: hiddenCpf })
        .execute();
      await sql`alter table users enable trigger users_list_version_ins`.execute(trx);
    });
    expect(await total("zuleica")).toBe(before);
    // Any write that moves the version brings the real total back.
    await t.db.updateTable("users").set({ telefone: "85999990000" }).where("cpf", "=", hiddenCpf).execute();
    expect(await total("zuleica")).toBe(before + 1);
  });
});

describe("the pre-registered CPF list's total", () => {
  const total = async (q = "") => {
    const answer = await t.get(`/api/empresas/funcionarios/${ids.hospital}?q=${encodeURIComponent(q)}&size=20`, {
      token: admin,
    });
    expect(answer.status).toBe(200);
    return answer.body.total as number;
  };

  test("follows saves and removals through the API, plain SQL and a branch rename (branch names are searched)", async () => {
    const before = await total();
    expect(await total()).toBe(before);

    const cpf = nextCpf();
    const saved = await t.post(
      "/api/empresas/saveFuncionarios",
      { cpf, idEmpresa: ids.hospital, idEmpresaFilial: ids.messejana, roleId: 3 },
      { token: admin },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(await total()).toBe(before + 1);

    const removed = await t.put(
      "/api/empresas/ativaInativaDeleteFuncionarios",
      { acao: ["2"], cpf: [cpf] },
      { token: admin },
    );
    expect(removed.status).toBe(200);
    expect(await total()).toBe(before);

    const inSql = nextCpf();
    await t.db
      .insertInto("pre_registered_cpfs")
      .values({ company_id: ids.hospital, branch_id: ids.messejana, cpf: inSql, role_id: 5 })
      .execute();
    expect(await total()).toBe(before + 1);
    // A hard delete in SQL (the API only marks a removal).
    await t.db.deleteFrom("pre_registered_cpfs").where("cpf", "=", inSql).execute();
    expect(await total()).toBe(before);

    const inMessejana = await total("zirconia");
    await t.db.updateTable("branches").set({ nome: "Filial Zircônia" }).where("id", "=", ids.messejana).execute();
    expect(await total("zirconia")).toBe(inMessejana + (await countIn(ids.messejana)));
  });
});

/** The live pre-registrations of a branch, counted in SQL. */
async function countIn(branchId: number) {
  const { n } = await t.db
    .selectFrom("pre_registered_cpfs")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
