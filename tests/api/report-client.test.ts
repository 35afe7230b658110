/**
 * The client report's call (GET /api/relatorios/cliente; issue 24 part 3; docs/decisions/006-client-report.md): the
 * numbers on cleanings made through the execution API (and its service with a chosen clock, where the test needs a
 * start at an exact minute), each role's branch, the §5 period errors, and the company's late tolerance (the main
 * company's edit call) moving a cleaning from 'no prazo' to 'com atraso'.
 */
import { addDays, formatISO, parseISO } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { countSlots, groupFigures, scheduledStart, sumCounts } from "../../api/domain/client-report.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { finishSlot, startSlot } from "../../api/services/execution.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

const TODAY = businessToday();
const day = (offset: number) => formatISO(addDays(parseISO(TODAY), offset), { representation: "date" });
const D1 = day(-1);
const D2 = day(-2);
const PERIOD = `dataIni=${D2}&dataFim=${TODAY}`;
const tokens: Record<string, string> = {};
const ids = {} as Awaited<ReturnType<typeof demoIds>>;
let asg: number;
let hospital: number;
const rooms = { r: 0, r2: 0 };
const roomNames = { r: "Cliente R Sala de reunião", r2: "Cliente R2 Recepção" };
let procedureOfR: number;

const get = (path: string, token = tokens.admin) => t.get(path, { token });
const report = (query: string, token = tokens.admin) => get(`/api/relatorios/cliente?${query}`, token);
const exec = (path: string, body?: unknown) => t.post(`/api/execution/bookings/${path}`, body, { token: tokens.asg });

/** A new room of Aldeota with the procedures of a demo room (none of the demo's history). */
async function newRoom(name: string) {
  const model = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .where("e.branch_id", "=", ids.aldeota)
    .where("e.deleted_at", "is", null)
    .select(["e.id", "e.category_id", "e.sector_id", "e.company_id"])
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  const room = await t.db
    .insertInto("environments")
    .values({
      name,
      andar: "Térreo",
      branch_id: ids.aldeota,
      company_id: model.company_id,
      category_id: model.category_id,
      sector_id: model.sector_id,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const links = await t.db
    .selectFrom("environment_procedures")
    .select(["procedure_id", "mandatory"])
    .where("environment_id", "=", model.id)
    .execute();
  await t.db
    .insertInto("environment_procedures")
    .values(links.map((link) => ({ ...link, environment_id: room.id })))
    .execute();
  return room.id;
}

/** An agenda for today (07:00-07:30 and a revision 15:00-15:30) of the ASG in `room`; its two bookings, moved to `on`. */
async function slots(room: number, on: string) {
  const agenda = await saveDayAgenda(t, tokens.admin, {
    branch: ids.aldeota,
    environment: room,
    user: asg,
    day: TODAY,
    slots: [
      ["07:00", "07:30"],
      ["15:00", "15:30"],
    ],
  });
  // Agendas start today at the earliest: an earlier day's bookings are today's moved back (as the history tests do).
  await t.db.updateTable("bookings").set({ data_agend: on }).where("agenda_id", "=", agenda).execute();
  const [main, revision] = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", agenda)
    .orderBy("slot")
    .execute();
  return { main: main.id, revision: revision.id };
}

const minutesAfter = (dayText: string, time: string, minutes: number) =>
  new Date(scheduledStart(dayText, time).getTime() + minutes * 60_000);

beforeAll(async () => {
  for (const who of ["principal", "admin", "coordenador", "cliente", "asg", "semnivel", "outra"]) {
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
  }
  Object.assign(ids, await demoIds(t.db));
  hospital = ids.hospital;
  asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  rooms.r = await newRoom(roomNames.r);
  rooms.r2 = await newRoom(roomNames.r2);
  procedureOfR = (
    await t.db
      .selectFrom("environment_procedures")
      .select("procedure_id")
      .where("environment_id", "=", rooms.r)
      .orderBy("procedure_id")
      .executeTakeFirstOrThrow()
  ).procedure_id;
  const executor = { userId: asg, companyId: hospital };

  // Room R, two days ago: the main slot started today (late by days) with a photo and finished; the revision
  // reported incomplete with a reason. All through the execution API.
  const a1 = await slots(rooms.r, D2);
  expect((await exec(`${a1.main}/start`)).status).toBe(200);
  const form = new FormData();
  form.set("procedureId", String(procedureOfR));
  form.set("photo", new File([tinyPng() as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" }));
  const recorded = await t.call("POST", `/api/execution/bookings/${a1.main}/procedures`, {
    token: tokens.asg,
    form,
  });
  expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
  expect((await exec(`${a1.main}/finish`)).status).toBe(200);
  const incomplete = await exec(`${a1.revision}/incomplete`, { justificativa: "Sala trancada, sem chave" });
  expect(incomplete.status, JSON.stringify(incomplete.body)).toBe(200);

  // Room R, yesterday: the main slot never started; the revision started (today) and never closed.
  const a2 = await slots(rooms.r, D1);
  expect((await exec(`${a2.revision}/start`)).status).toBe(200);

  // Room R2, today: the main slot started 5 minutes after 07:00 and finished; the revision not started yet.
  const a3 = await slots(rooms.r2, TODAY);
  await startSlot(t.db, executor, a3.main, minutesAfter(TODAY, "07:00", 5));
  await finishSlot(t.db, executor, a3.main, minutesAfter(TODAY, "07:00", 30));

  // Room R2, two days ago: the main slot started at the limit exactly (07:15), the revision a minute past it (15:16).
  const a4 = await slots(rooms.r2, D2);
  await startSlot(t.db, executor, a4.main, minutesAfter(D2, "07:00", 15));
  await finishSlot(t.db, executor, a4.main, minutesAfter(D2, "07:00", 40));
  await startSlot(t.db, executor, a4.revision, minutesAfter(D2, "15:00", 16));
  await finishSlot(t.db, executor, a4.revision, minutesAfter(D2, "15:00", 40));
});

/** The booking rows the report must count, read raw, with the domain's formula over them (the SQL's check). */
async function expectedSummary(branch: number, from: string, to: string, tolerance: number, userId?: number) {
  const rows = await t.db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .select(["b.data_agend", "b.hora_ini", "b.status", "b.start_date"])
    .where("b.branch_id", "=", branch)
    .where("b.data_agend", ">=", from)
    .where("b.data_agend", "<=", to)
    .where("b.active", "=", true)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    .$if(userId !== undefined, (qb) => qb.where("b.user_id", "=", userId!))
    .execute();
  return groupFigures(
    countSlots(
      rows.map((row) => ({
        dataAgend: row.data_agend,
        horaIni: row.hora_ini,
        status: row.status,
        startDate: row.start_date,
      })),
      { today: TODAY, toleranceMinutes: tolerance },
    ),
  );
}

const roomOf = (body: { ambientes: { ambienteId: number }[] }, id: number) =>
  body.ambientes.find((room) => room.ambienteId === id);

describe("GET /relatorios/cliente: the numbers", () => {
  test("each room's cleanings, one outcome each (tolerance 15 min)", async () => {
    const answer = await report(`${PERIOD}&filialId=${ids.aldeota}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.filial).toEqual({ id: ids.aldeota, nome: "Filial Aldeota" });
    expect(answer.body.periodo).toEqual({ dataIni: D2, dataFim: TODAY, contadoAte: TODAY });
    expect(answer.body.toleranciaMinutos).toBe(15);
    expect(roomOf(answer.body, rooms.r)).toEqual({
      ambienteId: rooms.r,
      ambiente: roomNames.r,
      agendadas: 4,
      concluidas: 1,
      noPrazo: 0,
      atrasadas: 1,
      naoRealizadas: 3,
      naoIniciadas: 1,
      incompletas: 1,
      naoConcluidas: 1,
      pendentes: 0,
      percentuais: { concluidas: 25, noPrazo: 0, atrasadas: 25, naoRealizadas: 75, pendentes: 0 },
    });
    expect(roomOf(answer.body, rooms.r2)).toMatchObject({
      agendadas: 4,
      concluidas: 3,
      noPrazo: 2,
      atrasadas: 1,
      naoRealizadas: 0,
      pendentes: 1,
      percentuais: { concluidas: 75, noPrazo: 50, atrasadas: 25, naoRealizadas: 0, pendentes: 25 },
    });
  });

  test("the summary, the rooms and the weeks add up, and equal the formula over the raw rows", async () => {
    const { body } = await report(`${PERIOD}&filialId=${ids.aldeota}`);
    const expected = await expectedSummary(ids.aldeota, D2, TODAY, 15);
    expect(body.resumo).toEqual({
      agendadas: expected.agendadas,
      concluidas: expected.concluidas,
      noPrazo: expected.noPrazo,
      atrasadas: expected.atrasadas,
      naoRealizadas: expected.naoRealizadas,
      naoIniciadas: expected.naoIniciadas,
      incompletas: expected.incompletas,
      naoConcluidas: expected.naoConcluidas,
      pendentes: expected.pendentes,
      percentuais: expected.percentuais,
    });
    const counts = (list: typeof body.ambientes) =>
      sumCounts(
        list.map((row: typeof body.resumo) => ({
          agendadas: row.agendadas,
          noPrazo: row.noPrazo,
          atrasadas: row.atrasadas,
          naoIniciadas: row.naoIniciadas,
          incompletas: row.incompletas,
          naoConcluidas: row.naoConcluidas,
          pendentes: row.pendentes,
        })),
      );
    expect(counts(body.ambientes)).toEqual(counts([body.resumo]));
    expect(counts(body.semanas)).toEqual(counts([body.resumo]));
    expect(body.semanas[0].inicio).toBe(D2);
    expect(body.semanas.at(-1).fim).toBe(TODAY);
  });

  test("the incidents with their reasons, and the photos of each room", async () => {
    const { body } = await report(`${PERIOD}&filialId=${ids.aldeota}`);
    const ours = body.ocorrencias.items.find((item: { ambiente: string }) => item.ambiente === roomNames.r);
    expect(ours).toMatchObject({
      data: D2,
      tipo: "Revisão",
      horaIni: "15:00",
      horaFim: "15:30",
      colaborador: "Sebastião ASG",
      justificativa: "Sala trancada, sem chave",
    });
    const incompleteRows = await expectedSummary(ids.aldeota, D2, TODAY, 15);
    expect(body.ocorrencias.total).toBe(incompleteRows.incompletas);
    expect(body.ocorrencias.items.length).toBe(Math.min(30, incompleteRows.incompletas));
    const photos = body.fotos.find((room: { ambienteId: number }) => room.ambienteId === rooms.r);
    expect(photos.fotos).toHaveLength(1);
    expect(photos.fotos[0]).toMatchObject({ data: D2 });
    expect((await get(`/api/files/photos/${photos.fotos[0].nome}`, tokens.cliente)).status).toBe(200);
    for (const room of body.fotos) expect(room.fotos.length).toBeLessThanOrEqual(2);
  });

  test("a period before the rooms' cleanings: they are not in it; an empty branch answers zeros", async () => {
    const { body } = await report(`dataIni=${D1}&dataFim=${D1}&filialId=${ids.aldeota}`);
    expect(roomOf(body, rooms.r)).toMatchObject({ agendadas: 2, naoIniciadas: 1, naoConcluidas: 1 });
    expect(roomOf(body, rooms.r2)).toBeUndefined();
    const empty = await report(`dataIni=${D1}&dataFim=${D1}&filialId=${ids.caucaia}`);
    expect(empty.status).toBe(200);
    expect(empty.body.resumo).toMatchObject({ agendadas: 0, percentuais: { concluidas: null } });
    expect(empty.body.ambientes).toEqual([]);
    expect(empty.body.semanas).toHaveLength(1);
    expect(empty.body.ocorrencias).toEqual({ items: [], total: 0 });
  });
});

describe("GET /relatorios/cliente: who sees which branch", () => {
  test("company-wide users (roles 1 and 2) name one branch: none or 'Todos' is 400", async () => {
    for (const who of ["principal", "admin"]) {
      expect((await report(`${PERIOD}&filialId=${ids.aldeota}`, tokens[who])).status).toBe(200);
      for (const query of [PERIOD, `${PERIOD}&filialId=-1`]) {
        const answer = await report(query, tokens[who]);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          message: "Escolha uma filial.",
          fieldErrors: { filialId: ["Escolha uma filial."] },
        });
      }
    }
    expect((await report(`${PERIOD}&filialId=${ids.messejana}`)).body.filial.nome).toBe("Filial Messejana");
  });

  test("the client (roleId 7) reads its branch only, with the numbers a manager reads", async () => {
    const own = await report(PERIOD, tokens.cliente);
    expect(own.status).toBe(200);
    expect(own.body.filial).toEqual({ id: ids.aldeota, nome: "Filial Aldeota" });
    const manager = await report(`${PERIOD}&filialId=${ids.aldeota}`);
    expect(own.body).toEqual(manager.body);
    expect((await report(`${PERIOD}&filialClientId=${ids.aldeota}`, tokens.cliente)).status).toBe(200);
    for (const query of [`filialId=${ids.messejana}`, `filialClientId=${ids.messejana}`, `filialId=${ids.recife}`]) {
      const answer = await report(`${PERIOD}&${query}`, tokens.cliente);
      expect(answer.status, query).toBe(404);
    }
  });

  test("a coordinator (roleId 3) and a user without a role read their own branch; another is 404", async () => {
    for (const who of ["coordenador", "semnivel"]) {
      const own = await report(PERIOD, tokens[who]);
      expect(own.status).toBe(200);
      expect(own.body.filial.nome).toBe("Filial Aldeota");
      expect((await report(`${PERIOD}&filialId=${ids.messejana}`, tokens[who])).status).toBe(404);
    }
  });

  test("field staff read their own work only", async () => {
    const answer = await report(PERIOD, tokens.asg);
    expect(answer.status).toBe(200);
    const expected = await expectedSummary(ids.aldeota, D2, TODAY, 15, asg);
    expect(answer.body.resumo).toMatchObject({ agendadas: expected.agendadas, concluidas: expected.concluidas });
    expect(roomOf(answer.body, rooms.r)).toMatchObject({ agendadas: 4 });
  });

  test("another tenant's branch or company is 404", async () => {
    expect((await report(`${PERIOD}&filialId=${ids.aldeota}`, tokens.outra)).status).toBe(404);
    expect((await report(`${PERIOD}&companyId=${hospital}`, tokens.outra)).status).toBe(404);
    expect((await report(`${PERIOD}&filialId=${ids.recife}`)).status).toBe(404);
  });

  test("signed out is 401", async () => {
    expect((await t.get(`/api/relatorios/cliente?${PERIOD}`)).status).toBe(401);
  });
});

describe("GET /relatorios/cliente: the period (spec 001 §5)", () => {
  test.each([
    [`dataIni=${TODAY}&dataFim=${day(1)}`, "Intervalo de datas inválidos, favor verificar"],
    [`dataIni=${day(1)}&dataFim=${day(1)}`, "Intervalo de datas inválidos, favor verificar"],
    [`dataIni=${TODAY}&dataFim=${D1}`, "Intervalo de datas inválidos, favor verificar"],
    [`dataIni=2024-02-30&dataFim=${TODAY}`, "Data inválida"],
    [`dataIni=${day(-400)}&dataFim=${TODAY}`, "O período de um relatório pode ter no máximo um ano."],
  ])("%s → 400 '%s'", async (query, message) => {
    const answer = await report(`${query}&filialId=${ids.aldeota}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
  });

  test("a year exactly is accepted", async () => {
    expect((await report(`dataIni=${day(-365)}&dataFim=${TODAY}&filialId=${ids.aldeota}`)).status).toBe(200);
  });
});

describe("the main company's late tolerance (PUT /empresas, GET /empresas/{id})", () => {
  async function editBody(changes: Record<string, unknown>) {
    const company = (await get(`/api/empresas/${hospital}`, tokens.principal)).body;
    return {
      id: company.ID,
      nome: company.NOME,
      cnpj: company.CNPJ,
      endereco: company.ENDERECO,
      numero: company.NUMERO,
      bairro: company.BAIRRO,
      cidade: company.CIDADE,
      ativo: company.ATIVO,
      max_number_users: company.max_number_users,
      quadroIds: company.quadros.map((board: { ID: number }) => board.ID),
      ...changes,
    };
  }

  test("15 by default; 0 to 240 whole minutes; absent keeps it; roleId 1 only; the report follows it", async () => {
    expect((await get(`/api/empresas/${hospital}`, tokens.principal)).body.late_tolerance_minutes).toBe(15);
    for (const wrong of [-1, 241, 2.5, "quinze"]) {
      const answer = await t.put("/api/empresas", await editBody({ late_tolerance_minutes: wrong }), {
        token: tokens.principal,
      });
      expect(answer.status, String(wrong)).toBe(400);
      expect(answer.body.fieldErrors.late_tolerance_minutes).toEqual(["Digite um número inteiro de 0 a 240"]);
    }
    const denied = await t.put("/api/empresas", await editBody({ late_tolerance_minutes: 14 }), {
      token: tokens.admin,
    });
    expect(denied.status).toBe(403);

    // 14 minutes: room R2's start at 07:15 exactly is now late too.
    const saved = await t.put("/api/empresas", await editBody({ late_tolerance_minutes: 14 }), {
      token: tokens.principal,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.late_tolerance_minutes).toBe(14);
    // Left out of the payload (editBody names every field but the tolerance): the saved value stays.
    const unchanged = await editBody({});
    expect((await t.put("/api/empresas", unchanged, { token: tokens.principal })).body.late_tolerance_minutes).toBe(14);
    const after = await report(`${PERIOD}&filialId=${ids.aldeota}`);
    expect(after.body.toleranciaMinutos).toBe(14);
    expect(roomOf(after.body, rooms.r2)).toMatchObject({ noPrazo: 1, atrasadas: 2 });
    const expected = await expectedSummary(ids.aldeota, D2, TODAY, 14);
    expect(after.body.resumo).toMatchObject({ noPrazo: expected.noPrazo, atrasadas: expected.atrasadas });

    // 0 minutes: every start after the minute is late; back to 15 leaves the data as the other tests expect.
    await t.put("/api/empresas", await editBody({ late_tolerance_minutes: 0 }), { token: tokens.principal });
    expect(roomOf((await report(`${PERIOD}&filialId=${ids.aldeota}`)).body, rooms.r2)).toMatchObject({
      noPrazo: 0,
      atrasadas: 3,
    });
    await t.put("/api/empresas", await editBody({ late_tolerance_minutes: 15 }), { token: tokens.principal });
  });
});
