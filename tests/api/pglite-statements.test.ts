import { PGlite, types } from "@electric-sql/pglite";
import { Kysely, sql, type Generated } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { preparedStatementClient } from "../../api/db/pglite-statements.ts";

// PGlite's query client with prepared statements (api/db/pglite-statements.ts), against PGlite's own `query`.
let pglite: PGlite;
let client: ReturnType<typeof preparedStatementClient>;

const preparedCount = async () =>
  Number((await pglite.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements")).rows[0]!.n);

beforeAll(async () => {
  pglite = await PGlite.create();
  client = preparedStatementClient(pglite);
  await pglite.exec(`
    create table things (id serial primary key, name text not null unique, born date, data jsonb, size int);
    insert into things (name, born, data, size) values ('Área', '2024-02-29', '{"a": 1}', 3), ('banheiro', null, null, null);
  `);
});
afterAll(() => pglite.close());

describe("prepared statements on PGlite", () => {
  test("the same rows, fields and affected rows as PGlite's query, with nulls, dates, JSON and reuse", async () => {
    const statements: [string, unknown[]][] = [
      ["select * from things where name = $1 or size is null order by id", ["Área"]],
      ["select * from things where name = $1 or size is null order by id", ["banheiro"]],
      ["select id, data->>'a' as a, born from things where born < $1", [new Date("2025-01-01T00:00:00Z")]],
      ["update things set size = $1 where name = $2", [null, "Área"]],
      ["insert into things (name, data) values ($1, $2) returning name, data", ["Copa", { b: [1, 2] }]],
      ["delete from things where name = $1", ["Copa"]],
      ["with x as (select count(*)::int as n from things) select n from x", []],
    ];
    for (const [text, params] of statements) {
      // PGlite's answer inside a transaction that is rolled back, then the client's on the same data.
      await pglite.exec("begin");
      const expected = await pglite.query(text, params);
      await pglite.exec("rollback");
      const got = await client.query(text, params);
      expect(got.rows).toEqual(expected.rows);
      expect(got.fields).toEqual(expected.fields);
      expect(got.affectedRows ?? 0).toBe(expected.affectedRows ?? 0);
    }
    expect(await preparedCount()).toBe(6); // the repeated select is prepared once
  });

  test("each column is parsed as PGlite's query parses it, custom parsers included (the map is cut per statement)", async () => {
    // The project's database keeps dates as text (api/db/connection.ts): a custom parser must still apply.
    const custom = await PGlite.create({ parsers: { [types.DATE]: (value: string) => `dia ${value}` } });
    try {
      const own = preparedStatementClient(custom);
      const text = `select $1::date as d, $2::timestamptz as at, $3::int8 as big, $4::numeric as n, $5::bool as b,
        $6::int[] as ids, $7::text[] as names, $8::bytea as raw, $9::json as j, null::date as nothing,
        array[$1::date, null] as days`;
      const params = [
        "2024-02-29",
        new Date("2024-03-01T12:30:00Z"),
        9007199254740993n,
        "12.50",
        true,
        [1, 2],
        ["a", "b"],
        new Uint8Array([1, 2, 255]),
        { k: ["v"] },
      ];
      const expected = await custom.query(text, params);
      for (let i = 0; i < 2; i++) {
        const got = await own.query(text, params);
        expect(got.rows).toEqual(expected.rows);
        expect(got.fields).toEqual(expected.fields);
      }
      expect(expected.rows[0]).toMatchObject({ d: "dia 2024-02-29", days: ["dia 2024-02-29", null] });
    } finally {
      await custom.close();
    }
  });

  test("an error reaches the caller with its code, and the client goes on; a bad statement is not kept", async () => {
    const before = await preparedCount();
    await expect(client.query("insert into things (name) values ($1)", ["banheiro"])).rejects.toMatchObject({
      code: "23505",
    });
    await expect(client.query("select nothing from things", [])).rejects.toMatchObject({ code: "42703" });
    expect(
      (await client.query<{ n: number }>("select count(*)::int as n from things where id > $1", [0])).rows,
    ).toEqual([{ n: 2 }]);
    expect(await preparedCount()).toBe(before + 2); // the insert and the count, not the bad select
  });

  test("a table changed by DDL under a prepared 'select *' is prepared again, outside a transaction", async () => {
    const text = "select * from things where id = $1";
    expect(Object.keys((await client.query(text, [1])).rows[0] as object)).not.toContain("colour");
    await pglite.exec("alter table things add column colour text default 'azul'");
    expect((await client.query(text, [1])).rows[0]).toMatchObject({ colour: "azul" });
    await client.forgetAll();
    expect(await preparedCount()).toBe(0);
    expect((await client.query(text, [1])).rows[0]).toMatchObject({ colour: "azul" });
  });

  test("at most 200 statements stay prepared: the least recently used are closed", async () => {
    for (let i = 0; i < 260; i++) await client.query(`select $1::int + ${i} as n`, [1]);
    expect(await preparedCount()).toBe(200);
    expect((await client.query<{ n: number }>("select $1::int + 259 as n", [1])).rows).toEqual([{ n: 260 }]);
  });

  test("Kysely's transactions over the client commit and roll back", async () => {
    const db = new Kysely<{ things: { id: Generated<number>; name: string } }>({
      dialect: new PGliteDialect(client as unknown as PGlite),
    });
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto("things").values({ name: "Sala 1" }).execute();
        throw new Error("undo");
      })
      .catch(() => undefined);
    await db.transaction().execute((trx) => trx.insertInto("things").values({ name: "Sala 2" }).execute());
    const names = await db.selectFrom("things").select("name").where("name", "like", "Sala%").execute();
    expect(names).toEqual([{ name: "Sala 2" }]);
    expect((await sql<{ n: number }>`select 1 as n`.execute(db)).rows).toEqual([{ n: 1 }]);
  });
});
