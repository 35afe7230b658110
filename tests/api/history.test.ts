/**
 * History reads (spec 001 §7 GET /historic/v2/company, /agenda, /byEnvironment/{id}; docs/scheduling.md 'History and
 * the execution API'): history made through the execution API (over HTTP by the ASG, and through the service with a
 * clock, as the simulator will), read back by date range, branch, agenda and environment, within each caller's scope.
 */
import { addDays, formatISO, parseISO } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { HistoryEntry } from "../../api/routes/history.ts";
import { finishSlot, recordProcedure, reportIncomplete, startSlot } from "../../api/services/execution.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

const TODAY = businessToday();
const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });
const LATER = day(TODAY, 2);

const tokens: Record<string, string> = {};
const ids = { hospital: 0, other: 0, aldeota: 0, messejana: 0 };
const env = { aldeota: 0, messejana: 0 };
const agendas = { aldeota: 0, messejana: 0 };
const procedureOf: Record<number, { id: number; name: string }> = {};
let asg = 0;
let bruno = 0;

async function environmentWithProcedure(branchId: number) {
  const row = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .select(["e.id", "p.id as procedure_id", "p.name"])
    .where("e.branch_id", "=", branchId)
    .where("e.deleted_at", "is", null)
    .orderBy("e.id")
    .orderBy("p.id")
    .executeTakeFirstOrThrow();
  procedureOf[row.id] = { id: row.procedure_id, name: row.name };
  return row.id;
}

async function createAgenda(branchId: number, environmentId: number, userId: number) {
  const answer = await t.post(
    "/api/agendas/v2/saveAgenda",
    [
      {
        Id_EmpresasFilial: branchId,
        Id_Environments: environmentId,
        Id_Users: userId,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: "08:00",
          hora_base_final: "09:00",
          Revisoes: [],
        },
        revisionPhotos: false,
        vigIni: TODAY,
        vigFim: LATER,
      },
    ],
    { token: tokens.admin },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body[0].ID as number;
}

const bookingOf = async (agendaId: number, date: string) =>
  (
    await t.db
      .selectFrom("bookings")
      .select("id")
      .where("agenda_id", "=", agendaId)
      .where("data_agend", "=", date)
      .executeTakeFirstOrThrow()
  ).id;

/** 09:00 in Fortaleza (UTC-3) of a business date. */
const nineOn = (date: string, minutes = 0) => new Date(`${date}T12:${String(minutes).padStart(2, "0")}:00Z`);

beforeAll(async () => {
  Object.assign(ids, await demoIds(t.db));
  for (const email of ["admin", "coordenador", "cliente", "outra", "asg"]) {
    tokens[email] = await t.signIn(`${email}@demo.com.br`);
  }
  asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  bruno = (await userByEmail(t.db, "bruno@demo.com.br")).id;
  env.aldeota = await environmentWithProcedure(ids.aldeota);
  env.messejana = await environmentWithProcedure(ids.messejana);
  agendas.aldeota = await createAgenda(ids.aldeota, env.aldeota, asg);
  agendas.messejana = await createAgenda(ids.messejana, env.messejana, bruno);

  // Today in Aldeota: the ASG's phone, over the API.
  const today = await bookingOf(agendas.aldeota, TODAY);
  expect((await t.post(`/api/execution/bookings/${today}/start`, undefined, { token: tokens.asg })).status).toBe(200);
  const form = new FormData();
  form.set("procedureId", String(procedureOf[env.aldeota].id));
  form.set("observacao", "Tudo limpo");
  form.set("photo", new File([tinyPng() as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" }));
  const recorded = await t.call("POST", `/api/execution/bookings/${today}/procedures`, { token: tokens.asg, form });
  expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
  expect((await t.post(`/api/execution/bookings/${today}/finish`, undefined, { token: tokens.asg })).status).toBe(200);

  // The day after tomorrow in Aldeota and today in Messejana: the service with a clock, as the simulator will.
  const deps = { db: t.db, storage: createDiskStorage(t.storageDir) };
  const later = await bookingOf(agendas.aldeota, LATER);
  const asgExecutor = { userId: asg, companyId: ids.hospital };
  await startSlot(t.db, asgExecutor, later, nineOn(LATER));
  await recordProcedure(deps, asgExecutor, later, { procedureId: procedureOf[env.aldeota].id }, nineOn(LATER, 10));
  await reportIncomplete(t.db, asgExecutor, later, "Faltou material", nineOn(LATER, 20));

  const messejana = await bookingOf(agendas.messejana, TODAY);
  const brunoExecutor = { userId: bruno, companyId: ids.hospital };
  await startSlot(t.db, brunoExecutor, messejana, nineOn(TODAY));
  await recordProcedure(
    deps,
    brunoExecutor,
    messejana,
    { procedureId: procedureOf[env.messejana].id },
    nineOn(TODAY, 5),
  );
  await finishSlot(t.db, brunoExecutor, messejana, nineOn(TODAY, 30));
});

const read = async (path: string, token = tokens.admin) => {
  const answer = await t.get(`/api/historic/v2/${path}`, { token });
  return {
    status: answer.status,
    body: answer.body,
    /** The rows of a 200: reading them expects one (an empty list is not to pass for a 400 or a 404). */
    get rows() {
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
      return HistoryEntry.array().parse(answer.body);
    },
  };
};
const summary = (rows: HistoryEntry[]) =>
  rows.map((row) => [row.Agendamento.Environment.id, row.Agendamento.dataAgend, row.Agendamento.status]);

describe("GET /historic/v2/company", () => {
  test("the company's history of a range, in day order, with the booking and its outcome", async () => {
    const today = await read(`company?companyId=${ids.hospital}&dataIni=${TODAY}&dataFim=${TODAY}`);
    expect(today.status, JSON.stringify(today.body)).toBe(200);
    expect(summary(today.rows).sort()).toEqual(
      [
        [env.aldeota, TODAY, "Completo"],
        [env.messejana, TODAY, "Completo"],
      ].sort(),
    );
    const phone = today.rows.find((row) => row.Agendamento.Environment.id === env.aldeota)!;
    expect(phone).toMatchObject({
      userId: asg,
      nameUser: { name: "Sebastião ASG" },
      tasksId: procedureOf[env.aldeota].id,
      Procedure: procedureOf[env.aldeota],
      observacao: "Tudo limpo",
      revisionId: null,
      Agendamento: { agendaId: agendas.aldeota, companyId: ids.aldeota, slot: 0, type: "Principal", horaIni: "08:00" },
    });
    // The phone's PNG is stored re-encoded as a JPEG without metadata (docs/photos.md 'Metadata').
    expect(phone.image).toMatch(/\.jpg$/);
    const simulated = today.rows.find((row) => row.Agendamento.Environment.id === env.messejana)!;
    expect(simulated.createdAt).toBe(nineOn(TODAY, 5).toISOString());
    expect(simulated.Agendamento.startDate).toBe(nineOn(TODAY).toISOString());
    expect(simulated.Agendamento.finishedAt).toBe(nineOn(TODAY, 30).toISOString());

    const both = await read(`company?dataIni=${TODAY}&dataFim=${LATER}`);
    expect(summary(both.rows)).toContainEqual([env.aldeota, LATER, "Incompleto"]);
    expect(both.rows.map((row) => row.Agendamento.dataAgend)).toEqual(
      [...both.rows.map((row) => row.Agendamento.dataAgend)].sort(),
    );
    expect(both.rows.find((row) => row.Agendamento.dataAgend === LATER)!.Agendamento.justificativa).toBe(
      "Faltou material",
    );

    const branch = await read(`company?filialId=${ids.messejana}&dataIni=${TODAY}&dataFim=${LATER}`);
    expect(summary(branch.rows)).toEqual([[env.messejana, TODAY, "Completo"]]);
    const all = await read(`company?filialId=-1&dataIni=${TODAY}&dataFim=${LATER}`);
    expect(all.rows).toHaveLength(3);
    const paged = await read(`company?dataIni=${TODAY}&dataFim=${LATER}&limit=2&page=2`);
    expect(paged.rows.map((row) => row.id)).toEqual([both.rows[2].id]);
  });

  test("dates: required, yyyy-MM-dd, the end not before the start", async () => {
    const reversed = await read(`company?dataIni=${LATER}&dataFim=${TODAY}`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe("Intervalo de datas inválidos, favor verificar");
    expect((await read(`company?dataFim=${TODAY}`)).status).toBe(400);
    expect((await read(`company?dataIni=31/02/2024&dataFim=${TODAY}`)).status).toBe(400);
  });
});

describe("GET /historic/v2/agenda and /historic/v2/byEnvironment/{id}", () => {
  test("one agenda's history of a range; agenda -1 answers nothing", async () => {
    const agenda = await read(`agenda?agendaId=${agendas.aldeota}&dataIni=${TODAY}&dataFim=${LATER}`);
    expect(agenda.status, JSON.stringify(agenda.body)).toBe(200);
    expect(summary(agenda.rows)).toEqual([
      [env.aldeota, TODAY, "Completo"],
      [env.aldeota, LATER, "Incompleto"],
    ]);
    expect((await read(`agenda?agendaId=${agendas.aldeota}&dataIni=${TODAY}&dataFim=${TODAY}`)).rows).toHaveLength(1);
    expect((await read(`agenda?agendaId=-1&dataIni=${TODAY}&dataFim=${TODAY}`)).rows).toEqual([]);
  });

  test("one environment's history: today and tomorrow, as the room page asks", async () => {
    const room = await read(`byEnvironment/${env.aldeota}?dataIni=${TODAY}&dataFim=${day(TODAY, 1)}`);
    expect(room.status, JSON.stringify(room.body)).toBe(200);
    expect(summary(room.rows)).toEqual([[env.aldeota, TODAY, "Completo"]]);
  });
});

describe("scope", () => {
  test("a branch coordinator and a client (roleId 7) read their branch only; others are 404", async () => {
    for (const who of ["coordenador", "cliente"]) {
      const token = tokens[who];
      const mine = await read(`company?dataIni=${TODAY}&dataFim=${LATER}`, token);
      expect(mine.status, who).toBe(200);
      expect(summary(mine.rows), who).toEqual([
        [env.aldeota, TODAY, "Completo"],
        [env.aldeota, LATER, "Incompleto"],
      ]);
      expect((await read(`company?filialId=${ids.aldeota}&dataIni=${TODAY}&dataFim=${TODAY}`, token)).status).toBe(200);
      for (const path of [
        `company?filialId=${ids.messejana}&dataIni=${TODAY}&dataFim=${TODAY}`,
        `company?filialClientId=${ids.messejana}&dataIni=${TODAY}&dataFim=${TODAY}`,
        `agenda?agendaId=${agendas.messejana}&dataIni=${TODAY}&dataFim=${TODAY}`,
        `byEnvironment/${env.messejana}?dataIni=${TODAY}&dataFim=${TODAY}`,
      ]) {
        const answer = await read(path, token);
        expect(answer.status, `${who} ${path}`).toBe(404);
      }
      expect((await read(`byEnvironment/${env.aldeota}?dataIni=${TODAY}&dataFim=${TODAY}`, token)).rows).toHaveLength(
        1,
      );
    }
  });

  test("another tenant's administrator gets 404 for every id of this one, and its own company has no history", async () => {
    for (const path of [
      `company?companyId=${ids.hospital}&dataIni=${TODAY}&dataFim=${TODAY}`,
      `company?filialId=${ids.aldeota}&dataIni=${TODAY}&dataFim=${TODAY}`,
      `agenda?agendaId=${agendas.aldeota}&dataIni=${TODAY}&dataFim=${TODAY}`,
      `byEnvironment/${env.aldeota}?dataIni=${TODAY}&dataFim=${TODAY}`,
    ]) {
      const answer = await read(path, tokens.outra);
      expect(answer.status, path).toBe(404);
      expect(JSON.stringify(answer.body)).not.toMatch(/Sebastião|Tudo limpo/);
    }
    expect((await read(`company?dataIni=${TODAY}&dataFim=${LATER}`, tokens.outra)).rows).toEqual([]);
  });
});
