import { sql } from "kysely";
import { describe, expect, test } from "vitest";

import { ReadCache } from "../../api/lib/read-cache.ts";
import { useTestApi } from "../support/api.ts";
import { COMPANY_A, companyId } from "../support/demo.ts";

const UNAUTHENTICATED = "Sessão expirada. Faça login novamente.";

const t = useTestApi();

/** A cache over the test database's write watch, counting how often it had to load. */
function countingCache(tables: string[], options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
  const cache = new ReadCache<string>(t.database.writes, tables, { ttlMs: 60_000, maxEntries: 100, ...options });
  let loads = 0;
  const read = (key = "k") =>
    cache.get(key, async () => {
      loads += 1;
      return `${key}#${loads}`;
    });
  return { cache, read, loads: () => loads };
}

describe("ReadCache over the write watch", () => {
  test("a query-builder write to a watched table makes it forget; a read or another table's write does not", async () => {
    const { read, loads } = countingCache(["branches"]);
    expect(await read()).toBe("k#1");
    expect(await read()).toBe("k#1");
    await t.db.selectFrom("branches").select("id").execute();
    await t.db.deleteFrom("rate_limits").where("key", "=", "nothing").execute();
    expect(await read()).toBe("k#1");
    await t.db.updateTable("branches").set({ endereco: "Rua Nova" }).where("id", "=", -1).execute();
    expect(await read()).toBe("k#2");
    expect(loads()).toBe(2);
  });

  test("insert, delete and an aliased update are seen", async () => {
    const { read } = countingCache(["rate_limits", "branches"]);
    await read();
    await t.db
      .insertInto("rate_limits")
      .values({ key: "cache-test", window_started_at: new Date(), hits: 1 })
      .execute();
    expect(await read()).toBe("k#2");
    await t.db.deleteFrom("rate_limits").where("key", "=", "cache-test").execute();
    expect(await read()).toBe("k#3");
    await t.db.updateTable("branches as b").set({ numero: "1" }).where("b.id", "=", -1).execute();
    expect(await read()).toBe("k#4");
  });

  test("raw SQL that writes makes every cache forget; raw SQL that reads does not", async () => {
    const { read } = countingCache(["branches"]);
    await read();
    await sql`select count(*) from users`.execute(t.db);
    expect(await read()).toBe("k#1");
    await sql`update users set telefone = telefone where id = -1`.execute(t.db);
    expect(await read()).toBe("k#2");
  });

  test("a read that overlaps a write is answered but not kept", async () => {
    const cache = new ReadCache<string>(t.database.writes, ["branches"], { ttlMs: 60_000, maxEntries: 100 });
    let release!: () => void;
    const slowRead = cache.get("k", () => new Promise<string>((resolve) => (release = () => resolve("old"))));
    await t.db.updateTable("branches").set({ numero: "1" }).where("id", "=", -1).execute();
    release();
    expect(await slowRead).toBe("old");
    expect(await cache.get("k", async () => "new")).toBe("new");
  });

  test("entries expire after the TTL, absent answers are not kept, the oldest goes first when full", async () => {
    let now = 0;
    const { read } = countingCache(["branches"], { ttlMs: 5_000, maxEntries: 2, now: () => now });
    await read("a");
    now = 4_999;
    expect(await read("a")).toBe("a#1");
    now = 5_000;
    expect(await read("a")).toBe("a#2");
    await read("b");
    await read("c");
    expect(await read("b")).toBe("b#3");
    expect(await read("a")).toBe("a#5");

    const cache = new ReadCache<string>(t.database.writes, ["branches"], { ttlMs: 5_000, maxEntries: 2 });
    let misses = 0;
    const absent = () => cache.get("x", async () => ((misses += 1), undefined));
    await absent();
    await absent();
    expect(misses).toBe(2);
  });
});

describe("the API's caches forget at once what this process writes", () => {
  test("an inactivated user's cached token answers 401 on the next request", async () => {
    const token = await t.signIn("debora@demo.com.br");
    expect((await t.get("/api/sessions/current", { token })).status).toBe(200);
    await t.db.updateTable("users").set({ ativo: 0 }).where("email", "=", "debora@demo.com.br").execute();
    const answer = await t.get("/api/sessions/current", { token });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(UNAUTHENTICATED);
    await t.db.updateTable("users").set({ ativo: 1 }).where("email", "=", "debora@demo.com.br").execute();
  });

  test("a signed-out token answers 401 at once, another session of the same user goes on", async () => {
    const first = await t.signIn("admin@demo.com.br");
    const second = await t.signIn("admin@demo.com.br");
    expect((await t.get("/api/empresas/filiais", { token: first })).status).toBe(200);
    expect((await t.get("/api/empresas/filiais", { token: second })).status).toBe(200);
    expect((await t.delete("/api/sessions", { token: first })).status).toBe(204);
    expect((await t.get("/api/empresas/filiais", { token: first })).status).toBe(401);
    expect((await t.get("/api/empresas/filiais", { token: second })).status).toBe(200);
  });

  test("a renamed branch shows in the next branch list", async () => {
    const token = await t.signIn("admin@demo.com.br");
    const before = await t.get("/api/empresas/filiais", { token });
    const branch = before.body[0];
    await t.db.updateTable("branches").set({ nome: "Filial renomeada" }).where("id", "=", branch.ID).execute();
    const after = await t.get("/api/empresas/filiais", { token });
    expect(after.body.map((row: { NOME: string }) => row.NOME)).toContain("Filial renomeada");
    await t.db.updateTable("branches").set({ nome: branch.NOME }).where("id", "=", branch.ID).execute();
  });

  test("a master CPF removed or added shows in the next session answer", async () => {
    const token = await t.signIn("admin@demo.com.br");
    const hospital = await companyId(t.db, COMPANY_A);
    const cpf = (await t.get("/api/sessions/current", { token })).body.user.cpf;
    const owns = { CPF: cpf, Id_Empresas: hospital };
    await t.db.deleteFrom("master_cpfs").where("cpf", "=", cpf).where("company_id", "=", hospital).execute();
    expect((await t.get("/api/sessions/current", { token })).body.cpfUserMaster).not.toContainEqual(owns);
    await t.db.insertInto("master_cpfs").values({ cpf, company_id: hospital }).execute();
    expect((await t.get("/api/sessions/current", { token })).body.cpfUserMaster).toContainEqual(owns);
  });
});
