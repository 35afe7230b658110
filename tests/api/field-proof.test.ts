/**
 * The field app's proof flags as the managers' calls answer them (docs/field-app.md 'Proof flags'): the collaborators
 * report's filters 'Sem leitura do QR' (semQr=1) and 'Enviado com atraso' (atraso=1) filtered in SQL, and the slot
 * detail, the report rows, the bookings list and the history carrying the flags and the received instants. The data
 * is written here, in one past day of the demo, with every slot of that day reset first.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { userByEmail } from "../support/demo.ts";

const t = useTestApi();
let admin: string;
let coordinator: string;
/** The day the test writes: today (the agendas below are of today only). */
const DAY = businessToday();
const DONE = new Date(`${DAY}T11:00:00Z`); // 08:00 in Fortaleza
const LATE_S = 8100; // 2 h 15 min
const minutes = (n: number) => n * 60_000;

/**
 * Three collaborators with a slot of the day each, started: one without the room's code and sent 2 h 15 min late
 * (Filial Aldeota), one read from the code but sent 10 min late (Filial Messejana), one read from the code on time.
 */
const who = { noQr: 0, late: 0, clean: 0 };
const slot = { noQr: 0, late: 0, clean: 0 };
let noQrEnvironment = 0;

/** A started slot of today for the user in a room of their branch with procedures; answers the booking and room. */
async function startedSlot(email: string) {
  const user = await userByEmail(t.db, email);
  const { branch_id } = await t.db
    .selectFrom("users")
    .select("branch_id")
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  const room = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .select("e.id")
    .where("e.branch_id", "=", branch_id!)
    .where("e.deleted_at", "is", null)
    .groupBy("e.id")
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  const agenda = await saveDayAgenda(t, admin, {
    branch: branch_id!,
    environment: room.id,
    user: user.id,
    slots: [["08:00", "08:30"]],
  });
  const booking = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", agenda)
    .executeTakeFirstOrThrow();
  const procedures = await t.db
    .selectFrom("environment_procedures")
    .select("procedure_id")
    .where("environment_id", "=", room.id)
    .orderBy("procedure_id")
    .execute();
  await t.db
    .updateTable("bookings")
    .set({
      status: "Completo",
      start_date: DONE,
      finished_at: new Date(DONE.getTime() + minutes(30)),
      iniciada_via_qr: true,
    })
    .where("id", "=", booking.id)
    .execute();
  for (const [index, procedure] of procedures.entries())
    await t.db
      .insertInto("history")
      .values({
        booking_id: booking.id,
        procedure_id: procedure.procedure_id,
        user_id: user.id,
        created_at: new Date(DONE.getTime() + minutes(index + 1)),
        received_at: new Date(DONE.getTime() + minutes(index + 1) + 2000),
      })
      .execute();
  return { user: user.id, booking: booking.id, room: room.id };
}

beforeAll(async () => {
  admin = await t.signIn("admin@demo.com.br");
  coordinator = await t.signIn("coordenador@demo.com.br");
  const noQr = await startedSlot("asg@demo.com.br");
  const late = await startedSlot("bruno@demo.com.br");
  const clean = await startedSlot("ana@demo.com.br");
  Object.assign(who, { noQr: noQr.user, late: late.user, clean: clean.user });
  Object.assign(slot, { noQr: noQr.booking, late: late.booking, clean: clean.booking });
  noQrEnvironment = noQr.room;
  await t.db
    .updateTable("bookings")
    .set({
      iniciada_via_qr: false,
      start_received_at: new Date(DONE.getTime() + LATE_S * 1000),
      finish_received_at: new Date(DONE.getTime() + minutes(30) + 20_000),
      envio_atraso_s: LATE_S,
    })
    .where("id", "=", slot.noQr)
    .execute();
  // The slot's first record waited on the phone as long; the others were sent as they were done.
  const first = await t.db
    .selectFrom("history")
    .select(["id", "created_at"])
    .where("booking_id", "=", slot.noQr)
    .orderBy("created_at")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable("history")
    .set({ received_at: new Date(first.created_at.getTime() + LATE_S * 1000) })
    .where("id", "=", first.id)
    .execute();
  await t.db.updateTable("bookings").set({ envio_atraso_s: 600 }).where("id", "=", slot.late).execute();
});

type Row = { id: number; agendamentos: number };
const report = async (query: string, token = admin) => {
  const answer = await t.get(`/api/relatorios/colaboradores?dataIni=${DAY}&dataFim=${DAY}&size=160&${query}`, {
    token,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.items as Row[];
};

describe("GET /api/relatorios/colaboradores: the proof filters", () => {
  test("semQr=1: the collaborator with a slot started without the code, counting that slot only", async () => {
    expect((await report("semQr=1")).map((row) => [row.id, row.agendamentos])).toEqual([[who.noQr, 1]]);
  });

  test("semQr=1 leaves out those whose slots were read from the code or started before the field app", async () => {
    const ids = (await report("semQr=1")).map((row) => row.id);
    expect([ids.includes(who.late), ids.includes(who.clean)]).toEqual([false, false]);
  });

  test("atraso=1: the collaborators with a late slot, each counting those slots", async () => {
    const rows = await report("atraso=1&ordem=nome");
    expect(new Map(rows.map((row) => [row.id, row.agendamentos]))).toEqual(
      new Map([
        [who.noQr, 1],
        [who.late, 1],
      ]),
    );
  });

  test("both: only the slots with both flags", async () => {
    expect((await report("semQr=1&atraso=1")).map((row) => row.id)).toEqual([who.noQr]);
  });

  test("neither: the report as before, every collaborator of the day", async () => {
    const ids = (await report("")).map((row) => row.id);
    expect([who.noQr, who.late, who.clean].every((id) => ids.includes(id))).toBe(true);
  });

  test("a branch-level user's filter stays in the own branch", async () => {
    const ids = (await report("atraso=1", coordinator)).map((row) => row.id);
    expect([ids.includes(who.noQr), ids.includes(who.late)]).toEqual([true, false]);
  });

  test("a filter value other than 0 or 1 is 400", async () => {
    const answer = await t.get(`/api/relatorios/colaboradores?dataIni=${DAY}&dataFim=${DAY}&semQr=sim`, {
      token: admin,
    });
    expect(answer.status).toBe(400);
  });
});

describe("the flags and received instants in the answers the pages read", () => {
  test("GET /api/relatorios/dia: the slot's flags and received instants, the execution's received instant", async () => {
    const answer = await t.get(`/api/relatorios/dia?data=${DAY}&userId=${who.noQr}&ambienteId=${noQrEnvironment}`, {
      token: admin,
    });
    const day = answer.body.slots.find((item: { agendamentoId: number }) => item.agendamentoId === slot.noQr);
    const firstDone = new Date(DONE.getTime() + minutes(1)).toISOString();
    const first = day.tarefas.find(
      (task: { execucao: { registradoEm: string } | null }) => task.execucao?.registradoEm === firstDone,
    );
    expect({ ...day, tarefas: undefined, recebidoEm: first.execucao.recebidoEm }).toMatchObject({
      viaQr: false,
      envioAtrasoS: LATE_S,
      inicio: DONE.toISOString(),
      inicioRecebido: new Date(DONE.getTime() + LATE_S * 1000).toISOString(),
      fimRecebido: new Date(DONE.getTime() + minutes(30) + 20_000).toISOString(),
      recebidoEm: new Date(DONE.getTime() + minutes(1) + LATE_S * 1000).toISOString(),
    });
  });

  test("GET /api/relatorios/linhas: each of the slot's rows carries the flags", async () => {
    const answer = await t.get(`/api/relatorios/linhas?dataIni=${DAY}&dataFim=${DAY}&userId=${who.noQr}`, {
      token: admin,
    });
    const rows = answer.body.items.filter((row: { agendamentoId: number }) => row.agendamentoId === slot.noQr);
    expect(rows.length).toBeGreaterThan(0);
    expect(
      new Set(rows.map((row: { viaQr: boolean; envioAtrasoS: number }) => `${row.viaQr}/${row.envioAtrasoS}`)),
    ).toEqual(new Set([`false/${LATE_S}`]));
  });

  test("GET /api/agendas/v2/Agendamentos/company: the booking carries viaQr, envioAtrasoS and both received instants", async () => {
    const answer = await t.get(
      `/api/agendas/v2/Agendamentos/company?dataIni=${DAY}&dataFim=${DAY}&asgId=${who.noQr}&limit=50`,
      { token: admin },
    );
    const booking = answer.body.find((item: { id: number }) => item.id === slot.noQr);
    expect(booking).toMatchObject({
      viaQr: false,
      envioAtrasoS: LATE_S,
      startReceivedAt: new Date(DONE.getTime() + LATE_S * 1000).toISOString(),
      finishReceivedAt: new Date(DONE.getTime() + minutes(30) + 20_000).toISOString(),
    });
  });

  test("GET /api/historic/v2/agenda: each execution's received instant beside its done one", async () => {
    const agenda = await t.db
      .selectFrom("bookings")
      .select("agenda_id")
      .where("id", "=", slot.noQr)
      .executeTakeFirstOrThrow();
    const answer = await t.get(`/api/historic/v2/agenda?dataIni=${DAY}&dataFim=${DAY}&agendaId=${agenda.agenda_id}`, {
      token: admin,
    });
    const ofSlot = answer.body.filter((entry: { agendamentoId: number }) => entry.agendamentoId === slot.noQr);
    const waited = ofSlot.map(
      (entry: { createdAt: string; receivedAt: string }) =>
        (new Date(entry.receivedAt).getTime() - new Date(entry.createdAt).getTime()) / 1000,
    );
    expect([waited[0], ...new Set(waited.slice(1))]).toEqual([LATE_S, 2]);
  });
});
