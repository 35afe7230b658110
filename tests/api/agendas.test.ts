/**
 * Agendas and bookings (spec 001 §5, §7 agendas and bookings calls, §8; docs/scheduling.md): create with two items
 * (Semanal with two revisions, 12X) and the rows written, the rule messages, edit (deactivate, change times: open
 * bookings follow, past and started ones do not), delete a booking, the read forms (range, collaborator, pages), the
 * collaborator choices, roles and scope.
 */
import { addDays, formatISO, getDay, parseISO } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { type SaveAgendaInput } from "../../api/domain/schedule-payloads.ts";
import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts.ts";
import { AgendaDetail, AgendaSaved, Asg, Booking } from "../../api/routes/agendas.ts";
import { findAgenda, updateAgenda } from "../../api/services/scheduling.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const tokens: Record<string, string> = {};
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };
const env = { aldeota: 0, aldeota2: 0, messejana: 0, recife: 0 };
const users = { asg: 0, ana: 0, bruno: 0, admin: 0, outra: 0 };

const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });
/** The first Monday after today (Fortaleza): the validity of the main example starts there. */
const TODAY = businessToday();
let MONDAY = day(TODAY, 1);
while (getDay(parseISO(MONDAY)) !== 1) MONDAY = day(MONDAY, 1);

async function firstEnvironment(branchId: number, skip = 0) {
  const rows = await t.db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
  return rows[skip].id;
}

beforeAll(async () => {
  for (const email of ["admin", "coordenador", "auditor", "cliente", "outra"]) {
    tokens[email] = await t.signIn(`${email}@demo.com.br`);
  }
  Object.assign(ids, await demoIds(t.db));
  env.aldeota = await firstEnvironment(ids.aldeota);
  env.aldeota2 = await firstEnvironment(ids.aldeota, 1);
  env.messejana = await firstEnvironment(ids.messejana);
  env.recife = await firstEnvironment(ids.recife);
  users.asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  users.ana = (await userByEmail(t.db, "ana@demo.com.br")).id;
  users.bruno = (await userByEmail(t.db, "bruno@demo.com.br")).id;
  users.admin = (await userByEmail(t.db, "admin@demo.com.br")).id;
  users.outra = (await userByEmail(t.db, "outra@demo.com.br")).id;
});

/** A Semanal item (Segunda and Quarta, the main slot and two revisions) for two weeks from MONDAY in Aldeota. */
function semanal(overrides: Partial<SaveAgendaInput> = {}): SaveAgendaInput {
  return {
    Id_EmpresasFilial: ids.aldeota,
    Id_Environments: env.aldeota,
    Id_Users: users.asg,
    Periodicidade: {
      type: "sem",
      DIAS_SEMANA: "Segunda - Quarta",
      hora_base_inicial: "08:00",
      hora_base_final: "09:00",
      Revisoes: [
        { HORA_INICIAL: "10:00", HORA_FINAL: "10:30" },
        { HORA_INICIAL: "14:00", HORA_FINAL: "14:30" },
      ],
    },
    revisionPhotos: true,
    vigIni: MONDAY,
    vigFim: day(MONDAY, 13),
    ...overrides,
  };
}

function twelveX(overrides: Partial<SaveAgendaInput> = {}): SaveAgendaInput {
  return {
    Id_EmpresasFilial: ids.aldeota,
    Id_Environments: env.aldeota2,
    Id_Users: users.ana,
    Periodicidade: { type: "12X", DIAS_SEMANA: "", hora_base_inicial: "07:00", hora_base_final: "07:45", Revisoes: [] },
    revisionPhotos: false,
    vigIni: MONDAY,
    vigFim: day(MONDAY, 13),
    ...overrides,
  };
}

const save = (items: unknown, token = tokens.admin) => t.post("/api/agendas/v2/saveAgenda", items, { token });

async function bookingsOf(agendaId: number) {
  return t.db
    .selectFrom("bookings")
    .select(["id", "data_agend", "slot", "hora_ini", "hora_fim", "user_id", "environment_id", "active"])
    .where("agenda_id", "=", agendaId)
    .orderBy("data_agend")
    .orderBy("slot")
    .execute();
}

const list = (query: string, token = tokens.admin) => t.get(`/api/agendas/v2/Agendamentos/company?${query}`, { token });

describe("POST /agendas/v2/saveAgenda", () => {
  test("two items (Semanal with two revisions, 12X): the agendas, periodicities, revisions and bookings written", async () => {
    const answer = await save([semanal(), twelveX()]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const saved = AgendaSaved.parse(answer.body);
    // Semanal: 2 Mondays + 2 Wednesdays, 3 slots each; 12X: every other day of 14 days, 1 slot.
    expect(saved.map((agenda) => agenda.bookings)).toEqual([12, 7]);

    const semanalRows = await bookingsOf(saved[0].ID);
    expect([...new Set(semanalRows.map((row) => row.data_agend))]).toEqual([
      MONDAY,
      day(MONDAY, 2),
      day(MONDAY, 7),
      day(MONDAY, 9),
    ]);
    expect(semanalRows.slice(0, 3).map((row) => [row.slot, row.hora_ini, row.hora_fim])).toEqual([
      [0, "08:00:00", "09:00:00"],
      [1, "10:00:00", "10:30:00"],
      [2, "14:00:00", "14:30:00"],
    ]);
    expect(semanalRows.every((row) => row.environment_id === env.aldeota && row.user_id === users.asg)).toBe(true);

    const twelveRows = await bookingsOf(saved[1].ID);
    expect(twelveRows.map((row) => row.data_agend)).toEqual([0, 2, 4, 6, 8, 10, 12].map((n) => day(MONDAY, n)));

    // agendaId (ours, the dashboard's detail): that agenda's bookings only; to another tenant's caller it is 404.
    const range = `dataIni=${MONDAY}&dataFim=${day(MONDAY, 2)}&agendaId=${saved[0].ID}`;
    const own = Booking.array().parse((await list(range)).body);
    expect(own.map((booking) => [booking.agendaId, booking.dataAgend, booking.slot, booking.finishedAt])).toEqual(
      semanalRows
        .filter((row) => row.data_agend <= day(MONDAY, 2))
        .map((row) => [saved[0].ID, row.data_agend, row.slot, null]),
    );
    expect(await list(range, tokens.outra)).toMatchObject({ status: 404, body: { message: "Agenda não encontrada" } });

    const detail = AgendaDetail.parse((await t.get(`/api/agendas/${saved[0].ID}`, { token: tokens.admin })).body);
    expect(detail.Periodicidade).toMatchObject({
      type: "sem",
      DIAS_SEMANA: "Segunda - Quarta",
      HORA_BASE_INICIAL: "08:00",
      HORA_BASE_FINAL: "09:00",
    });
    expect(detail.Periodicidade.NOME).toMatch(/^AGENDA_.+_Sebastião ASG_\d{8}$/);
    expect(detail.Periodicidade.Revisoes.map((r) => [r.HORA_INICIAL, r.HORA_FINAL])).toEqual([
      ["10:00", "10:30"],
      ["14:00", "14:30"],
    ]);
    expect(detail).toMatchObject({ ATIVO: true, revisionPhotos: true, vigIni: MONDAY, vigFim: day(MONDAY, 13) });
  });

  test.each<[string, () => unknown, string]>([
    ["no items", () => [], T.itemsRequired],
    [
      "no weekday",
      () => [semanal({ Periodicidade: { ...semanal().Periodicidade, DIAS_SEMANA: "" } })],
      T.weekdaysRequired,
    ],
    [
      "start after end",
      () => [semanal({ Periodicidade: { ...semanal().Periodicidade, hora_base_final: "07:00" } })],
      "Horário incorreto - O 1º horário inicial está maior ou igual ao horário final",
    ],
    [
      "slots out of order",
      () => [
        semanal({
          Periodicidade: {
            ...semanal().Periodicidade,
            Revisoes: [
              { HORA_INICIAL: "14:00", HORA_FINAL: "14:30" },
              { HORA_INICIAL: "10:00", HORA_FINAL: "10:30" },
            ],
          },
        }),
      ],
      T.timeOrder,
    ],
    ["validity in the past", () => [semanal({ vigIni: day(TODAY, -1) })], T.vigIniPast],
    ["end before start", () => [semanal({ vigFim: day(MONDAY, -1) })], T.vigFimBeforeVigIni],
    ["over a year", () => [semanal({ vigFim: day(MONDAY, 367) })], T.rangeTooLong],
    ["no collaborator", () => [semanal({ Id_Users: undefined as unknown as number })], T.collaboratorRequired],
  ])("%s: 400 with the rule's message, nothing written", async (_name, body, message) => {
    const before = await t.db
      .selectFrom("agendas")
      .select(({ fn }) => fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    const answer = await save(body());
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    const after = await t.db
      .selectFrom("agendas")
      .select(({ fn }) => fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  test("one refused item writes nothing of the others (one transaction)", async () => {
    const before = await t.db
      .selectFrom("bookings")
      .select(({ fn }) => fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    const answer = await save([twelveX(), semanal({ Id_Users: users.admin })]);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(T.collaboratorNotSchedulable);
    const after = await t.db
      .selectFrom("bookings")
      .select(({ fn }) => fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  test("the collaborator must be an ASG of the agenda's branch, the environment of that branch", async () => {
    expect((await save([semanal({ Id_Users: users.bruno })])).body.message).toBe(T.collaboratorNotSchedulable);
    expect((await save([semanal({ Id_Environments: env.messejana })])).body.message).toBe(T.environmentOtherBranch);
  });

  test("roles: auditor (4) and client (7) are refused; a coordinator writes in the own branch only", async () => {
    expect((await save([semanal()], tokens.auditor)).status).toBe(403);
    expect((await save([semanal()], tokens.cliente)).status).toBe(403);
    expect((await save([semanal({ vigFim: MONDAY })], tokens.coordenador)).status).toBe(201);
    const other = await save(
      [semanal({ Id_EmpresasFilial: ids.messejana, Id_Environments: env.messejana, Id_Users: users.bruno })],
      tokens.coordenador,
    );
    expect(other.status).toBe(404);
  });

  test("another tenant's branch, environment or user: 404", async () => {
    expect((await save([semanal()], tokens.outra)).status).toBe(404);
    const recife = { Id_EmpresasFilial: ids.recife, Id_Environments: env.recife };
    expect((await save([semanal({ ...recife, Id_Users: users.asg })], tokens.outra)).status).toBe(404);
    expect((await save([semanal({ Id_Environments: env.recife })])).status).toBe(404);
    expect((await save([semanal({ Id_Users: users.outra })])).status).toBe(404);
  });
});

describe("PUT /agendas/updateAgenda and DELETE /agendas/Agendamentos/{id}", () => {
  let agendaId = 0;
  beforeAll(async () => {
    const answer = await save([semanal({ Id_Environments: env.aldeota2, Id_Users: users.ana })]);
    agendaId = AgendaSaved.parse(answer.body)[0].ID;
  });

  async function updateBody(overrides: Record<string, unknown> = {}, periodicity: Record<string, unknown> = {}) {
    const detail = AgendaDetail.parse((await t.get(`/api/agendas/${agendaId}`, { token: tokens.admin })).body);
    return {
      ID: detail.ID,
      ATIVO: detail.ATIVO,
      Id_EmpresasFilial: detail.Id_EmpresasFilial,
      Id_Environments: detail.Id_Environments,
      Id_Users: detail.Id_Users,
      revisionPhotos: detail.revisionPhotos,
      vigIni: detail.vigIni,
      vigFim: detail.vigFim,
      Periodicidade: {
        ID: detail.Periodicidade.ID,
        type: detail.Periodicidade.type,
        DIAS_SEMANA: detail.Periodicidade.DIAS_SEMANA,
        HORA_BASE_INICIAL: detail.Periodicidade.HORA_BASE_INICIAL,
        HORA_BASE_FINAL: detail.Periodicidade.HORA_BASE_FINAL,
        Revisoes: detail.Periodicidade.Revisoes,
        ...periodicity,
      },
      ...overrides,
    };
  }

  test("changing the times moves every open booking, ids kept", async () => {
    const before = await bookingsOf(agendaId);
    const answer = await t.put(
      "/api/agendas/updateAgenda",
      await updateBody({}, { HORA_BASE_INICIAL: "07:00", HORA_BASE_FINAL: "07:30" }),
      { token: tokens.admin },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.bookings).toEqual({ inserted: 0, updated: 4, removed: 0, kept: 0 });
    const after = await bookingsOf(agendaId);
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(after.filter((row) => row.slot === 0).every((row) => row.hora_ini === "07:00:00")).toBe(true);
  });

  test("an edit seen from the second week: past and started bookings keep their times, open ones follow", async () => {
    const rows = await bookingsOf(agendaId);
    const started = rows.find((row) => row.data_agend === day(MONDAY, 9) && row.slot === 0)!;
    await t.db
      .updateTable("bookings")
      .set({ status: "Andamento", start_date: new Date() })
      .where("id", "=", started.id)
      .execute();
    const scope = { level: "company" as const, companyId: ids.hospital };
    const { UpdateAgenda } = await import("../../api/domain/schedule-payloads.ts");
    const z = await import("zod/mini");
    const payload = z.parse(
      UpdateAgenda,
      await updateBody({}, { HORA_BASE_INICIAL: "06:00", HORA_BASE_FINAL: "06:30" }),
    );
    const result = await updateAgenda(t.db, scope, payload, { today: day(MONDAY, 7) });
    // From the second Monday: 2 days × 3 slots, one started.
    expect(result).toMatchObject({ updated: 1, inserted: 0, removed: 0, kept: 1 });
    const after = await bookingsOf(agendaId);
    const main = (date: string) => after.find((row) => row.data_agend === date && row.slot === 0)!.hora_ini;
    expect(main(MONDAY)).toBe("07:00:00");
    expect(main(day(MONDAY, 2))).toBe("07:00:00");
    expect(main(day(MONDAY, 7))).toBe("06:00:00");
    expect(main(day(MONDAY, 9))).toBe("07:00:00");
    expect((await findAgenda(t.db, scope, agendaId)).periodicity.hora_base_inicial).toBe("06:00:00");
  });

  test("dropping a revision and a weekday removes their open bookings", async () => {
    const body = await updateBody({}, { DIAS_SEMANA: "Segunda", Revisoes: [] });
    const answer = await t.put("/api/agendas/updateAgenda", body, { token: tokens.admin });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const after = await bookingsOf(agendaId);
    // The started Wednesday slot stays; everything else is Mondays' main slot.
    expect(after.map((row) => `${row.data_agend}#${row.slot}`)).toEqual([
      `${MONDAY}#0`,
      `${day(MONDAY, 7)}#0`,
      `${day(MONDAY, 9)}#0`,
    ]);
    expect(answer.body.Periodicidade.Revisoes).toEqual([]);
  });

  test("the edit rules answer 400 with their messages", async () => {
    const put = async (body: unknown) => t.put("/api/agendas/updateAgenda", body, { token: tokens.admin });
    expect((await put(await updateBody({ vigIni: day(MONDAY, -1) }))).body.message).toBe(T.vigIniBeforeOriginal);
    expect((await put(await updateBody({}, { DIAS_SEMANA: "" }))).body.message).toBe(T.weekdaysRequired);
    expect((await put(await updateBody({ Id_EmpresasFilial: ids.messejana }))).body.message).toBe(T.branchFixed);
    expect((await put(await updateBody({ Id_Environments: env.recife }))).status).toBe(404);
    expect((await put(await updateBody({ ID: 2_000_000_000 }))).status).toBe(404);
  });

  test("deactivating hides every booking from the lists; reactivating shows them again", async () => {
    const range = `dataIni=${MONDAY}&dataFim=${day(MONDAY, 13)}&asgId=${users.ana}`;
    const count = async () => (await list(range)).body.filter((b: Booking) => b.agendaId === agendaId).length;
    expect(await count()).toBe(3);
    const off = await t.put("/api/agendas/updateAgenda", await updateBody({ ATIVO: false }), { token: tokens.admin });
    expect(off.body.ATIVO).toBe(false);
    expect(await count()).toBe(0);
    await t.put("/api/agendas/updateAgenda", await updateBody({ ATIVO: true }), { token: tokens.admin });
    expect(await count()).toBe(3);
  });

  test("deleting a booking hides it; a second delete is 404; a later edit does not bring it back", async () => {
    const target = (await bookingsOf(agendaId)).find((row) => row.data_agend === MONDAY)!;
    expect(target.hora_ini).toBe("06:00:00");
    const answer = await t.delete(`/api/agendas/Agendamentos/${target.id}`, { token: tokens.admin });
    expect(answer.status).toBe(204);
    expect((await t.delete(`/api/agendas/Agendamentos/${target.id}`, { token: tokens.admin })).status).toBe(404);
    const shown = (await list(`dataIni=${MONDAY}&dataFim=${MONDAY}`)).body as Booking[];
    expect(shown.some((b) => b.id === target.id)).toBe(false);
    await t.put(
      "/api/agendas/updateAgenda",
      await updateBody({}, { HORA_BASE_INICIAL: "05:00", HORA_BASE_FINAL: "05:30" }),
      {
        token: tokens.admin,
      },
    );
    const row = (await bookingsOf(agendaId)).find((r) => r.id === target.id)!;
    expect(row).toMatchObject({ active: false, hora_ini: "06:00:00" });
    expect((await bookingsOf(agendaId)).filter((r) => r.data_agend === MONDAY)).toHaveLength(1);
  });

  test("roles and scope: auditor 403; another tenant 404; a coordinator cannot delete another branch's booking", async () => {
    const booking = (await bookingsOf(agendaId)).find((row) => row.active)!;
    expect((await t.put("/api/agendas/updateAgenda", await updateBody(), { token: tokens.auditor })).status).toBe(403);
    expect((await t.delete(`/api/agendas/Agendamentos/${booking.id}`, { token: tokens.auditor })).status).toBe(403);
    expect((await t.put("/api/agendas/updateAgenda", await updateBody(), { token: tokens.outra })).status).toBe(404);
    expect((await t.delete(`/api/agendas/Agendamentos/${booking.id}`, { token: tokens.outra })).status).toBe(404);
    expect((await t.get(`/api/agendas/${agendaId}`, { token: tokens.outra })).status).toBe(404);
  });
});

describe("GET /agendas/v2/Agendamentos/company and listaAsg", () => {
  beforeAll(async () => {
    const answer = await save([
      twelveX({ Id_Users: users.bruno, Id_EmpresasFilial: ids.messejana, Id_Environments: env.messejana }),
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });

  test("a day range: active bookings in day and time order, in the spec's shape", async () => {
    const answer = await list(`dataIni=${MONDAY}&dataFim=${MONDAY}&companyId=${ids.hospital}&report=true`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = answer.body.map((row: unknown) => Booking.parse(row));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row: Booking) => row.dataAgend === MONDAY && row.active && row.Agenda.ATIVO)).toBe(true);
    const keys = rows.map((row: Booking) => `${row.horaIni}${row.horaFim}${String(row.id).padStart(10, "0")}`);
    expect(keys).toEqual([...keys].sort());
    expect(rows[0].Agenda.Environment.Categoria.name).toBeTruthy();
    expect(rows.some((row: Booking) => row.type === "Revisão")).toBe(true);
  });

  test("by branch and per collaborator", async () => {
    const range = `dataIni=${MONDAY}&dataFim=${day(MONDAY, 13)}`;
    const messejana = (await list(`${range}&filialId=${ids.messejana}`)).body as Booking[];
    expect(messejana).toHaveLength(7);
    expect(messejana.every((row) => row.companyId === ids.messejana)).toBe(true);
    const bruno = (await list(`${range}&asgId=${users.bruno}`)).body as Booking[];
    expect(bruno.map((row) => row.id)).toEqual(messejana.map((row) => row.id));
    expect(bruno[0].Historic).toEqual([]);
  });

  test("paged: limit and page walk the same order without overlap", async () => {
    const range = `dataIni=${MONDAY}&dataFim=${day(MONDAY, 13)}&companyId=${ids.hospital}`;
    const all = ((await list(range)).body as Booking[]).map((row) => row.id);
    const pages: number[] = [];
    for (let page = 1; ; page++) {
      const rows = (await list(`${range}&limit=5&page=${page}`)).body as Booking[];
      pages.push(...rows.map((row) => row.id));
      if (rows.length < 5) break;
    }
    expect(pages).toEqual(all);
  });

  test("a branch-level user sees the own branch only; other branches' or tenants' ids are 404", async () => {
    const range = `dataIni=${MONDAY}&dataFim=${day(MONDAY, 13)}`;
    const own = (await list(range, tokens.coordenador)).body as Booking[];
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((row) => row.companyId === ids.aldeota)).toBe(true);
    expect((await list(`${range}&filialId=${ids.messejana}`, tokens.coordenador)).status).toBe(404);
    expect((await list(`${range}&asgId=${users.bruno}`, tokens.coordenador)).status).toBe(404);
    expect((await list(`${range}&companyId=${ids.hospital}`, tokens.outra)).status).toBe(404);
    expect((await list(`${range}&asgId=${users.asg}`, tokens.outra)).status).toBe(404);
    expect((await list(range, tokens.outra)).body).toEqual([]);
  });

  test("bad ranges: 400", async () => {
    expect((await list(`dataIni=${MONDAY}&dataFim=${day(MONDAY, -1)}`)).body.message).toBe(T.dateRangeInvalid);
    expect((await list(`dataIni=${MONDAY}&dataFim=${day(MONDAY, 500)}`)).body.message).toBe(T.dateRangeTooLong);
    expect((await list(`dataIni=${MONDAY}&dataFim=${day(MONDAY, 500)}&limit=500`)).status).toBe(200);
    expect((await list(`dataFim=${MONDAY}`)).status).toBe(400);
  });

  test("listaAsg: active ASGs in scope", async () => {
    const all = ((await t.get("/api/agendas/v2/Agendamentos/listaAsg", { token: tokens.admin })).body as Asg[]).map(
      (row) => Asg.parse(row),
    );
    expect(all.map((row) => row.id)).toEqual(expect.arrayContaining([users.asg, users.ana, users.bruno]));
    expect(all.every((row) => row.roleId === 5 || (row.roleId === null && row.coordenador === 0))).toBe(true);
    expect(all.some((row) => row.id === users.admin)).toBe(false);
    const aldeota = (await t.get("/api/agendas/v2/Agendamentos/listaAsg", { token: tokens.coordenador })).body as Asg[];
    expect(aldeota.every((row) => row.companyId === ids.aldeota)).toBe(true);
    expect(aldeota.some((row) => row.id === users.bruno)).toBe(false);
    const messejana = await t.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${ids.messejana}`, {
      token: tokens.coordenador,
    });
    expect(messejana.status).toBe(404);
    expect((await t.get("/api/agendas/v2/Agendamentos/listaAsg", { token: tokens.outra })).body).toEqual([]);
  });
});
