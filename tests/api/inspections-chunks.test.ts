/**
 * Keyset chunks of the inspections list (GET /api/inspecoes with `after`), what /inspecoes/exportar.xlsx and .pdf
 * read (docs/inspections.md 'Reading them'): walking every chunk gives the list's rows in its order (newest first, the
 * one order it has) under each filter and scope, with another branch's and another company's rows absent; the cursor
 * holds created_at to the microsecond and the id, so rows written in the same instant or a microsecond apart are
 * neither skipped nor repeated; a cursor the API did not give and a chunk size out of bounds are a 400 in Portuguese;
 * the Excel file holds the rows the list's pages hold.
 */
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";
import type { z } from "zod";

import { CHUNK_SIZE_INVALID, SIZE_INVALID } from "../../api/lib/list-query.ts";
import type { Inspection } from "../../api/routes/inspections.ts";
import { inspectionsXlsxLoader } from "../../app/inspections/inspection-exports.server.ts";
import { inspectionLine } from "../../app/inspections/inspections.server.ts";
import { createUserSession } from "../../app/session.server.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

type Item = z.infer<typeof Inspection>;
type Chunk = { items: Item[]; next: string | null };

const CURSOR_INVALID_TEXT = "Cursor inválido: recomece a leitura do início (after vazio).";
/** The day of the rows this file writes: 4 instants a microsecond apart, 300 rows each, both branches interleaved. */
const DAY = "2024-05-15";
const INSTANTS = [1, 2, 3, 4].map((micro) => `${DAY}T13:00:00.50000${micro}Z`);
const PER_INSTANT = 300;

const tokens: Record<string, string> = {};
let ids: Awaited<ReturnType<typeof demoIds>>;
/** The rows of the other company written on the same day and instants. */
const foreign: number[] = [];

/** `count` copies of the templates (room, checklist, inspector, result) at one instant, the templates in turn. */
async function copies(templates: number[], instant: string, count: number) {
  const rows = await sql<{ id: number }>`
    insert into inspections (company_id, branch_id, environment_id, checklist_id, versao, inspector_id,
      pontos_conforme, pontos_aplicaveis, nota, nota_minima, aprovada, created_at)
    select x.company_id, x.branch_id, x.environment_id, x.checklist_id, x.versao, x.inspector_id,
      x.pontos_conforme, x.pontos_aplicaveis, x.nota, x.nota_minima, x.aprovada, ${instant}::timestamptz
    from generate_series(0, ${sql.lit(count - 1)}) n
    join inspections x on x.id = (array[${sql.join(templates.map((id) => sql.lit(id)))}])[1 + n % ${sql.lit(templates.length)}]
    order by n
    returning id`.execute(t.db);
  return rows.rows.map((row) => row.id);
}

async function templateOf(companyId: number, branchId: number | null, aprovada: boolean) {
  return (
    await t.db
      .selectFrom("inspections")
      .select("id")
      .where("company_id", "=", companyId)
      .$if(branchId !== null, (qb) => qb.where("branch_id", "=", branchId!))
      .where("aprovada", "=", aprovada)
      .orderBy("id")
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  for (const email of ["admin", "coordenador", "cliente", "outra"])
    tokens[email] = await t.signIn(`${email}@demo.com.br`);
  ids = await demoIds(t.db);
  // The demo's inspections (every branch, both companies, a failed one each) as templates; passed and failed rows
  // of both branches alternate, so every filter cuts through each tie.
  const templates = [
    await templateOf(ids.hospital, ids.aldeota, true),
    await templateOf(ids.hospital, ids.messejana, true),
    await templateOf(ids.hospital, ids.aldeota, false),
    await templateOf(ids.hospital, ids.messejana, false),
  ];
  const other = await templateOf(ids.other, null, true);
  for (const instant of INSTANTS) {
    await copies(templates, instant, PER_INSTANT / 2);
    foreign.push(...(await copies([other], instant, 5)));
    await copies(templates, instant, PER_INSTANT / 2);
  }
});

const list = (query: string, token = tokens.admin) => t.get(`/api/inspecoes?${query}`, { token });

/** Every chunk of the list, checking each answer on the way. */
async function walk(query: string, size: number | null, token = tokens.admin) {
  const items: Item[] = [];
  let after = "";
  for (let calls = 1; ; calls++) {
    const sized = size === null ? "" : `&size=${size}`;
    const answer = await list(`${query}${sized}&after=${encodeURIComponent(after)}`, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(["items", "next"]);
    const chunk = answer.body as Chunk;
    items.push(...chunk.items);
    if (chunk.next === null) return { items, calls };
    if (size !== null) expect(chunk.items.length).toBe(size);
    after = chunk.next;
    if (calls > 3000) throw new Error("the chunks never end");
  }
}

/** The list as its pages show it (160 a page, page after page): what the chunks must add up to. */
async function paged(query: string, token = tokens.admin) {
  const items: Item[] = [];
  for (let page = 1; ; page++) {
    const answer = await list(`${query}&size=160&page=${page}`, token);
    expect(answer.status).toBe(200);
    items.push(...answer.body.items);
    if (page * 160 >= answer.body.total) return items;
  }
}

/** The ids the scope and filter hold, newest first, read from the table itself. */
async function expectedIds(where: { branchId?: number; aprovada?: boolean; environmentId?: number; day?: boolean }) {
  const rows = await t.db
    .selectFrom("inspections")
    .select("id")
    .where("company_id", "=", ids.hospital)
    .$if(where.branchId !== undefined, (qb) => qb.where("branch_id", "=", where.branchId!))
    .$if(where.environmentId !== undefined, (qb) => qb.where("environment_id", "=", where.environmentId!))
    .$if(where.aprovada !== undefined, (qb) => qb.where("aprovada", "=", where.aprovada!))
    .$if(where.day === true, (qb) =>
      qb.where(sql<boolean>`(created_at at time zone 'America/Fortaleza')::date = ${DAY}::date`),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => row.id);
}

describe("GET /api/inspecoes in keyset chunks", () => {
  test("the whole company (newest first, its one order): the chunks are its pages, ties and microseconds kept", async () => {
    const expected = await expectedIds({});
    expect(expected.length).toBeGreaterThan(INSTANTS.length * PER_INSTANT);
    const pages = await paged("");
    expect(pages.map((item) => item.id)).toEqual(expected);
    for (const size of [7, 299, 1000]) {
      const { items, calls } = await walk("", size);
      expect(items, `size ${size}`).toEqual(pages);
      expect(calls).toBe(Math.ceil(expected.length / size));
    }
    // Without size: 1,000 a chunk.
    const { items, calls } = await walk("", null);
    expect([items.length, calls]).toEqual([expected.length, Math.ceil(expected.length / 1000)]);
    expect(items.some((item) => foreign.includes(item.id))).toBe(false);
  });

  test.each([
    ["a branch", () => `filialId=${ids.messejana}`, () => ({ branchId: ids.messejana })],
    [
      "failed ones of the day",
      () => `resultado=reprovada&dataIni=${DAY}&dataFim=${DAY}`,
      () => ({ aprovada: false, day: true }),
    ],
    [
      "passed ones of a branch and the day",
      () => `filialId=${ids.aldeota}&resultado=aprovada&dataIni=${DAY}&dataFim=${DAY}`,
      () => ({ branchId: ids.aldeota, aprovada: true, day: true }),
    ],
  ])("%s: the chunks are the filtered list", async (_name, query, where) => {
    const expected = await expectedIds(where());
    expect(expected.length).toBeGreaterThan(100);
    const pages = await paged(query());
    expect(pages.map((item) => item.id)).toEqual(expected);
    for (const size of [13, 150]) expect((await walk(query(), size)).items).toEqual(pages);
  });

  test("one room, a row a chunk", async () => {
    const room = (
      await t.db
        .selectFrom("inspections")
        .select("environment_id")
        .where(sql<boolean>`created_at = ${INSTANTS[0]}::timestamptz`)
        .where("branch_id", "=", ids.aldeota)
        .executeTakeFirstOrThrow()
    ).environment_id;
    const expected = await expectedIds({ environmentId: room });
    const { items, calls } = await walk(`ambienteId=${room}`, 1);
    expect(items.map((item) => item.id)).toEqual(expected);
    expect(calls).toBe(expected.length);
  });

  test("branch-scoped readers (coordinator, client): their branch only, the other branch and company absent", async () => {
    const expected = await expectedIds({ branchId: ids.aldeota });
    for (const reader of ["coordenador", "cliente"]) {
      const { items } = await walk("", 97, tokens[reader]);
      expect(
        items.map((item) => item.id),
        reader,
      ).toEqual(expected);
      expect(new Set(items.map((item) => item.filial.id))).toEqual(new Set([ids.aldeota]));
      expect(items).toEqual(await paged("", tokens[reader]));
    }
    // Asking for the other branch does not widen the scope: it is not theirs (404).
    expect((await list(`filialId=${ids.messejana}&after=`, tokens.coordenador)).status).toBe(404);
  });

  test("another company's reader walks its own rows only", async () => {
    const { items } = await walk(`dataIni=${DAY}&dataFim=${DAY}`, 6, tokens.outra);
    expect(items.map((item) => item.id).sort((a, b) => a - b)).toEqual(foreign);
  });

  test("a cursor the API did not give is a 400 in Portuguese, nothing read or written", async () => {
    const count = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from inspections`.execute(t.db)).rows[0].n);
    const before = await count();
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
    const bad = [
      "not a cursor!",
      cursor({ key: INSTANTS[0], id: 1 }),
      cursor([INSTANTS[0]]),
      cursor(["2024-05-15", 1]),
      // Milliseconds only: the key is created_at to the microsecond.
      cursor(["2024-05-15T13:00:00.500Z", 1]),
      cursor(["2024-02-30T13:00:00.500001Z", 1]),
      cursor(["2024-05-15 13:00:00.500001+00", 1]),
      cursor([INSTANTS[0], 2_147_483_648]),
      cursor([INSTANTS[0], -1]),
    ];
    for (const after of bad) {
      const answer = await list(`after=${encodeURIComponent(after)}`);
      expect([answer.status, answer.body.message], after).toEqual([400, CURSOR_INVALID_TEXT]);
    }
    expect(await count()).toBe(before);
    // The cursor the API gives goes on.
    const first = await list(`size=2&after=`);
    expect((await list(`size=2&after=${first.body.next}`)).status).toBe(200);
  });

  test("the chunk size is bounded (1 to 5000); a page's sizes stay 20, 40, 80 and 160", async () => {
    for (const size of [0, 5001, -1]) {
      const answer = await list(`size=${size}&after=`);
      expect([answer.status, answer.body.message], String(size)).toEqual([400, CHUNK_SIZE_INVALID]);
    }
    for (const size of [0, 1000, 7]) {
      const answer = await list(`size=${size}`);
      expect([answer.status, answer.body.message], String(size)).toEqual([400, SIZE_INVALID]);
    }
    expect((await list("size=5000&after=")).body.items.length).toBe((await expectedIds({})).length);
  });
});

test("the OpenAPI document lists after and the chunk's size for GET /inspecoes, and the chunk's shape", async () => {
  type Parameter = { name: string; in: string; description?: string };
  const doc = (await t.get("/api/openapi.json")).body;
  const parameters = doc.paths["/api/inspecoes"].get.parameters as Parameter[];
  const described = (name: string) => parameters.find((parameter) => parameter.name === name)?.description ?? "";
  expect(described("after")).toContain("Keyset chunks");
  expect(described("size")).toContain("with after, the chunk size: 1 to 5000");
  expect(Object.keys(doc.components.schemas.InspectionChunk.properties).sort()).toEqual(["items", "next"]);
});

describe("/inspecoes/exportar.xlsx", () => {
  test("holds the list's rows as its pages show them, read in chunks past the first thousand", async () => {
    const context = {
      api: (request: Request) => t.api.fetch(request),
      requestId: "inspections-chunks",
      sessionSecret: "inspections-chunks-secret-of-32-chars",
      secureCookies: false,
      nonce: "n",
    } as never;
    const cookie = (await createUserSession(context, { token: tokens.admin } as never)).split(";")[0];
    const query = `de=${DAY}&ate=${DAY}`;
    const request = new Request(`http://test.local/inspecoes/exportar.xlsx?${query}`, { headers: { cookie } });
    const asked: string[] = [];
    const api = (inner: Request) => {
      asked.push(new URL(inner.url).search);
      return t.api.fetch(inner);
    };
    const response = await inspectionsXlsxLoader({
      request,
      context: { ...(context as object), api } as never,
      params: {},
    });
    expect(response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.getWorksheet("Inspeções")!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));

    const pages = await paged(`dataIni=${DAY}&dataFim=${DAY}`);
    expect(pages.length).toBe(INSTANTS.length * PER_INSTANT);
    const lines = pages
      .map(inspectionLine)
      .map((row) => [
        row.id,
        row.emText,
        row.filial.nome,
        row.ambiente.nome,
        `${row.checklist} (v${row.versao})`,
        row.inspetor,
        row.notaText,
        row.notaMinimaText,
        row.resultado,
        row.reinspecaoDe ?? "-",
      ]);
    expect(rows[0]!.join("|")).toBe(
      "Nº|Data|Filial|Ambiente|Checklist|Inspetor|Nota|Nota mínima|Resultado|Reinspeção de",
    );
    expect(rows.slice(1)).toEqual(lines);
    // Two keyset chunks of 1,000 (the second after the first's cursor), no page or offset.
    const chunks = asked.filter((search) => search.includes("after="));
    expect(chunks).toHaveLength(2);
    expect(asked.some((search) => search.includes("page="))).toBe(false);
    expect(new URLSearchParams(chunks[1]).get("after")).not.toBe("");
  });
});
