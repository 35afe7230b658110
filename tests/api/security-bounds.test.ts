/**
 * Issue 22 items 2, 3 and 4 (docs/security.md 'Hardening, round two'): what one save may write and how it writes,
 * how many rows one answer may hold, and who receives a person's CPF, e-mail and phone (and what field staff see).
 */
import { addDays, formatISO, parseISO } from "date-fns";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import { boardColumnOf } from "../../api/domain/board.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import type { SaveAgendaInput } from "../../api/domain/schedule-payloads.ts";
import { MAX_SAVE_BOOKINGS, saveTooLargeMessage } from "../../api/domain/schedule-rules.ts";
import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts.ts";
import { MAX_BOOKING_ROWS, MAX_PAGE_ROWS, TOO_MANY_ITEMS, TOO_MANY_ROWS } from "../../api/lib/list-query.ts";
import { applyBookingDiff, resumePendingBookings } from "../../api/services/scheduling.ts";
import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits } from "../support/cpf.ts";
import { countRows, demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });
const TOMORROW = day(businessToday(), 1);
const EVERY_DAY = "Domingo - Segunda - Terça - Quarta - Quinta - Sexta - Sábado";
const pad = (n: number) => String(n).padStart(2, "0");

const tokens: Record<string, string> = {};
let ids: Awaited<ReturnType<typeof demoIds>>;
let rooms: number[] = [];
const people = { asg: 0, ana: 0, cicero: 0 };

/** An every-day agenda of `slots` cleanings a day for `days` days from tomorrow, in Aldeota. */
function everyDay(room: number, user: number, slots: number, days: number): SaveAgendaInput {
  return {
    Id_EmpresasFilial: ids.aldeota,
    Id_Environments: room,
    Id_Users: user,
    Periodicidade: {
      type: "sem",
      DIAS_SEMANA: EVERY_DAY,
      hora_base_inicial: "00:00",
      hora_base_final: "00:30",
      Revisoes: Array.from({ length: slots - 1 }, (_, index) => ({
        HORA_INICIAL: `${pad(index + 1)}:00`,
        HORA_FINAL: `${pad(index + 1)}:30`,
      })),
    },
    revisionPhotos: false,
    vigIni: TOMORROW,
    vigFim: day(TOMORROW, days - 1),
  };
}

const save = (items: unknown, token = tokens.admin) => t.post("/api/agendas/v2/saveAgenda", items, { token });
const bookingsOf = async (agendaId: number) =>
  Number(
    (
      await t.db
        .selectFrom("bookings")
        .select(sql<string>`count(*)`.as("n"))
        .where("agenda_id", "=", agendaId)
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  for (const who of ["admin", "coordenador", "auditor", "cliente", "asg"]) {
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
  }
  ids = await demoIds(t.db);
  rooms = (
    await t.db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute()
  ).map((row) => row.id);
  people.asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  people.ana = (await userByEmail(t.db, "ana@demo.com.br")).id;
  people.cicero = (await userByEmail(t.db, "cicero@demo.com.br")).id;
});

describe("item 2: what one save may write", () => {
  test(`a save of more than ${MAX_SAVE_BOOKINGS} bookings is refused with 400 and writes nothing`, async () => {
    const agendas = await countRows(t.db, "agendas");
    const periodicities = await countRows(t.db, "periodicities");
    // 3 × 20 slots × 340 days = 20,400 bookings.
    const items = [0, 1, 2].map((index) => everyDay(rooms[index], people.asg, 20, 340));
    const answer = await save(items);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(saveTooLargeMessage(20_400));
    expect(answer.body.message).toBe(
      "Este cadastro geraria 20.400 agendamentos; o limite é de 20.000 por vez. " +
        "Divida os itens em mais de um cadastro ou encurte a vigência.",
    );
    expect(await countRows(t.db, "agendas")).toBe(agendas);
    expect(await countRows(t.db, "periodicities")).toBe(periodicities);
  });

  test("51 items are refused with 400 'Envie no máximo 50 itens por vez'", async () => {
    const answer = await save(Array.from({ length: 51 }, () => everyDay(rooms[0], people.asg, 1, 1)));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(T.itemsTooMany);
  });

  test("the largest legal save writes every booking, and other queries run between its steps", async () => {
    // 3 × 20 slots × 333 days = 19,980 bookings.
    const items = [0, 1, 2].map((index) => everyDay(rooms[index], people.ana, 20, 333));
    const order: string[] = [];
    const saving = save(items).then((answer) => {
      order.push("save");
      return answer;
    });
    // Asked once the save has started writing: on one transaction it would wait for the whole save.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const probe = t.get("/api/users/me", { token: tokens.auditor }).then((answer) => {
      order.push("probe");
      return answer;
    });
    const [saved, me] = await Promise.all([saving, probe]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(me.status).toBe(200);
    expect(order).toEqual(["probe", "save"]);
    expect(saved.body.map((agenda: { bookings: number }) => agenda.bookings)).toEqual([6660, 6660, 6660]);
    for (const agenda of saved.body) expect(await bookingsOf(agenda.ID)).toBe(6660);
    const pending = await t.db
      .selectFrom("agendas")
      .select("id")
      .where(
        "id",
        "in",
        saved.body.map((agenda: { ID: number }) => agenda.ID),
      )
      .where("pending_from", "is not", null)
      .execute();
    expect(pending).toEqual([]);
  }, 120_000);

  test("an agenda a stopped process left half-written is finished at the next start", async () => {
    const answer = await save([everyDay(rooms[3], people.cicero, 3, 30)]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const agendaId = answer.body[0].ID;
    expect(await bookingsOf(agendaId)).toBe(90);
    // What a process stopped after the agenda's commit and one step leaves: pending_from set, later days missing.
    const cut = day(TOMORROW, 10);
    await t.db.deleteFrom("bookings").where("agenda_id", "=", agendaId).where("data_agend", ">=", cut).execute();
    await t.db.updateTable("agendas").set({ pending_from: cut }).where("id", "=", agendaId).execute();
    expect(await bookingsOf(agendaId)).toBe(30);

    expect(await resumePendingBookings(t.db)).toEqual({ finished: [agendaId], failed: [] });
    expect(await bookingsOf(agendaId)).toBe(90);
    const agenda = await t.db
      .selectFrom("agendas")
      .select("pending_from")
      .where("id", "=", agendaId)
      .executeTakeFirstOrThrow();
    expect(agenda.pending_from).toBeNull();
  });

  test("a step's writes never touch a cleaning started after its diff was made", async () => {
    const answer = await save([everyDay(rooms[4], people.cicero, 1, 5)]);
    const agendaId = answer.body[0].ID;
    const rows = await t.db
      .selectFrom("bookings")
      .select(["id", "data_agend"])
      .where("agenda_id", "=", agendaId)
      .orderBy("data_agend")
      .execute();
    // A diff made while every row was open: move the first two rows, remove the other three ...
    const diff = {
      insert: [],
      update: rows.slice(0, 2).map((row) => ({
        id: row.id,
        horaIni: "05:00",
        horaFim: "05:30",
        userId: people.cicero,
        environmentId: rooms[4],
      })),
      remove: rows.slice(2).map((row) => row.id),
      kept: 0,
    };
    // ... then the collaborator starts the first and the fourth before it is written.
    await t.db
      .updateTable("bookings")
      .set({ status: "Andamento", start_date: new Date() })
      .where("id", "in", [rows[0].id, rows[3].id])
      .execute();
    const ref = {
      agendaId,
      companyId: ids.hospital,
      branchId: ids.aldeota,
      userId: people.cicero,
      environmentId: rooms[4],
    };
    await applyBookingDiff(t.db, ref, diff, TOMORROW);
    const left = await t.db
      .selectFrom("bookings")
      .select(["id", "hora_ini"])
      .where("agenda_id", "=", agendaId)
      .orderBy("data_agend")
      .execute();
    expect(left).toEqual([
      { id: rows[0].id, hora_ini: "00:00:00" },
      { id: rows[1].id, hora_ini: "05:00:00" },
      { id: rows[3].id, hora_ini: "00:00:00" },
    ]);
  });

  test("a far start costs nothing, and a date past 2100 is refused", async () => {
    const far = await save([
      { ...everyDay(rooms[4], people.cicero, 1, 3), vigIni: "2100-12-01", vigFim: "2100-12-03" },
    ]);
    expect(far.status, JSON.stringify(far.body)).toBe(201);
    expect(far.body[0].bookings).toBe(3);
    const past = await save([
      { ...everyDay(rooms[4], people.cicero, 1, 1), vigIni: "9999-12-31", vigFim: "9999-12-31" },
    ]);
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(T.dateInvalid);
  });

  test("the minute's sweep leaves a save that is still writing and finishes one left for a minute", async () => {
    const answer = await save([everyDay(rooms[3], people.cicero, 1, 10)]);
    const agendaId = answer.body[0].ID;
    await t.db.deleteFrom("bookings").where("agenda_id", "=", agendaId).execute();
    await t.db
      .updateTable("agendas")
      .set({ pending_from: TOMORROW, pending_at: new Date() })
      .where("id", "=", agendaId)
      .execute();
    expect(await resumePendingBookings(t.db, { idleFor: "1 minute" })).toEqual({ finished: [], failed: [] });
    expect(await bookingsOf(agendaId)).toBe(0);
    await t.db
      .updateTable("agendas")
      .set({ pending_at: new Date(Date.now() - 2 * 60_000) })
      .where("id", "=", agendaId)
      .execute();
    expect(await resumePendingBookings(t.db, { idleFor: "1 minute" })).toEqual({ finished: [agendaId], failed: [] });
    expect(await bookingsOf(agendaId)).toBe(10);
  });
});

describe("item 3: no answer holds an unbounded list", () => {
  let busyDay = "";
  beforeAll(async () => {
    // 20 cleanings a day for 60 days: 1,200 bookings, 20 of them on each day.
    const answer = await save([everyDay(rooms[5], people.asg, 20, 60)]);
    expect(answer.status).toBe(201);
    busyDay = day(TOMORROW, 2);
  });

  const list = (query: string, token = tokens.admin) =>
    t.get(`/api/agendas/v2/Agendamentos/company?filialId=${ids.aldeota}&${query}`, { token });

  test(`unpaged, more than ${MAX_BOOKING_ROWS} bookings are refused with 400 and the way to page`, async () => {
    const answer = await list(`dataIni=${TOMORROW}&dataFim=${day(TOMORROW, 59)}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(TOO_MANY_ROWS);
    expect(answer.body.message).toBe(
      "A consulta passa de 500 linhas: peça por páginas (limit e page, até 500 por página) ou um período menor.",
    );
  });

  test("paged, the same range answers its pages", async () => {
    const first = await list(`dataIni=${TOMORROW}&dataFim=${day(TOMORROW, 59)}&limit=500&page=1`);
    const third = await list(`dataIni=${TOMORROW}&dataFim=${day(TOMORROW, 59)}&limit=500&page=3`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(500);
    expect(third.body.length).toBeGreaterThanOrEqual(200);
    expect((await list(`dataIni=${TOMORROW}&dataFim=${TOMORROW}&limit=501`)).status).toBe(400);
  });

  test("history lists are capped the same way", async () => {
    // One executed procedure for each of the 1,200 bookings.
    const procedure = await t.db
      .selectFrom("procedures")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .executeTakeFirstOrThrow();
    await sql`insert into history (booking_id, procedure_id, user_id)
      select b.id, ${procedure.id}, b.user_id from bookings b where b.environment_id = ${rooms[5]}`.execute(t.db);
    const range = `filialId=${ids.aldeota}&dataIni=${TOMORROW}&dataFim=${day(TOMORROW, 59)}`;
    const unpaged = await t.get(`/api/historic/v2/company?${range}`, { token: tokens.admin });
    expect(unpaged.status).toBe(400);
    expect(unpaged.body.message).toBe(TOO_MANY_ROWS);
    const paged = await t.get(`/api/historic/v2/company?${range}&limit=500&page=3`, { token: tokens.admin });
    expect(paged.status).toBe(200);
    expect(paged.body.length).toBeGreaterThanOrEqual(200);
  });

  test("the summary counts per day and status what the list answers, over at most 31 days", async () => {
    const summary = await t.get(
      `/api/agendas/v2/Agendamentos/resumo?filialId=${ids.aldeota}&dataIni=${busyDay}&dataFim=${busyDay}`,
      { token: tokens.admin },
    );
    expect(summary.status).toBe(200);
    const listed = await list(`dataIni=${busyDay}&dataFim=${busyDay}`);
    expect(summary.body).toEqual([{ dataAgend: busyDay, status: null, total: listed.body.length }]);
    const tooLong = await t.get(
      `/api/agendas/v2/Agendamentos/resumo?dataIni=${TOMORROW}&dataFim=${day(TOMORROW, 31)}`,
      { token: tokens.admin },
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe("O resumo cobre no máximo 31 dias");
  });

  test("search and status are filtered in SQL", async () => {
    const byTime = await list(`dataIni=${busyDay}&dataFim=${busyDay}&q=07:00&campos=horario`);
    expect(byTime.body.map((booking: { horaIni: string }) => booking.horaIni)).toContain("07:00");
    expect(byTime.body.every((booking: { horaIni: string }) => booking.horaIni === "07:00")).toBe(true);
    const byName = await list(`dataIni=${busyDay}&dataFim=${busyDay}&q=NOBODY-X&campos=colaborador`);
    expect(byName.body).toEqual([]);
    const started = await list(`dataIni=${busyDay}&dataFim=${busyDay}&status=Andamento`);
    expect(started.body).toEqual([]);
    const toDo = await list(`dataIni=${busyDay}&dataFim=${busyDay}&status=aFazer`);
    expect(toDo.body.length).toBeGreaterThanOrEqual(20);
    expect((await list(`dataIni=${busyDay}&dataFim=${busyDay}&campos=cpf`)).status).toBe(400);
  });

  test("each status filter answers the bookings of one board column, and the four make up the day", async () => {
    // One slot of the busy day in each state the execution API writes.
    const rows = await t.db
      .selectFrom("bookings")
      .select("id")
      .where("environment_id", "=", rooms[5])
      .where("data_agend", "=", busyDay)
      .orderBy("slot")
      .execute();
    const states = ["Andamento", "Completo", "Incompleto"] as const;
    for (const [index, status] of states.entries())
      await t.db.updateTable("bookings").set({ status }).where("id", "=", rows[index].id).execute();
    const all = await list(`dataIni=${busyDay}&dataFim=${busyDay}`);
    const columns = new Map<string, number[]>();
    for (const filter of ["aFazer", "Andamento", "Completo", "Incompleto"]) {
      const answer = await list(`dataIni=${busyDay}&dataFim=${busyDay}&status=${filter}`);
      const column = boardColumnOf(filter === "aFazer" ? null : filter);
      for (const booking of answer.body) expect(boardColumnOf(booking.status)).toBe(column);
      columns.set(
        column,
        answer.body.map((booking: { id: number }) => booking.id),
      );
    }
    expect(columns.get("inProgress")).toEqual([rows[0].id]);
    expect([...columns.values()].flat().sort((a, b) => a - b)).toEqual(
      all.body.map((booking: { id: number }) => booking.id).sort((a: number, b: number) => a - b),
    );
  });

  test("a choice list of more than 5,000 items is refused unpaged; 'Todos' is its first 1,000 rows", async () => {
    await sql`insert into sectors (company_id, branch_id, name)
      select ${ids.hospital}, ${ids.aldeota}, 'Setor em massa ' || n from generate_series(1, 5001) n`.execute(t.db);
    const unpaged = await t.get(`/api/setor?filialId=${ids.aldeota}`, { token: tokens.admin });
    expect(unpaged.status).toBe(400);
    expect(unpaged.body.message).toBe(TOO_MANY_ITEMS);
    const all = await t.get(`/api/setor?filialId=${ids.aldeota}&size=0`, { token: tokens.admin });
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(MAX_PAGE_ROWS);
    expect(all.body.total).toBeGreaterThan(5001);
    await t.db.deleteFrom("sectors").where("name", "like", "Setor em massa %").execute();
  });
});

describe("item 4: personal data and what field staff see", () => {
  let asgAgenda = 0;
  let otherAgenda = 0;
  const range = () => `dataIni=${TOMORROW}&dataFim=${day(TOMORROW, 1)}`;

  beforeAll(async () => {
    const answer = await save([everyDay(rooms[6], people.asg, 1, 2), everyDay(rooms[7], people.cicero, 1, 2)]);
    expect(answer.status).toBe(201);
    [asgAgenda, otherAgenda] = answer.body.map((agenda: { ID: number }) => agenda.ID);
  });

  const bookingsFor = (token: string, extra = "") =>
    t.get(`/api/agendas/v2/Agendamentos/company?${range()}&agendaId=${asgAgenda}${extra}`, { token });

  test("a manager receives the collaborator's CPF, e-mail and phone", async () => {
    const answer = await bookingsFor(tokens.admin);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body[0].User).sort()).toEqual(["avatar", "cpf", "email", "id", "nome", "telefone"]);
    const asgs = await t.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${ids.aldeota}`, {
      token: tokens.admin,
    });
    expect(asgs.body[0]).toHaveProperty("cpf");
  });

  test("those who may not read e-mails may not search them either", async () => {
    const asked = await bookingsFor(tokens.auditor, "&q=demo.com.br&campos=email");
    expect(asked.status).toBe(400);
    expect(asked.body.message).toBe(T.searchFieldsInvalid);
    // By default the search skips the e-mail for them: every collaborator's e-mail holds 'demo.com.br'.
    expect((await bookingsFor(tokens.auditor, "&q=demo.com.br")).body).toEqual([]);
    expect((await bookingsFor(tokens.admin, "&q=demo.com.br")).body.length).toBeGreaterThan(0);
  });

  test.each(["auditor", "cliente"])("the %s receives names only", async (who) => {
    const answer = await bookingsFor(tokens[who]);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThan(0);
    expect(Object.keys(answer.body[0].User).sort()).toEqual(["avatar", "id", "nome"]);
    const asgs = await t.get("/api/agendas/v2/Agendamentos/listaAsg", { token: tokens[who] });
    expect(asgs.status).toBe(200);
    for (const asg of asgs.body) expect(Object.keys(asg)).not.toContain("cpf");
    expect(JSON.stringify(asgs.body)).not.toMatch(/@/);
  });

  test("an 'ASG Antigo' (no role, coordenador 0) is field staff: no users list, no writes, no personal data", async () => {
    const asg = await userByEmail(t.db, "asg@demo.com.br");
    await t.db
      .insertInto("users")
      .values({
        nome: "Antigo da Silva",
        email: "antigo@demo.com.br",
        cpf: cpfWithCheckDigits("123456780"),
        telefone: asg.telefone,
        password_hash: asg.password_hash,
        role_id: null,
        coordenador: 0,
        ativo: 1,
        company_id: ids.hospital,
        branch_id: ids.aldeota,
      })
      .execute();
    const token = await t.signIn("antigo@demo.com.br");
    const users = await t.get(`/api/allUsers/${ids.aldeota}`, { token });
    expect(users.status).toBe(403);
    expect(users.body.message).toBe("Permissão negada!");
    expect((await save([everyDay(rooms[8], people.asg, 1, 1)], token)).status).toBe(403);
    const bookings = await bookingsFor(token);
    expect(bookings.status).toBe(200);
    expect(bookings.body).toEqual([]);
  });

  test("an ASG reads only their own bookings, agendas and history, without personal data", async () => {
    const own = await t.get(`/api/agendas/v2/Agendamentos/company?${range()}`, { token: tokens.asg });
    expect(own.status).toBe(200);
    expect(own.body.length).toBeGreaterThan(0);
    expect(new Set(own.body.map((booking: { userId: number }) => booking.userId))).toEqual(new Set([people.asg]));
    expect(Object.keys(own.body[0].User).sort()).toEqual(["avatar", "id", "nome"]);

    const other = await t.get(`/api/agendas/v2/Agendamentos/company?${range()}&asgId=${people.cicero}`, {
      token: tokens.asg,
    });
    expect(other.status).toBe(404);
    expect((await t.get(`/api/agendas/${otherAgenda}`, { token: tokens.asg })).status).toBe(404);
    expect((await t.get(`/api/agendas/${asgAgenda}`, { token: tokens.asg })).status).toBe(200);
    const asgs = await t.get("/api/agendas/v2/Agendamentos/listaAsg", { token: tokens.asg });
    expect(asgs.body.map((asg: { id: number }) => asg.id)).toEqual([people.asg]);

    const counted = await t.get(`/api/agendas/v2/Agendamentos/resumo?${range()}`, { token: tokens.asg });
    const total = (rows: { total: number }[]) => rows.reduce((sum, row) => sum + row.total, 0);
    expect(total(counted.body)).toBe(own.body.length);
    const history = await t.get(`/api/historic/v2/agenda?${range()}&agendaId=${otherAgenda}`, { token: tokens.asg });
    expect(history.status).toBe(404);
    expect(history.body.message).toBe(T.agendaNotFound);
  });
});
