/**
 * One status for a slot (docs/reports.md 'One status for a slot'): the rooms' cards, the collaborators list (from the
 * daily roll-up, and from the slots themselves under a proof filter) and the day's detail count a slot by its tasks
 * (spec 001 §4), not by what the cleaner tapped. Yesterday, one room asking two procedures, four slots of one
 * collaborator, all closed as 'Completo' on the board but one: one procedure done ('Incompleto'), both ('Completo'),
 * both with a note ('Cancelado', counted as done), none and never started ('Não Realizado').
 */
import { addDays } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday, dayOf, isoDay } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();
const YESTERDAY = isoDay(addDays(dayOf(businessToday()), -1));
let admin: string;
let room: number;
let user: number;
let slots: number[];
let procedures: number[];

beforeAll(async () => {
  admin = await t.signIn("admin@demo.com.br");
  const ids = await demoIds(t.db);
  user = (await userByEmail(t.db, "ana@demo.com.br")).id;
  room = (
    await t.db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirstOrThrow()
  ).id;
  procedures = (
    await t.db
      .selectFrom("procedures")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .limit(2)
      .execute()
  ).map((row) => row.id);
  // The room asks exactly these two; nothing else of this room or collaborator is left on the day.
  await t.db.deleteFrom("environment_procedures").where("environment_id", "=", room).execute();
  await t.db
    .insertInto("environment_procedures")
    .values(procedures.map((procedure_id) => ({ environment_id: room, procedure_id, mandatory: true })))
    .execute();
  await t.db
    .deleteFrom("bookings")
    .where("data_agend", "=", YESTERDAY)
    .where((eb) => eb.or([eb("environment_id", "=", room), eb("user_id", "=", user)]))
    .execute();
  const agenda = await saveDayAgenda(t, admin, {
    branch: ids.aldeota,
    environment: room,
    user,
    slots: [
      ["07:00", "07:30"],
      ["09:00", "09:30"],
      ["11:00", "11:30"],
      ["13:00", "13:30"],
    ],
  });
  // The agenda's slots of today, moved to yesterday (a day the API no longer schedules).
  await t.db.updateTable("bookings").set({ data_agend: YESTERDAY }).where("agenda_id", "=", agenda).execute();
  slots = (
    await t.db.selectFrom("bookings").select("id").where("agenda_id", "=", agenda).orderBy("slot").execute()
  ).map((row) => row.id);
  const done = (booking: number, procedure: number, observacao: string | null = null) =>
    t.db.insertInto("history").values({ booking_id: booking, procedure_id: procedure, user_id: user, observacao });
  await done(slots[0], procedures[0]).execute();
  await done(slots[1], procedures[0]).execute();
  await done(slots[1], procedures[1]).execute();
  await done(slots[2], procedures[0], "Faltou papel").execute();
  await done(slots[2], procedures[1]).execute();
  await t.db
    .updateTable("bookings")
    .set({ status: "Completo", iniciada_via_qr: false })
    .where("id", "in", slots.slice(0, 3))
    .execute();
  await t.db.updateTable("bookings").set({ iniciada_via_qr: false }).where("id", "=", slots[3]).execute();
});

const PERIOD = `dataIni=${YESTERDAY}&dataFim=${YESTERDAY}`;
const COUNTS = { agendamentos: 4, completos: 2, incompletos: 1, naoRealizados: 1 };

const counts = (row: { agendamentos: number; completos: number; incompletos: number; naoRealizados: number }) => ({
  agendamentos: row.agendamentos,
  completos: row.completos,
  incompletos: row.incompletos,
  naoRealizados: row.naoRealizados,
});

describe("a slot is counted as the day's detail shows it", () => {
  test("GET /api/relatorios/dia: the slots are 'Incompleto', 'Completo', 'Cancelado' and 'Não Realizado'", async () => {
    const answer = await t.get(`/api/relatorios/dia?data=${YESTERDAY}&userId=${user}&ambienteId=${room}`, {
      token: admin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.slots.map((slot: { status: string }) => slot.status)).toEqual([
      "Incompleto",
      "Completo",
      "Cancelado",
      "Não Realizado",
    ]);
  });

  test("the room's card counts them so: two done, one incomplete, one not done", async () => {
    const answer = await t.get(`/api/relatorios/ambientes?${PERIOD}&size=160`, { token: admin });
    const card = answer.body.items.find((item: { id: number }) => item.id === room);
    expect(counts(card)).toEqual(COUNTS);
  });

  test("the collaborator's row in the room (the daily roll-up) counts the same", async () => {
    const answer = await t.get(`/api/relatorios/colaboradores?${PERIOD}&ambienteId=${room}&size=160`, {
      token: admin,
    });
    expect(answer.body.items.map(counts)).toEqual([COUNTS]);
  });

  test("under a proof filter (the slots themselves, not the roll-up) the same", async () => {
    const answer = await t.get(`/api/relatorios/colaboradores?${PERIOD}&ambienteId=${room}&semQr=1&size=160`, {
      token: admin,
    });
    expect(answer.body.items.map(counts)).toEqual([COUNTS]);
  });

  test("a room that asks nothing: its slots without an execution are done, on the card and in the detail", async () => {
    await t.db.deleteFrom("environment_procedures").where("environment_id", "=", room).execute();
    const card = (await t.get(`/api/relatorios/ambientes?${PERIOD}&size=160`, { token: admin })).body.items.find(
      (item: { id: number }) => item.id === room,
    );
    const detail = await t.get(`/api/relatorios/dia?data=${YESTERDAY}&userId=${user}&ambienteId=${room}`, {
      token: admin,
    });
    expect({
      card: counts(card),
      detail: detail.body.slots.map((slot: { status: string }) => slot.status),
    }).toEqual({
      card: { agendamentos: 4, completos: 4, incompletos: 0, naoRealizados: 0 },
      detail: ["Completo", "Completo", "Cancelado", "Completo"],
    });
  });
});
