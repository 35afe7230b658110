/**
 * The activity reports' calls (spec 001 §2.12, §4 'Activity report', §5; issue 24 part 2; docs/activity-reports.md):
 * every role's scope (the client, roleId 7, its client branch only; field staff their own work), each activity filter
 * checked row by row against the §4 rule, the text filter, sort and pages, the period errors, and the detail.
 */
import { addDays, formatISO, parseISO } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { ACTIVITY_FILTER_VALUES, activityMatches, type ActivityFilter } from "../../api/domain/activities.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const TODAY = businessToday();
const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });
const tokens: Record<string, string> = {};
let ids: Awaited<ReturnType<typeof demoIds>>;
const people: Record<string, number> = {};
/** Each collaborator's slots of today: [main, revision]. */
const slots: Record<string, number[]> = {};
const roomNames: Record<string, string> = {};

/** An agenda for today (a main slot 07:00-07:30 and a revision 15:00-15:30) for `email` in a room of `branch`. */
async function agendaToday(branch: number, email: string, skip: number) {
  const room = await t.db
    .selectFrom("environments")
    .select(["id", "name"])
    .where("branch_id", "=", branch)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .offset(skip)
    .executeTakeFirstOrThrow();
  const agenda = await saveDayAgenda(t, tokens.admin, {
    branch,
    environment: room.id,
    user: people[email],
    slots: [
      ["07:00", "07:30"],
      ["15:00", "15:30"],
    ],
  });
  const bookings = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", agenda)
    .orderBy("slot")
    .execute();
  slots[email] = bookings.map((booking) => booking.id);
  roomNames[email] = room.name;
}

async function firstProcedure(branch: number) {
  return t.db
    .selectFrom("procedures")
    .select(["id", "name"])
    .where("branch_id", "=", branch)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
}

const record = (booking: number, user: number, procedure: number, at: string, image: string | null = null) =>
  t.db
    .insertInto("history")
    .values({
      booking_id: booking,
      procedure_id: procedure,
      user_id: user,
      image,
      observacao: image ? null : "Sem foto",
      created_at: new Date(at),
    })
    .execute();

let procedureName: string;

beforeAll(async () => {
  for (const who of ["admin", "coordenador", "auditor", "cliente", "asg", "semnivel", "outra"]) {
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
  }
  ids = await demoIds(t.db);
  for (const email of ["asg", "ana", "bruno"]) people[email] = (await userByEmail(t.db, `${email}@demo.com.br`)).id;
  await agendaToday(ids.aldeota, "asg", 0);
  await agendaToday(ids.aldeota, "ana", 1);
  await agendaToday(ids.messejana, "bruno", 0);
  const aldeota = await firstProcedure(ids.aldeota);
  const messejana = await firstProcedure(ids.messejana);
  procedureName = aldeota.name;
  // The ASG's main slot: started at 10:00 UTC, two procedures recorded (the second with a photo). Ana's main slot: one
  // procedure without a photo. Bruno's main slot: one with a photo. Every revision: nothing.
  await t.db
    .updateTable("bookings")
    .set({
      status: "Completo",
      start_date: new Date(`${TODAY}T10:00:00Z`),
      finished_at: new Date(`${TODAY}T10:30:00Z`),
    })
    .where("id", "=", slots.asg[0])
    .execute();
  await record(slots.asg[0], people.asg, aldeota.id, `${TODAY}T10:05:00Z`);
  await record(slots.asg[0], people.asg, aldeota.id, `${TODAY}T10:20:00Z`, "atividade-asg.jpg");
  await record(slots.ana[0], people.ana, aldeota.id, `${TODAY}T10:10:00Z`);
  await record(slots.bruno[0], people.bruno, messejana.id, `${TODAY}T10:15:00Z`, "atividade-bruno.jpg");
});

type Item = {
  id: number;
  empresa: string;
  ambiente: string;
  colaborador: string;
  tipo: string;
  horaIni: string;
  feito: boolean;
  fotos: number;
  foto: string | null;
};
const report = (query: string, token = tokens.admin) =>
  t.get(`/api/relatorios/atividades?dataIni=${TODAY}&dataFim=${TODAY}&${query}`, { token });
const itemsOf = (answer: { body: { items: Item[] } }) => answer.body.items;
const bookingIds = (answer: { body: { items: Item[] } }) => itemsOf(answer).map((item) => item.id);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const of = (...emails: string[]) => sorted(emails.flatMap((email) => slots[email]));

describe("GET /relatorios/atividades", () => {
  test("an administrator sees every slot of the company in the period, day and time order, with its status and photos", async () => {
    const answer = await report("");
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(6);
    expect(sorted(bookingIds(answer))).toEqual(of("asg", "ana", "bruno"));
    // 07:00 main slots first, then the 15:00 revisions.
    expect(itemsOf(answer).map((item) => item.tipo)).toEqual([
      "Principal",
      "Principal",
      "Principal",
      "Revisão",
      "Revisão",
      "Revisão",
    ]);
    const asg = itemsOf(answer).find((item) => item.id === slots.asg[0]);
    expect(asg).toEqual({
      id: slots.asg[0],
      empresa: "Filial Aldeota",
      ambiente: roomNames.asg,
      data: TODAY,
      horaIni: "07:00",
      horaFim: "07:30",
      tipo: "Principal",
      colaborador: "Sebastião ASG",
      feito: true,
      fotos: 1,
      foto: "atividade-asg.jpg",
    });
    const revision = itemsOf(answer).find((item) => item.id === slots.asg[1]);
    expect(revision).toMatchObject({ tipo: "Revisão", feito: false, fotos: 0, foto: null });
  });

  test.each([
    ["coordenador", ["asg", "ana"]],
    ["semnivel", ["asg", "ana"]],
    ["cliente", ["asg", "ana"]],
    ["auditor", ["asg", "ana", "bruno"]],
    ["asg", ["asg"]],
    ["outra", []],
  ])("the %s sees the slots of %j", async (who, expected) => {
    const answer = await report("", tokens[who]);
    expect(answer.status).toBe(200);
    expect(sorted(bookingIds(answer))).toEqual(of(...expected));
    expect(answer.body.total).toBe(expected.length * 2);
  });

  test("the client (roleId 7) sees its client branch only: Filial Aldeota; another branch is 404", async () => {
    const answer = await report("atividade=todos", tokens.cliente);
    expect(new Set(itemsOf(answer).map((item) => item.empresa))).toEqual(new Set(["Filial Aldeota"]));
    expect((await report(`filialClientId=${ids.aldeota}`, tokens.cliente)).status).toBe(200);
    expect((await report(`filialClientId=${ids.messejana}`, tokens.cliente)).status).toBe(404);
    expect((await report(`filialId=${ids.messejana}`, tokens.cliente)).status).toBe(404);
  });

  test("one branch; another company's branch is 404", async () => {
    expect(sorted(bookingIds(await report(`filialId=${ids.messejana}`)))).toEqual(of("bruno"));
    expect(sorted(bookingIds(await report(`filialId=-1`)))).toEqual(of("asg", "ana", "bruno"));
    expect((await report(`filialId=${ids.aldeota}`, tokens.outra)).status).toBe(404);
    expect((await report(`filialId=${ids.recife}`)).status).toBe(404);
  });

  test.each<ActivityFilter>(ACTIVITY_FILTER_VALUES)(
    "atividade=%s: each row as the §4 rule says, and only those",
    async (filter) => {
      const all = itemsOf(await report("atividade=todos"));
      const answer = await report(`atividade=${filter}`);
      expect(answer.status).toBe(200);
      const counts = (item: Item) => ({ historico: item.feito ? 1 : 0, fotos: item.fotos });
      const expected = all.filter((item) => activityMatches(filter, counts(item))).map((item) => item.id);
      expect(bookingIds(answer)).toEqual(expected);
      expect(answer.body.total).toBe(expected.length);
    },
  );

  test("the filters' rows by hand: done, pending, done with a photo", async () => {
    expect(sorted(bookingIds(await report("atividade=feitas")))).toEqual(
      sorted([slots.asg[0], slots.ana[0], slots.bruno[0]]),
    );
    expect(sorted(bookingIds(await report("atividade=pendentes")))).toEqual(
      sorted([slots.asg[1], slots.ana[1], slots.bruno[1]]),
    );
    expect(sorted(bookingIds(await report("atividade=imagens")))).toEqual(sorted([slots.asg[0], slots.bruno[0]]));
    expect(ACTIVITY_FILTER_VALUES).toEqual(["todos", "feitas", "pendentes", "imagens"]);
  });

  test("an unknown activity filter is 400", async () => {
    const answer = await report("atividade=algumas");
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("Filtro de atividades inválido");
  });

  test("q: a case- and accent-insensitive part of the branch, the room or the collaborator", async () => {
    expect(sorted(bookingIds(await report("q=MESSEJANA")))).toEqual(of("bruno"));
    expect(sorted(bookingIds(await report("q=ana%20souza")))).toEqual(of("ana"));
    expect(sorted(bookingIds(await report("q=SEBASTIAO")))).toEqual(of("asg"));
    const room = itemsOf(await report(`q=${encodeURIComponent(roomNames.ana.toUpperCase())}`));
    expect(room.map((item) => item.id)).toEqual(expect.arrayContaining(slots.ana));
    for (const item of room) expect(item.ambiente.toLowerCase()).toContain(roomNames.ana.toLowerCase());
    expect(itemsOf(await report("q=nada-assim-existe"))).toEqual([]);
    // With the activity filter too.
    expect(bookingIds(await report("q=sebastiao&atividade=imagens"))).toEqual([slots.asg[0]]);
  });

  test("sorted by branch or room either way, and paged", async () => {
    const byBranch = itemsOf(await report("sort=empresa")).map((item) => item.empresa);
    expect(byBranch).toEqual([...Array(4).fill("Filial Aldeota"), ...Array(2).fill("Filial Messejana")]);
    const desc = itemsOf(await report("sort=empresa&dir=desc")).map((item) => item.empresa);
    expect(desc.slice(0, 2)).toEqual(["Filial Messejana", "Filial Messejana"]);
    const latest = itemsOf(await report("dir=desc"));
    expect(latest.map((item) => item.horaIni)).toEqual(["15:00", "15:00", "15:00", "07:00", "07:00", "07:00"]);
    const first = await report("size=20&page=1");
    expect(first.body).toMatchObject({ total: 6, page: 1, size: 20 });
    expect(itemsOf(first)).toHaveLength(6);
    const second = await report("size=20&page=2");
    expect(itemsOf(second)).toEqual([]);
    expect(second.body.total).toBe(6);
    expect((await report("size=7")).status).toBe(400);
  });

  test("a full page's total is counted; it equals a last page's, and the pages follow one another", async () => {
    // Ana's main slot copied to each of the 21 days before today: with today's two, at least 23 slots.
    const [main] = await t.db.selectFrom("bookings").selectAll().where("id", "=", slots.ana[0]).execute();
    const { id: _id, created_at: _created, updated_at: _updated, ...copy } = main;
    const added = await t.db
      .insertInto("bookings")
      .values(Array.from({ length: 21 }, (_, index) => ({ ...copy, data_agend: day(TODAY, -1 - index) })))
      .returning("id")
      .execute();
    try {
      const range = `dataIni=${day(TODAY, -21)}&dataFim=${TODAY}&q=ana%20souza`;
      const get = (query: string) => t.get(`/api/relatorios/atividades?${range}&${query}`, { token: tokens.admin });
      const all = await get("size=160");
      expect(all.body.items.length).toBeGreaterThanOrEqual(23);
      expect(all.body.items.length).toBeLessThan(160);
      expect(all.body.total).toBe(all.body.items.length);
      const first = await get("size=20&page=1");
      expect(first.body.total).toBe(all.body.total);
      const second = await get("size=20&page=2");
      expect(second.body.total).toBe(all.body.total);
      expect([...bookingIds(first), ...bookingIds(second)]).toEqual(bookingIds(all));
      expect(bookingIds(all)).toEqual(expect.arrayContaining(added.map((row) => row.id)));
    } finally {
      await t.db
        .deleteFrom("bookings")
        .where(
          "id",
          "in",
          added.map((row) => row.id),
        )
        .execute();
    }
  });

  test("yesterday holds none of today's slots", async () => {
    const yesterday = day(TODAY, -1);
    const answer = await t.get(`/api/relatorios/atividades?dataIni=${yesterday}&dataFim=${yesterday}`, {
      token: tokens.admin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.items.filter((item: Item) => of("asg", "ana", "bruno").includes(item.id))).toEqual([]);
  });

  test.each([
    ["no start date", `dataFim=${TODAY}`, "Intervalo de datas inválidos, favor verificar"],
    ["no end date", `dataIni=${TODAY}`, "Intervalo de datas inválidos, favor verificar"],
    [
      "a date after today",
      `dataIni=${TODAY}&dataFim=${day(TODAY, 1)}`,
      "Intervalo de datas inválidos, favor verificar",
    ],
    [
      "an end before the start",
      `dataIni=${day(TODAY, -1)}&dataFim=${day(TODAY, -2)}`,
      "Intervalo de datas inválidos, favor verificar",
    ],
    [
      "more than a year",
      `dataIni=${day(TODAY, -400)}&dataFim=${TODAY}`,
      "O período de um relatório pode ter no máximo um ano.",
    ],
  ])("%s is 400 with the §5 message", async (_case, range, message) => {
    const answer = await t.get(`/api/relatorios/atividades?${range}`, { token: tokens.admin });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
  });

  test("an inactive booking is in no view and its detail is 404", async () => {
    await t.db.updateTable("bookings").set({ active: false }).where("id", "=", slots.bruno[1]).execute();
    try {
      expect(bookingIds(await report(""))).not.toContain(slots.bruno[1]);
      expect((await t.get(`/api/relatorios/atividades/${slots.bruno[1]}`, { token: tokens.admin })).status).toBe(404);
    } finally {
      await t.db.updateTable("bookings").set({ active: true }).where("id", "=", slots.bruno[1]).execute();
    }
  });
});

describe("GET /relatorios/atividades/{id}", () => {
  const detail = (id: number, token = tokens.admin, query = "") =>
    t.get(`/api/relatorios/atividades/${id}${query}`, { token });

  test("a done slot: date, range, Feito, user, each procedure with its performed times and photo", async () => {
    const answer = await detail(slots.asg[0]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: slots.asg[0],
      data: TODAY,
      horaIni: "07:00",
      horaFim: "07:30",
      tipo: "Principal",
      empresa: "Filial Aldeota",
      ambiente: roomNames.asg,
      colaborador: "Sebastião ASG",
      feito: true,
      status: "Feito",
    });
    const started = new Date(`${TODAY}T10:00:00Z`).toISOString();
    const first = new Date(`${TODAY}T10:05:00Z`).toISOString();
    const second = new Date(`${TODAY}T10:20:00Z`).toISOString();
    expect(answer.body.atividades).toEqual([
      expect.objectContaining({ procedimento: procedureName, inicio: started, fim: first, observacao: "Sem foto" }),
      expect.objectContaining({ procedimento: procedureName, inicio: first, fim: second, foto: "atividade-asg.jpg" }),
    ]);
  });

  test("a pending slot: Pendente, no activities", async () => {
    const answer = await detail(slots.ana[1]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "Pendente", feito: false, atividades: [] });
  });

  test.each([
    ["coordenador", "asg", 0, 200],
    ["coordenador", "bruno", 0, 404],
    ["cliente", "ana", 0, 200],
    ["cliente", "bruno", 0, 404],
    ["auditor", "bruno", 0, 200],
    ["asg", "asg", 1, 200],
    ["asg", "ana", 0, 404],
    ["outra", "asg", 0, 404],
  ])("the %s reading %s's slot %i: %i", async (who, owner, slot, status) => {
    expect((await detail(slots[owner][slot], tokens[who])).status).toBe(status);
  });

  test("another tenant's id, an unknown id or another branch's scope is 404", async () => {
    const foreign = await t.db
      .selectFrom("bookings")
      .select("id")
      .where("company_id", "=", ids.other)
      .executeTakeFirst();
    if (foreign) expect((await detail(foreign.id)).status).toBe(404);
    expect((await detail(slots.asg[0], tokens.outra)).status).toBe(404);
    expect((await detail(2_000_000_000)).status).toBe(404);
    expect((await detail(slots.asg[0], tokens.admin, `?filialId=${ids.messejana}`)).status).toBe(404);
    expect((await detail(slots.asg[0], tokens.admin, `?filialId=${ids.aldeota}`)).status).toBe(200);
  });
});
