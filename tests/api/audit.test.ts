/**
 * The audit dashboard's call (issue 25; docs/audit-dashboard.md): each board's SQL aggregate equals a brute-force count
 * over the same bookings (board 9: inspections) read row by row, for the whole company, under each filter and in each
 * role's scope; board 9 over the demo's six weeks of inspections equals SQL straight over the table and /inspecoes'
 * weeks; a board switched off is not answered; bad input is 400 with its message; another tenant's ids are 404.
 */
import { addDays, format } from "date-fns";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import {
  AUDIT_BOARDS,
  AUDIT_TEXTS,
  ITEM_CAP_MS,
  OPEN_STATUSES,
  auditCharts,
  type AuditAggregates,
  type AuditStatus,
  type BoardId,
} from "../../api/domain/audit.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const TODAY = businessToday();
const day = (offset: number) => format(addDays(new Date(`${TODAY}T12:00:00`), offset), "yyyy-MM-dd");
const FROM = day(-6);
const ALL_BOARDS = AUDIT_BOARDS.map((board) => board.id) as BoardId[];

const ids = { hospital: 0, other: 0, aldeota: 0, messejana: 0 };
const user = { asg: 0, ana: 0, bruno: 0, outra: 0 };
const rooms: { aldeota: number[]; messejana: number[]; other: number } = { aldeota: [], messejana: [], other: 0 };
const tokens: Record<string, string> = {};
/** An agenda switched off and one removed, each with slots of every status in the period. */
const hidden = { switchedOff: 0, removed: 0 };

async function roomsOf(branchId: number, count: number) {
  const rows = await t.db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .limit(count)
    .execute();
  return rows.map((row) => row.id);
}

type Booking = {
  id: number;
  user_id: number;
  branch_id: number;
  environment_id: number;
  data_agend: string;
  hora_ini: string;
  hora_fim: string;
  status: string | null;
  start_date: Date | null;
  finished_at: Date | null;
  nome: string;
  room: string;
  filial: string;
  cnpj: string;
};

/** Every booking of the period in the company, read row by row (no aggregate), with the names. */
async function bookingsOf(companyId: number) {
  const rows = await t.db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .innerJoin("users as u", "u.id", "b.user_id")
    .innerJoin("environments as e", "e.id", "b.environment_id")
    .innerJoin("branches as br", "br.id", "b.branch_id")
    .select([
      "b.id",
      "b.user_id",
      "b.branch_id",
      "b.environment_id",
      "b.data_agend",
      "b.hora_ini",
      "b.hora_fim",
      "b.status",
      "b.start_date",
      "b.finished_at",
      "u.nome",
      "e.name as room",
      "br.nome as filial",
      "br.cnpj",
    ])
    .where("b.company_id", "=", companyId)
    .where("b.active", "=", true)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    .where("b.data_agend", ">=", FROM)
    .where("b.data_agend", "<=", TODAY)
    .execute();
  return rows.map((row) => ({ ...row, data_agend: String(row.data_agend).slice(0, 10) })) as Booking[];
}

const statusOf = (b: Booking): AuditStatus =>
  b.status === "Completo"
    ? "Completo"
    : b.status === "Andamento"
      ? "Em andamento"
      : b.status === "Incompleto"
        ? "Incompleto"
        : b.data_agend >= TODAY
          ? "A iniciar"
          : "Não Realizado";
const actualMs = (b: Booking) =>
  b.start_date && b.finished_at && b.finished_at >= b.start_date
    ? Math.min(b.finished_at.getTime() - b.start_date.getTime(), ITEM_CAP_MS)
    : null;
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const plannedMs = (b: Booking) => {
  const span = minutes(b.hora_fim) - minutes(b.hora_ini);
  return Math.min((span < 0 ? span + 1440 : span) * 60_000, ITEM_CAP_MS);
};

/** A key's rows grouped, largest first, ties to the lower id, the first `limit`. */
function ranked<T extends { id: number }>(items: T[], size: (item: T) => number, limit: number) {
  return items.sort((x, y) => size(y) - size(x) || x.id - y.id).slice(0, limit);
}
function groupBy<K>(rows: Booking[], key: (b: Booking) => K) {
  const groups = new Map<K, Booking[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

type Inspection = { id: number; branch_id: number; environment_id: number; nota: string; day: string };

const fortalezaDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Fortaleza",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Every inspection of the company made on a business day (America/Fortaleza) of the period, read row by row. */
async function inspectionsOf(companyId: number, from = FROM, to = TODAY) {
  const rows = await t.db
    .selectFrom("inspections")
    .select(["id", "branch_id", "environment_id", "nota", "created_at"])
    .where("company_id", "=", companyId)
    .execute();
  return rows
    .map(({ created_at, ...row }) => ({ ...row, nota: String(row.nota), day: fortalezaDay.format(created_at) }))
    .filter((row) => row.day >= from && row.day <= to) as Inspection[];
}

/** The Monday of a day's week. */
const mondayOf = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
};

/** Board 9 counted in JS: per week, the scores in integer tenths, their mean rounded half up to one decimal. */
function weeksOf(inspections: Inspection[]): AuditAggregates[9] {
  const weeks = new Map<string, { tenths: number; count: number }>();
  for (const inspection of inspections) {
    const week = weeks.get(mondayOf(inspection.day)) ?? { tenths: 0, count: 0 };
    week.tenths += Math.round(Number(inspection.nota) * 10);
    week.count += 1;
    weeks.set(mondayOf(inspection.day), week);
  }
  return [...weeks]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([semana, { tenths, count }]) => ({
      semana,
      media: Math.floor((2 * tenths + count) / (2 * count)) / 10,
      inspecoes: count,
      soma: tenths / 10,
    }));
}

/** Each board's numbers counted in JS, one row at a time: what the SQL must agree with. */
function bruteForce(rows: Booking[], inspections: Inspection[]): AuditAggregates {
  const open = rows.filter((b) => statusOf(b) !== "Completo");
  const measured = rows.filter((b) => actualMs(b) !== null);
  const byRoom = [...groupBy(measured, (b) => b.environment_id)].map(([id, list]) => ({
    id,
    nome: list[0].room,
    filial: list[0].filial,
    total: list.reduce((sum, b) => sum + actualMs(b)!, 0),
    count: list.length,
    planned: list.reduce((sum, b) => sum + plannedMs(b), 0),
  }));
  return {
    1: [...groupBy(rows, statusOf)].map(([status, list]) => ({ status, count: list.length })),
    2: ranked(
      [...groupBy(open, (b) => b.user_id)].map(([id, list]) => ({ id, nome: list[0].nome, count: list.length })),
      (item) => item.count,
      10,
    ),
    3: ranked(
      [...groupBy(open, (b) => b.branch_id)].map(([id, list]) => ({
        id,
        nome: list[0].filial,
        cnpj: list[0].cnpj,
        counts: Object.fromEntries(
          OPEN_STATUSES.map((status) => [status, list.filter((b) => statusOf(b) === status).length]),
        ) as AuditAggregates[3][number]["counts"],
      })),
      (item) => Object.values(item.counts).reduce((sum, n) => sum + n, 0),
      20,
    ),
    4: ranked(byRoom, (room) => room.total, 10).map((room) => ({
      id: room.id,
      nome: room.nome,
      filial: room.filial,
      ms: room.total,
    })),
    5: ranked(
      byRoom.map((room) => ({ ...room, average: Math.round(room.total / room.count) })),
      (room) => room.average,
      10,
    ).map((room) => ({ id: room.id, nome: room.nome, filial: room.filial, ms: room.average, count: room.count })),
    6: ranked(byRoom, (room) => room.planned, 8).map((room) => ({
      id: room.id,
      nome: room.nome,
      filial: room.filial,
      plannedMs: room.planned,
      actualMs: room.total,
    })),
    7: ranked(
      [...groupBy(rows, (b) => b.user_id)].map(([id, list]) => ({
        id,
        nome: list[0].nome,
        scheduled: list.length,
        started: list.filter((b) => b.start_date !== null).length,
      })),
      (item) => item.scheduled,
      10,
    ),
    8: ranked(
      [...groupBy(rows, (b) => b.user_id)]
        .map(([id, list]) => ({
          id,
          nome: list[0].nome,
          done: list.filter((b) => statusOf(b) === "Completo").length,
          notDone: list.filter((b) => ["Incompleto", "Não Realizado"].includes(statusOf(b))).length,
        }))
        .filter((item) => item.done + item.notDone > 0),
      (item) => item.done + item.notDone,
      10,
    ),
    9: weeksOf(inspections),
  };
}

const get = (query: string, who: string) =>
  t.get(`/api/auditoria?dataIni=${FROM}&dataFim=${TODAY}${query}`, { token: tokens[who] });

/** The answer's charts equal the charts of the brute-force count over `rows` (and `inspections` for board 9). */
async function expectCharts(
  who: string,
  query: string,
  rows: Booking[],
  inspections: Inspection[],
  boards: BoardId[] = ALL_BOARDS,
) {
  const answer = await get(query, who);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.graficos).toEqual(auditCharts(bruteForce(rows, inspections), boards));
  return answer.body;
}

beforeAll(async () => {
  Object.assign(ids, await demoIds(t.db));
  for (const [key, email] of [
    ["asg", "asg@demo.com.br"],
    ["ana", "ana@demo.com.br"],
    ["bruno", "bruno@demo.com.br"],
    ["outra", "outra@demo.com.br"],
  ] as const) {
    user[key] = (await userByEmail(t.db, email)).id;
  }
  rooms.aldeota = await roomsOf(ids.aldeota, 3);
  rooms.messejana = await roomsOf(ids.messejana, 2);
  for (const who of ["principal", "admin", "coordenador", "auditor", "cliente", "asg", "outra"]) {
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
  }
  await t.db
    .insertInto("company_boards")
    .values(ALL_BOARDS.map((board_id) => ({ company_id: ids.hospital, board_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  // Today's agendas (Aldeota's rooms for Sebastião and Ana, Messejana's for Bruno; a main slot and a revision), then
  // their slots copied to the six days before (the API schedules from today on), some days left out.
  const plan = [
    { branch: ids.aldeota, environment: rooms.aldeota[0], user: user.asg },
    { branch: ids.aldeota, environment: rooms.aldeota[1], user: user.ana },
    { branch: ids.aldeota, environment: rooms.aldeota[1], user: user.asg },
    { branch: ids.aldeota, environment: rooms.aldeota[2], user: user.ana },
    { branch: ids.messejana, environment: rooms.messejana[0], user: user.bruno },
    { branch: ids.messejana, environment: rooms.messejana[1], user: user.bruno },
    // Switched off and removed below: their slots count on no board.
    { branch: ids.aldeota, environment: rooms.aldeota[0], user: user.ana },
    { branch: ids.aldeota, environment: rooms.aldeota[2], user: user.asg },
  ];
  for (const agenda of plan) {
    await saveDayAgenda(t, tokens.admin, {
      ...agenda,
      slots: [
        ["07:00", "08:00"],
        ["15:00", "16:30"],
      ],
    });
  }
  const today = await t.db.selectFrom("bookings").selectAll().where("data_agend", "=", TODAY).orderBy("id").execute();
  const copies = today.flatMap(({ id: _id, created_at: _c, updated_at: _u, ...booking }, index) =>
    [1, 2, 3, 4, 5, 6]
      .filter((offset) => (offset + index) % 4 !== 0)
      .map((offset) => ({ ...booking, data_agend: day(-offset) })),
  );
  await t.db.insertInto("bookings").values(copies).execute();
  // Statuses and times in a fixed pattern: done (one over a day long, capped), incomplete, under way, never started.
  const made = await t.db
    .selectFrom("bookings")
    .select(["id", "data_agend"])
    .where("company_id", "=", ids.hospital)
    .where("data_agend", ">=", FROM)
    .where("data_agend", "<", TODAY)
    .orderBy("id")
    .execute();
  for (const [index, booking] of made.entries()) {
    const start = new Date(`${String(booking.data_agend).slice(0, 10)}T10:00:00Z`);
    const after = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    const pattern = index % 6;
    if (pattern === 5) continue;
    await t.db
      .updateTable("bookings")
      .set({
        status: (["Completo", "Completo", "Incompleto", "Andamento", "Completo"] as const)[pattern],
        start_date: start,
        finished_at: pattern === 3 ? null : after(pattern === 4 && index % 4 === 0 ? 30 * 60 : 20 + index * 3),
      })
      .where("id", "=", booking.id)
      .execute();
  }
  const agendaOf = (environment: number, who: number) =>
    t.db
      .selectFrom("agendas")
      .select("id")
      .where("environment_id", "=", environment)
      .where("user_id", "=", who)
      .executeTakeFirstOrThrow();
  hidden.switchedOff = (await agendaOf(rooms.aldeota[0], user.ana)).id;
  hidden.removed = (await agendaOf(rooms.aldeota[2], user.asg)).id;
  await t.db.updateTable("agendas").set({ ativo: false }).where("id", "=", hidden.switchedOff).execute();
  await t.db.updateTable("agendas").set({ deleted_at: new Date() }).where("id", "=", hidden.removed).execute();
});

describe("GET /api/auditoria: each board's aggregate equals a count of the rows", () => {
  test("the whole company, every board; the period in words", async () => {
    const rows = await bookingsOf(ids.hospital);
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.some((b) => statusOf(b) === "A iniciar")).toBe(true);
    expect(rows.some((b) => actualMs(b) === ITEM_CAP_MS)).toBe(true);
    const body = await expectCharts("admin", "", rows, await inspectionsOf(ids.hospital));
    expect(body.quadros).toEqual(ALL_BOARDS);
    expect(body.graficos.map((chart: { title: string }) => chart.title)).toEqual(
      AUDIT_BOARDS.map((board) => board.title),
    );
    expect(body.periodo).toMatch(/ de \d{4}$/);
  });

  test("the slots of an agenda switched off and of one removed count on no board", async () => {
    const hiddenSlots = await t.db
      .selectFrom("bookings")
      .select(["status", "start_date"])
      .where("agenda_id", "in", [hidden.switchedOff, hidden.removed])
      .where("active", "=", true)
      .where("data_agend", ">=", FROM)
      .execute();
    expect(new Set(hiddenSlots.map((slot) => slot.status))).toEqual(
      new Set(["Completo", "Incompleto", "Andamento", null]),
    );
    const body = await expectCharts("admin", "", await bookingsOf(ids.hospital), await inspectionsOf(ids.hospital));
    const total = body.graficos[0].datasets[0].data.reduce((sum: number, value: number) => sum + value, 0);
    expect(total).toBe((await bookingsOf(ids.hospital)).length);
  });

  // Board 9's inspections: narrowed by branch and room; a collaborator is no inspection's (every one kept).
  test.each([
    [
      "filiais",
      () => `&filiais=${ids.messejana}`,
      (b: Booking) => b.branch_id === ids.messejana,
      (x: Inspection) => x.branch_id === ids.messejana,
    ],
    [
      "colaboradores",
      () => `&colaboradores=${user.asg},${user.bruno}`,
      (b: Booking) => [user.asg, user.bruno].includes(b.user_id),
      () => true,
    ],
    [
      "ambientes",
      () => `&ambientes=${rooms.aldeota[1]}`,
      (b: Booking) => b.environment_id === rooms.aldeota[1],
      (x: Inspection) => x.environment_id === rooms.aldeota[1],
    ],
  ])("filtered by %s: the same count over the filtered rows", async (_name, query, keep, keepInspection) => {
    const rows = (await bookingsOf(ids.hospital)).filter(keep);
    expect(rows.length).toBeGreaterThan(0);
    await expectCharts("admin", query(), rows, (await inspectionsOf(ids.hospital)).filter(keepInspection));
  });

  test("filtered by category, sector and procedure: the rooms that have them", async () => {
    const room = await t.db
      .selectFrom("environments")
      .select(["category_id", "sector_id"])
      .where("id", "=", rooms.aldeota[0])
      .executeTakeFirstOrThrow();
    const withCategory = new Set(
      (await t.db.selectFrom("environments").select("id").where("category_id", "=", room.category_id).execute()).map(
        (row) => row.id,
      ),
    );
    await expectCharts(
      "admin",
      `&categorias=${room.category_id}`,
      (await bookingsOf(ids.hospital)).filter((b) => withCategory.has(b.environment_id)),
      (await inspectionsOf(ids.hospital)).filter((x) => withCategory.has(x.environment_id)),
    );
    const withSector = new Set(
      (await t.db.selectFrom("environments").select("id").where("sector_id", "=", room.sector_id).execute()).map(
        (row) => row.id,
      ),
    );
    await expectCharts(
      "admin",
      `&setores=${room.sector_id}`,
      (await bookingsOf(ids.hospital)).filter((b) => withSector.has(b.environment_id)),
      (await inspectionsOf(ids.hospital)).filter((x) => withSector.has(x.environment_id)),
    );
    const procedure = await t.db
      .selectFrom("environment_procedures")
      .select("procedure_id")
      .where("environment_id", "=", rooms.messejana[0])
      .executeTakeFirstOrThrow();
    const withProcedure = new Set(
      (
        await t.db
          .selectFrom("environment_procedures")
          .select("environment_id")
          .where("procedure_id", "=", procedure.procedure_id)
          .execute()
      ).map((row) => row.environment_id),
    );
    // Procedures narrow the slot boards only: every inspection is kept.
    await expectCharts(
      "admin",
      `&procedimentos=${procedure.procedure_id}`,
      (await bookingsOf(ids.hospital)).filter((b) => withProcedure.has(b.environment_id)),
      await inspectionsOf(ids.hospital),
    );
  });

  test("scope: the coordinator and the client their branch, the ASG its own work, the other company its own", async () => {
    const rows = await bookingsOf(ids.hospital);
    const inspections = await inspectionsOf(ids.hospital);
    await expectCharts(
      "coordenador",
      "",
      rows.filter((b) => b.branch_id === ids.aldeota),
      inspections.filter((x) => x.branch_id === ids.aldeota),
    );
    await expectCharts(
      "cliente",
      "",
      rows.filter((b) => b.branch_id === ids.aldeota),
      inspections.filter((x) => x.branch_id === ids.aldeota),
    );
    // Field staff read no inspections.
    await expectCharts(
      "asg",
      "",
      rows.filter((b) => b.user_id === user.asg),
      [],
    );
    await expectCharts("auditor", "", rows, inspections);
    const other = await get("", "outra");
    expect(other.status).toBe(200);
    expect(other.body.graficos.every((chart: { empty: boolean }) => chart.empty)).toBe(true);
  });

  test("another tenant's or another branch's ids: 404", async () => {
    expect((await get(`&ambientes=${rooms.aldeota[0]}`, "outra")).status).toBe(404);
    expect((await get(`&colaboradores=${user.outra}`, "admin")).status).toBe(404);
    expect((await get(`&filiais=${ids.messejana}`, "coordenador")).status).toBe(404);
    expect((await get(`&filialId=${ids.messejana}`, "coordenador")).status).toBe(404);
  });

  test("a board switched off is not answered; none on: no chart", async () => {
    await t.db
      .deleteFrom("company_boards")
      .where("company_id", "=", ids.hospital)
      .where("board_id", "in", [3, 7])
      .execute();
    try {
      const rows = await bookingsOf(ids.hospital);
      const body = await expectCharts("admin", "", rows, await inspectionsOf(ids.hospital), [1, 2, 4, 5, 6, 8, 9]);
      expect(body.quadros).toEqual([1, 2, 4, 5, 6, 8, 9]);
    } finally {
      await t.db
        .insertInto("company_boards")
        .values([3, 7].map((board_id) => ({ company_id: ids.hospital, board_id })))
        .execute();
    }
  });

  test.each([
    [`/api/auditoria?dataIni=${TODAY}&dataFim=${FROM}`, AUDIT_TEXTS.invalidPeriod],
    [`/api/auditoria?dataIni=2024-01-01&dataFim=2025-01-02`, AUDIT_TEXTS.tooManyDays],
    [`/api/auditoria?dataIni=${FROM}`, null],
    [`/api/auditoria?dataIni=${FROM}&dataFim=${TODAY}&filiais=abc`, "Filtro inválido: Empresa (filiais)"],
    [`/api/auditoria?dataIni=${FROM}&dataFim=${TODAY}&ambientes=0`, "Filtro inválido: Ambiente"],
    [
      `/api/auditoria?dataIni=${FROM}&dataFim=${TODAY}&setores=${Array.from({ length: 51 }, (_, i) => i + 1).join(",")}`,
      AUDIT_TEXTS.tooManyChoices,
    ],
  ])("%s: 400", async (pathname, message) => {
    const answer = await t.get(pathname, { token: tokens.admin });
    expect(answer.status).toBe(400);
    if (message) expect(JSON.stringify(answer.body)).toContain(message);
  });
});

describe("GET /api/auditoria: board 9, the inspections' mean score per week", () => {
  // The demo's six weeks of weekly inspections (api/db/demo-inspections.ts), dated from the seed's day: the period
  // ends on the day of the latest, so a dump seeded days ago still holds them all.
  const period = { from: "", to: "" };
  type Chart = { board: number; labels: string[]; datasets: { data: number[] }[]; summary: string; empty: boolean };
  const chart9 = async (query: string, who = "admin") => {
    const answer = await t.get(`/api/auditoria?dataIni=${period.from}&dataFim=${period.to}${query}`, {
      token: tokens[who],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body.graficos as Chart[]).find((chart) => chart.board === 9);
  };
  /** The weeks straight from the table: SQL with its own day rule (the timestamp's date in Fortaleza). */
  const direct = async (where: ReturnType<typeof sql>) => {
    const scope = sql`company_id = ${ids.hospital}
      and (created_at at time zone 'America/Fortaleza')::date between ${period.from}::date and ${period.to}::date
      and ${where}`;
    const weeks = await sql<{ semana: string; media: string; n: number }>`
      select to_char(date_trunc('week', created_at at time zone 'America/Fortaleza'), 'YYYY-MM-DD') as semana,
        round(avg(nota), 1) as media, count(*)::int as n
      from inspections where ${scope} group by 1 order by 1`.execute(t.db);
    const total = await sql<{ media: string; n: number }>`
      select round(avg(nota), 1) as media, count(*)::int as n from inspections where ${scope}`.execute(t.db);
    return {
      labels: weeks.rows.map((row) => `Semana de ${row.semana.slice(8, 10)}/${row.semana.slice(5, 7)}`),
      means: weeks.rows.map((row) => Number(row.media)),
      count: Number(total.rows[0].n),
      mean: Number(total.rows[0].media).toLocaleString("pt-BR", { minimumFractionDigits: 1 }),
    };
  };
  const everything = sql`true`;

  beforeAll(async () => {
    const latest = await t.db
      .selectFrom("inspections")
      .select((eb) => eb.fn.max("created_at").as("at"))
      .where("company_id", "=", ids.hospital)
      .executeTakeFirstOrThrow();
    period.to = fortalezaDay.format(new Date(latest.at as unknown as string | Date));
    period.from = format(addDays(new Date(`${period.to}T12:00:00`), -48), "yyyy-MM-dd");
  });

  test("the demo company: each week's mean and count as SQL straight over the table, and as /inspecoes groups them", async () => {
    const chart = await chart9("");
    const expected = await direct(everything);
    expect(expected.labels.length).toBeGreaterThanOrEqual(6);
    expect(chart).toMatchObject({ labels: expected.labels, datasets: [{ data: expected.means }], empty: false });
    expect(chart!.summary).toBe(
      `Pontuação média de ${expected.mean}% em ${expected.count} inspeções, ${expected.labels.length} semanas com ` +
        `inspeções; na última, ${expected.labels.at(-1)!.toLowerCase()}: ` +
        `${expected.means.at(-1)!.toLocaleString("pt-BR", { minimumFractionDigits: 1 })}%.`,
    );
    // The same weeks and means as the inspections' own page grouped by week (one rule for both screens).
    const own = await t.get(`/api/inspecoes/pontuacao?agrupar=semana&dataIni=${period.from}&dataFim=${period.to}`, {
      token: tokens.admin,
    });
    expect(own.status).toBe(200);
    expect(own.body.items.map((item: { media: number }) => item.media)).toEqual(expected.means);
    // And the row-by-row count agrees over the longer period too.
    const rows = weeksOf(await inspectionsOf(ids.hospital, period.from, period.to));
    expect(rows.map((row) => row.media)).toEqual(expected.means);
  });

  test("a branch-level user sees its branch's inspections only; filiais, ambientes and categorias narrow them", async () => {
    const aldeota = await direct(sql`branch_id = ${ids.aldeota}`);
    const company = await direct(everything);
    expect(aldeota.count).toBeGreaterThan(0);
    expect(aldeota.count).toBeLessThan(company.count);
    const own = await chart9("", "coordenador");
    expect(own).toMatchObject({ labels: aldeota.labels, datasets: [{ data: aldeota.means }] });
    expect(own!.summary).toContain(`Pontuação média de ${aldeota.mean}% em ${aldeota.count} inspeç`);
    expect(await chart9("", "cliente")).toEqual(own);
    expect(await chart9(`&filiais=${ids.aldeota}`)).toEqual(own);
    const inspected = await t.db
      .selectFrom("inspections as x")
      .innerJoin("environments as e", "e.id", "x.environment_id")
      .select(["x.environment_id", "e.category_id"])
      .where("x.branch_id", "=", ids.aldeota)
      .orderBy("x.id")
      .executeTakeFirstOrThrow();
    const room = await direct(sql`environment_id = ${inspected.environment_id}`);
    expect(await chart9(`&ambientes=${inspected.environment_id}`)).toMatchObject({
      labels: room.labels,
      datasets: [{ data: room.means }],
    });
    const category = await direct(
      sql`environment_id in (select id from environments where category_id = ${inspected.category_id})`,
    );
    expect(category.count).toBeGreaterThan(room.count);
    expect(await chart9(`&categorias=${inspected.category_id}`)).toMatchObject({
      labels: category.labels,
      datasets: [{ data: category.means }],
    });
    // Collaborators and procedures are the slots' filters: the inspections stay the company's.
    const whole = await chart9("");
    expect(await chart9(`&colaboradores=${user.asg}`)).toEqual(whole);
  });

  test("field staff read no inspections: 'Sem dados' though their branch has some", async () => {
    expect((await direct(sql`branch_id = ${ids.aldeota}`)).count).toBeGreaterThan(0);
    expect(await chart9("", "asg")).toMatchObject({ labels: [], empty: true, summary: AUDIT_TEXTS.noData });
  });

  test("a company without board 9 gets no chart 9, though it has inspections; board 9 alone is answered alone", async () => {
    const outra = await t.db
      .selectFrom("inspections")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("company_id", "=", ids.other)
      .executeTakeFirstOrThrow();
    expect(Number(outra.n)).toBeGreaterThan(0);
    const other = await t.get(`/api/auditoria?dataIni=${period.from}&dataFim=${period.to}`, { token: tokens.outra });
    expect(other.status).toBe(200);
    expect(other.body.quadros).not.toContain(9);
    expect(other.body.graficos.map((chart: Chart) => chart.board)).not.toContain(9);

    const slotBoards = ALL_BOARDS.filter((board) => board !== 9);
    await t.db
      .deleteFrom("company_boards")
      .where("company_id", "=", ids.hospital)
      .where("board_id", "in", slotBoards)
      .execute();
    try {
      const alone = await t.get(`/api/auditoria?dataIni=${period.from}&dataFim=${period.to}`, { token: tokens.admin });
      expect(alone.body.quadros).toEqual([9]);
      expect(alone.body.graficos.map((chart: Chart) => chart.board)).toEqual([9]);
    } finally {
      await t.db
        .insertInto("company_boards")
        .values(slotBoards.map((board_id) => ({ company_id: ids.hospital, board_id })))
        .execute();
    }
  });
});

describe("GET /api/auditoria/opcoes: the 'Filtros' dialog's lists", () => {
  const options = (query: string, who: string) => t.get(`/api/auditoria/opcoes?${query}`, { token: tokens[who] });
  const branchOf = async (table: "environments" | "users", id: number) =>
    (await t.db.selectFrom(table).select("branch_id").where("id", "=", id).executeTakeFirstOrThrow()).branch_id;

  test("every branch, and the field staff as collaborators; choosing a branch narrows the other lists", async () => {
    const all = await options("", "admin");
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const names = all.body.filiais.map((branch: { id: number }) => branch.id);
    expect(names).toEqual(expect.arrayContaining([ids.aldeota, ids.messejana]));
    // Field staff: the ASGs and the old 'ASG Antigo' (no role, coordenador 0); no coordinator, manager or client.
    const staff = (await t.db.selectFrom("users").selectAll().where("company_id", "=", ids.hospital).execute()).filter(
      (row) => row.role_id === 5 || (row.role_id === null && row.coordenador === 0),
    );
    const listed = all.body.colaboradores.map((row: { id: number }) => row.id);
    expect(listed).toEqual(expect.arrayContaining([user.asg, user.ana, user.bruno]));
    expect([...listed].sort()).toEqual(staff.map((row) => row.id).sort());
    const messejana = await options(`filiais=${ids.messejana}`, "admin");
    expect(messejana.body.ambientes.length).toBeGreaterThan(0);
    expect(messejana.body.ambientes.length).toBeLessThan(all.body.ambientes.length);
    for (const room of messejana.body.ambientes) expect(await branchOf("environments", room.id)).toBe(ids.messejana);
    for (const person of messejana.body.colaboradores) expect(await branchOf("users", person.id)).toBe(ids.messejana);
    expect(messejana.body.mais).toEqual([]);
  });

  test("scope: the coordinator's branch only; another tenant's or branch's ids 404", async () => {
    const own = await options("", "coordenador");
    expect(own.body.filiais.map((branch: { id: number }) => branch.id)).toEqual([ids.aldeota]);
    for (const room of own.body.ambientes) expect(await branchOf("environments", room.id)).toBe(ids.aldeota);
    expect((await options(`filiais=${ids.messejana}`, "coordenador")).status).toBe(404);
    expect((await options(`filiais=${ids.aldeota}`, "outra")).status).toBe(404);
    expect((await options("filiais=x", "admin")).status).toBe(400);
  });
});
