/**
 * The field app's sessions (docs/field-app.md 'Who, and where'): POST /api/sessions/campo admits ASGs and users with
 * bookings, shares the back office's credentials check and lockout, lasts 30 days and ends as every session does; a
 * field session opens only the field calls (the allow-list in api/auth/middleware.ts), walked over the whole OpenAPI
 * document.
 */
import { TZDate } from "@date-fns/tz";
import { addDays } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { FIELD_SESSION_TEXTS } from "../../api/auth/middleware.ts";
import { hashToken, newToken } from "../../api/auth/tokens.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { BUSINESS_TIME_ZONE, businessToday, dayOf, isoDay } from "../../api/domain/schedule-expansion.ts";
import { SaveAgendaItem } from "../../api/domain/schedule-payloads.ts";
import { ExecutionSlot } from "../../api/routes/execution.ts";
import { FieldDay, FieldRoom } from "../../api/routes/field.ts";
import { finishSlot, reportIncomplete, startSlot, type Executor } from "../../api/services/execution.ts";
import { fieldDay, MAX_FIELD_SLOTS } from "../../api/services/field-day.ts";
import { createAgendas } from "../../api/services/scheduling.ts";
import { authenticator, SignInRefused } from "../../app/auth.server.ts";
import { EVERY_DAY, saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { branchId, COMPANY_A, companyId, userByEmail } from "../support/demo.ts";
import { operationsOf, readOpenApi } from "../support/openapi.ts";

const t = useTestApi();

const DAY_MS = 24 * 60 * 60 * 1000;
const UNAUTHENTICATED = "Sessão expirada. Faça login novamente.";

const fieldSignIn = (email: string, password = DEMO_PASSWORD, headers: Record<string, string> = {}) =>
  t.post("/api/sessions/campo", { email, password }, { headers });

/** A field session of the user straight in the sessions table (no scrypt per call). */
async function fieldToken(email: string) {
  const { token, hash } = newToken();
  const user = await userByEmail(t.db, email);
  await t.db
    .insertInto("sessions")
    .values({ token_hash: hash, user_id: user.id, kind: "campo", expires_at: new Date(Date.now() + DAY_MS) })
    .execute();
  return token;
}

const sessionRow = (token: string) =>
  t.db.selectFrom("sessions").selectAll().where("token_hash", "=", hashToken(token)).executeTakeFirstOrThrow();

let admin = "";
beforeAll(async () => {
  admin = await t.signIn("admin@demo.com.br");
});

describe("POST /api/sessions/campo", () => {
  test("admits the ASG with a field session of 30 days, in the back office's answer shape", async () => {
    const answer = await fieldSignIn("asg@demo.com.br");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      ["cpfUserMaster", "dataHoraToken", "empresaPrincipal", "nivelAcesso", "token", "user"].sort(),
    );
    expect(answer.body.user.email).toBe("asg@demo.com.br");
    expect(answer.body.nivelAcesso).toBe("ASG");
    const row = await sessionRow(answer.body.token);
    expect(row.kind).toBe("campo");
    expect(new Date(row.expires_at).getTime() - Date.parse(answer.body.dataHoraToken)).toBe(30 * DAY_MS);
  });

  test("refuses a user who is not an ASG and has no bookings (403), and opens no session", async () => {
    const before = await t.db.selectFrom("sessions").select("token_hash").execute();
    const answer = await fieldSignIn("coordenador@demo.com.br");
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: "Você não tem limpezas agendadas. Entre pelo painel." });
    expect(await t.db.selectFrom("sessions").select("token_hash").execute()).toHaveLength(before.length);
  });

  test("admits a user blocked on the web (coordenador 0) once they have a booking, refuses them before", async () => {
    const user = await userByEmail(t.db, "semnivel@demo.com.br");
    await t.db.updateTable("users").set({ coordenador: 0 }).where("id", "=", user.id).execute();
    const refused = await fieldSignIn(user.email);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(FIELD_SESSION_TEXTS.notAdmitted);

    const aldeota = await branchId(t.db, "Filial Aldeota");
    const room = await t.db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", aldeota)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    await saveDayAgenda(t, admin, {
      branch: aldeota,
      environment: room.id,
      user: user.id,
      slots: [["23:00", "23:30"]],
    });
    const admitted = await fieldSignIn(user.email);
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(200);
    expect((await sessionRow(admitted.body.token)).kind).toBe("campo");
  });

  test("a wrong password answers 401 and an inactive user 403, as POST /sessions", async () => {
    const wrong = await fieldSignIn("asg@demo.com.br", "errada123");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: "Ocorreu um erro ao fazer login, cheque as credenciais." });
    const user = await userByEmail(t.db, "debora@demo.com.br");
    await t.db.updateTable("users").set({ ativo: 0 }).where("id", "=", user.id).execute();
    const inactive = await fieldSignIn(user.email);
    await t.db.updateTable("users").set({ ativo: 1 }).where("id", "=", user.id).execute();
    expect(inactive.status).toBe(403);
    expect(inactive.body).toEqual({ message: "Usuário inativo. Entre em contato com o administrador do sistema." });
  });

  test("failures on either sign-in count against the same lockout", async () => {
    const from = { "x-client-address": "10.7.7.7" };
    for (let attempt = 1; attempt <= 3; attempt++) {
      const answer = await t.post(
        "/api/sessions",
        { email: "ana@demo.com.br", password: `errada-${attempt}` },
        { headers: from },
      );
      expect(answer.status).toBe(401);
    }
    for (let attempt = 4; attempt <= 5; attempt++)
      expect((await fieldSignIn("ana@demo.com.br", `errada-${attempt}`, from)).status).toBe(401);
    // Five failures in all from this address: the sixth try waits, on the field sign-in and the back office's alike.
    const blocked = await fieldSignIn("ana@demo.com.br", DEMO_PASSWORD, from);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe("Muitas tentativas. Aguarde alguns segundos e tente novamente.");
    const backOffice = await t.post(
      "/api/sessions",
      { email: "ana@demo.com.br", password: DEMO_PASSWORD },
      { headers: from },
    );
    expect(backOffice.status).toBe(429);
  });
});

describe("the back office still refuses ASGs on the web", () => {
  test("the web sign-in answers 'Acesso bloqueado!' to the ASG and keeps no session", async () => {
    const asg = await userByEmail(t.db, "asg@demo.com.br");
    const context = { api: (request: Request) => t.api.fetch(request), requestId: "test" };
    const form = new URLSearchParams({ email: asg.email, password: DEMO_PASSWORD });
    const request = new Request("http://test.local/", { method: "POST", body: form });
    const refused = await authenticator(context as never)
      .authenticate("form", request)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(SignInRefused);
    expect((refused as SignInRefused).toast.title).toBe("Acesso bloqueado!");
    // The token POST /sessions gave the web app was revoked at once.
    const open = await t.db
      .selectFrom("sessions")
      .select("token_hash")
      .where("user_id", "=", asg.id)
      .where("kind", "=", "painel")
      .where("revoked_at", "is", null)
      .execute();
    expect(open).toEqual([]);
  });
});

describe("GET /api/sessions/current says the session's kind", () => {
  test("campo for a field session", async () => {
    const answer = await t.get("/api/sessions/current", { token: await fieldToken("asg@demo.com.br") });
    expect(answer.status).toBe(200);
    expect(answer.body.kind).toBe("campo");
    expect(answer.body.user.email).toBe("asg@demo.com.br");
  });

  test("painel for a back-office session", async () => {
    const answer = await t.get("/api/sessions/current", { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body.kind).toBe("painel");
  });
});

describe("a field session ends as every session does", () => {
  const stillOpen = async (token: string) => (await t.get("/api/execution/bookings", { token })).status;

  test("on sign-out (DELETE /api/sessions with the field token)", async () => {
    const token = await fieldToken("asg@demo.com.br");
    expect(await stillOpen(token)).toBe(200);
    expect((await t.delete("/api/sessions", { token })).status).toBe(204);
    expect((await sessionRow(token)).revoked_at).not.toBeNull();
    const after = await t.get("/api/execution/bookings", { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: UNAUTHENTICATED });
  });

  test("on deactivation", async () => {
    const user = await userByEmail(t.db, "bruno@demo.com.br");
    const token = await fieldToken(user.email);
    expect(await stillOpen(token)).toBe(200);
    const edit = (ativo: boolean) =>
      t.put("/api/users", { userId: user.id, nome: user.nome, telefone: user.telefone, ativo }, { token: admin });
    expect((await edit(false)).status).toBe(200);
    expect((await sessionRow(token)).revoked_at).not.toBeNull();
    // Reactivated, the session stays ended.
    expect((await edit(true)).status).toBe(200);
    expect(await stillOpen(token)).toBe(401);
  });

  test("on a password change", async () => {
    const user = await userByEmail(t.db, "cicero@demo.com.br");
    const token = await fieldToken(user.email);
    expect(await stillOpen(token)).toBe(200);
    const change = await t.put(
      "/api/users",
      { userId: user.id, nome: user.nome, telefone: user.telefone, ativo: true, password: "trocada9" },
      { token: admin },
    );
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect((await sessionRow(token)).revoked_at).not.toBeNull();
    expect(await stillOpen(token)).toBe(401);
  });

  test("on a level change", async () => {
    const user = await userByEmail(t.db, "debora@demo.com.br");
    const token = await fieldToken(user.email);
    expect(await stillOpen(token)).toBe(200);
    const change = await t.post(
      "/api/empresas/transformToCoordenador",
      { filialId: user.branch_id, userId: user.id },
      { token: admin },
    );
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect((await sessionRow(token)).revoked_at).not.toBeNull();
    expect(await stillOpen(token)).toBe(401);
  });
});

/**
 * The field session's allow-list as operations of the OpenAPI document: every other bearer operation answers a field
 * token 403 with FIELD_SESSION_TEXTS.refused.
 */
const FIELD_OPERATIONS = [
  "GET /api/execution/today",
  "GET /api/execution/environments/{id}",
  "GET /api/sessions/current",
  "DELETE /api/sessions",
  "GET /api/execution/bookings",
  "GET /api/execution/bookings/{id}",
  "POST /api/execution/bookings/{id}/start",
  "POST /api/execution/bookings/{id}/procedures",
  "POST /api/execution/bookings/{id}/finish",
  "POST /api/execution/bookings/{id}/incomplete",
  "GET /api/execution/incidents",
  "GET /api/execution/incidents/{id}/foto",
  "POST /api/execution/incidents/{id}/resolve",
];
/** Calls the slices add under the allowed prefixes (docs/field-app.md 'Calls'): allowed as they come. */
const FIELD_PREFIXES = ["/api/execution/bookings", "/api/execution/incidents"];
const isFieldOperation = (method: string, path: string) =>
  FIELD_OPERATIONS.includes(`${method} ${path}`) ||
  FIELD_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

describe("a field session opens only the field calls", () => {
  test("every bearer operation of the OpenAPI document but the allow-list answers a field token 403", async () => {
    const operations = operationsOf(await readOpenApi(t)).filter(({ operation }) => operation.security?.length);
    expect(operations.length).toBeGreaterThan(100);
    const allowed: string[] = [];
    const wrong: string[] = [];
    for (const { name, method, path } of operations) {
      // A fresh token each time: sign-out ends the one it runs with.
      const token = await fieldToken("asg@demo.com.br");
      const url = path.replace(/\{[^}]+\}/g, "1");
      const answer = await t.call(method, url, { token, headers: { "content-type": "application/json" } });
      const refused = answer.status === 403 && answer.body?.message === FIELD_SESSION_TEXTS.refused;
      if (isFieldOperation(method, path)) {
        allowed.push(name);
        if (refused) wrong.push(`${name} refused`);
      } else if (!refused) {
        wrong.push(`${name} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(allowed.sort()).toEqual(expect.arrayContaining([...FIELD_OPERATIONS].sort()));
  });

  test("a path outside every route answers a field token 403 too", async () => {
    const answer = await t.get("/api/nao-existe", { token: await fieldToken("asg@demo.com.br") });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: FIELD_SESSION_TEXTS.refused });
  });

  test("a back-office session of the same ASG keeps its calls", async () => {
    const token = await t.signIn("asg@demo.com.br");
    expect((await t.get("/api/users/me", { token })).status).toBe(200);
    expect((await t.get("/api/users/me", { token: await fieldToken("asg@demo.com.br") })).status).toBe(403);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The field app's reads: 'Hoje' and the room (docs/field-app.md 'Calls')

const TODAY = businessToday();
const day = (offset: number) => isoDay(addDays(dayOf(TODAY), offset));
/** An instant of a business day, 'HH:mm' in America/Fortaleza. */
const at = (date: string, time: string) => {
  const [y, m, d] = date.split("-").map(Number);
  const [h, min] = time.split(":").map(Number);
  return new Date(new TZDate(y, m - 1, d, h, min, BUSINESS_TIME_ZONE).getTime());
};

type Slots = readonly (readonly [ini: string, fim: string])[];

/**
 * An agenda of one day through the scheduling service (as the demo simulator saves them), so a day before today can
 * have one: the main slot and revisions; answers its bookings' ids in slot order.
 */
async function agendaOn(date: string, user: number, environment: number, slots: Slots, revisionPhotos = false) {
  const hospital = await companyId(t.db, COMPANY_A);
  const [[ini, fim], ...revisions] = slots;
  const payload = SaveAgendaItem.parse({
    Id_EmpresasFilial: await branchId(t.db, "Filial Aldeota"),
    Id_Environments: environment,
    Id_Users: user,
    Periodicidade: {
      type: "sem",
      DIAS_SEMANA: EVERY_DAY,
      hora_base_inicial: ini,
      hora_base_final: fim,
      Revisoes: revisions.map(([start, end]) => ({ HORA_INICIAL: start, HORA_FINAL: end })),
    },
    revisionPhotos,
    vigIni: date,
    vigFim: date,
  });
  const [agenda] = await createAgendas(t.db, { level: "company", companyId: hospital }, [payload], { today: date });
  const rows = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", agenda.id)
    .orderBy("slot")
    .execute();
  return rows.map((row) => row.id);
}

describe("the field app's reads", () => {
  const rooms = { r1: 0, r2: 0, messejana: 0, other: 0 };
  let ana: Executor;
  let anaToken = "";
  const ids = {} as Record<
    "done" | "incomplete" | "evening" | "underWay" | "night" | "yOpen" | "yDone" | "yUnderWay" | "tomorrow",
    number
  >;

  beforeAll(async () => {
    const user = await userByEmail(t.db, "ana@demo.com.br");
    ana = { userId: user.id, companyId: user.company_id };
    anaToken = await fieldToken(user.email);
    const roomsWithProcedures = await t.db
      .selectFrom("environments as e")
      .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
      .select("e.id")
      .where("e.branch_id", "=", await branchId(t.db, "Filial Aldeota"))
      .where("e.deleted_at", "is", null)
      .groupBy("e.id")
      .having((eb) => eb.fn.countAll(), ">=", 3)
      .orderBy("e.id")
      .execute();
    [rooms.r1, rooms.r2] = roomsWithProcedures.map((row) => row.id);
    rooms.messejana = (
      await t.db
        .selectFrom("environments")
        .select("id")
        .where("branch_id", "=", await branchId(t.db, "Filial Messejana"))
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).id;
    rooms.other = (
      await t.db
        .selectFrom("environments")
        .select("id")
        .where("branch_id", "=", await branchId(t.db, "Sede Recife"))
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).id;

    // Today, two agendas whose slots interleave: room 1 at 06:00, 12:00, 20:00; room 2 at 09:00, 22:00.
    [ids.done, ids.incomplete, ids.evening] = await agendaOn(
      TODAY,
      ana.userId,
      rooms.r1,
      [
        ["06:00", "06:30"],
        ["12:00", "12:30"],
        ["20:00", "20:30"],
      ],
      true,
    );
    [ids.underWay, ids.night] = await agendaOn(TODAY, ana.userId, rooms.r2, [
      ["09:00", "09:30"],
      ["22:00", "22:30"],
    ]);
    await startSlot(t.db, ana, ids.done, at(TODAY, "06:02"));
    await finishSlot(t.db, ana, ids.done, at(TODAY, "06:25"));
    await reportIncomplete(t.db, ana, ids.incomplete, "Sala trancada.", at(TODAY, "12:40"));
    await startSlot(t.db, ana, ids.underWay, at(TODAY, "09:05"));
    // Yesterday: one left undone, one done, one started and never closed.
    [ids.yOpen, ids.yDone, ids.yUnderWay] = await agendaOn(day(-1), ana.userId, rooms.r1, [
      ["07:00", "07:30"],
      ["10:00", "10:30"],
      ["15:00", "15:30"],
    ]);
    await startSlot(t.db, ana, ids.yDone, at(day(-1), "10:00"));
    await finishSlot(t.db, ana, ids.yDone, at(day(-1), "10:20"));
    await startSlot(t.db, ana, ids.yUnderWay, at(day(-1), "15:01"));
    [ids.tomorrow] = await agendaOn(day(1), ana.userId, rooms.r2, [["08:00", "08:30"]]);
    // Someone else in room 1 today.
    const asg = await userByEmail(t.db, "asg@demo.com.br");
    await agendaOn(TODAY, asg.id, rooms.r1, [["16:00", "16:30"]]);
  });

  const stateOf = async (id: number, time: string) => {
    const dayAt = await fieldDay(t.db, ana, at(TODAY, time));
    return dayAt.today.find((row) => row.slot.id === id)?.state;
  };

  describe("GET /api/execution/today", () => {
    test("a slot not started is 'A fazer' before its start plus the company's tolerance (15 minutes)", async () => {
      expect(await stateOf(ids.evening, "20:14")).toBe("A fazer");
    });

    test("a slot not started is 'Atrasada' from its start plus the tolerance", async () => {
      expect(await stateOf(ids.evening, "20:15")).toBe("Atrasada");
    });

    test("the tolerance is the company's (late_tolerance_minutes)", async () => {
      const hospital = await companyId(t.db, COMPANY_A);
      await t.db.updateTable("companies").set({ late_tolerance_minutes: 30 }).where("id", "=", hospital).execute();
      const state = await stateOf(ids.evening, "20:15");
      await t.db.updateTable("companies").set({ late_tolerance_minutes: 15 }).where("id", "=", hospital).execute();
      expect(state).toBe("A fazer");
    });

    test("a started slot is 'Em andamento'", async () => {
      expect(await stateOf(ids.underWay, "23:00")).toBe("Em andamento");
    });

    test("a finished slot is 'Concluída'", async () => {
      expect(await stateOf(ids.done, "07:00")).toBe("Concluída");
    });

    test("a slot reported incomplete is 'Não concluída'", async () => {
      expect(await stateOf(ids.incomplete, "13:00")).toBe("Não concluída");
    });

    test("today's slots of every agenda in time order, counted per state, the one under way next", async () => {
      const dayAt = await fieldDay(t.db, ana, at(TODAY, "21:00"));
      expect(dayAt.date).toBe(TODAY);
      expect(dayAt.today.map((row) => [row.slot.id, row.environment.id, row.state])).toEqual([
        [ids.done, rooms.r1, "Concluída"],
        [ids.underWay, rooms.r2, "Em andamento"],
        [ids.incomplete, rooms.r1, "Não concluída"],
        [ids.evening, rooms.r1, "Atrasada"],
        [ids.night, rooms.r2, "A fazer"],
      ]);
      expect(dayAt.counts).toEqual({
        "A fazer": 1,
        Atrasada: 1,
        "Em andamento": 1,
        Concluída: 1,
        "Não concluída": 1,
      });
      expect(dayAt.nextId).toBe(ids.underWay);
    });

    test("yesterday's list holds the slots still open (not started, under way), not the closed ones", async () => {
      const dayAt = await fieldDay(t.db, ana, at(TODAY, "08:00"));
      expect(dayAt.yesterday.map((row) => [row.slot.id, row.state])).toEqual([
        [ids.yOpen, "Atrasada"],
        [ids.yUnderWay, "Em andamento"],
      ]);
    });

    test("tomorrow's list holds tomorrow's slots", async () => {
      const dayAt = await fieldDay(t.db, ana, at(TODAY, "08:00"));
      expect(dayAt.tomorrow.map((row) => [row.slot.id, row.slot.data_agend, row.state])).toEqual([
        [ids.tomorrow, day(1), "A fazer"],
      ]);
    });

    test("each list holds at most MAX_FIELD_SLOTS, the counts all of today's", async () => {
      const user = await userByEmail(t.db, "asg@demo.com.br");
      const sebastiao = { userId: user.id, companyId: user.company_id };
      // Twenty agendas of eleven slots each today (the one from beforeAll makes 221).
      for (let n = 0; n < 20; n++) {
        const slots = Array.from({ length: 11 }, (_, k) => {
          const minute = n * 11 + k;
          const time = (m: number) =>
            `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
          return [time(minute * 6), time(minute * 6 + 5)] as const;
        });
        await agendaOn(TODAY, user.id, rooms.r2, slots);
      }
      const dayAt = await fieldDay(t.db, sebastiao, at(TODAY, "00:01"));
      expect(dayAt.today).toHaveLength(MAX_FIELD_SLOTS);
      expect(Object.values(dayAt.counts).reduce((sum, n) => sum + n, 0)).toBe(221);
      expect(dayAt.today[0].slot.hora_ini.slice(0, 5)).toBe("00:00");
    });

    test("the call answers the caller's day with a field session, in the FieldDay shape", async () => {
      const answer = await t.get("/api/execution/today", { token: anaToken });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const parsed = FieldDay.parse(answer.body);
      expect(parsed.date).toBe(businessToday());
      expect(parsed.today.map((slot) => slot.id)).toEqual([
        ids.done,
        ids.underWay,
        ids.incomplete,
        ids.evening,
        ids.night,
      ]);
      expect(parsed.today[1]).toMatchObject({ state: "Em andamento", status: "Andamento", horaIni: "09:00" });
      expect(parsed.counts.concluida + parsed.counts.naoConcluida + parsed.counts.emAndamento).toBe(3);
      expect(parsed.tomorrow.map((slot) => slot.id)).toEqual([ids.tomorrow]);
    });
  });

  describe("GET /api/execution/environments/{id}", () => {
    const room = (id: number, query = "") => t.get(`/api/execution/environments/${id}${query}`, { token: anaToken });

    test("the room, its procedures (mandatory first, then by name), the caller's slots of today there", async () => {
      const answer = await room(rooms.r1);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const parsed = FieldRoom.parse(answer.body);
      const named = await t.db
        .selectFrom("environments as e")
        .innerJoin("categories as c", "c.id", "e.category_id")
        .innerJoin("sectors as s", "s.id", "e.sector_id")
        .select(["e.name", "e.andar", "c.name as categoria", "s.name as setor"])
        .where("e.id", "=", rooms.r1)
        .executeTakeFirstOrThrow();
      expect(parsed.environment).toEqual({ id: rooms.r1, ...named });
      const procedures = await t.db
        .selectFrom("environment_procedures as ep")
        .innerJoin("procedures as p", "p.id", "ep.procedure_id")
        .select(["p.id", "p.name", "ep.mandatory"])
        .where("ep.environment_id", "=", rooms.r1)
        .execute();
      const expected = [...procedures].sort(
        (a, b) => Number(b.mandatory) - Number(a.mandatory) || a.name.localeCompare(b.name) || a.id - b.id,
      );
      expect(new Set(procedures.map((p) => p.mandatory))).toEqual(new Set([true, false]));
      expect(parsed.procedures).toEqual(expected);
      expect(parsed.slots.map((slot) => slot.id)).toEqual([ids.done, ids.incomplete, ids.evening]);
      expect(ExecutionSlot.parse(parsed.slots[0]).status).toBe("Completo");
      expect(parsed.revisionPhotos).toBe(true);
    });

    test("othersToday counts other people's slots there today, naming no one", async () => {
      const answer = await room(rooms.r1);
      expect(answer.body.othersToday).toBe(1);
      expect(JSON.stringify(answer.body)).not.toContain("Sebastião");
    });

    test("qr: null when none is given", async () => {
      expect((await room(rooms.r1)).body.qr).toBeNull();
    });

    test("qr: 'valido' for the room's printed value", async () => {
      const { qr_codigo } = await t.db
        .selectFrom("environments")
        .select("qr_codigo")
        .where("id", "=", rooms.r1)
        .executeTakeFirstOrThrow();
      expect((await room(rooms.r1, `?qr=${qr_codigo}`)).body.qr).toBe("valido");
    });

    test("qr: 'substituido' for the value before the code was reissued", async () => {
      await t.db
        .updateTable("environments")
        .set({ qr_codigo_anterior: "0123456789abcdef" })
        .where("id", "=", rooms.r1)
        .execute();
      expect((await room(rooms.r1, "?qr=0123456789abcdef")).body.qr).toBe("substituido");
    });

    test("qr: 'invalido' for any other value", async () => {
      expect((await room(rooms.r1, "?qr=fedcba9876543210")).body.qr).toBe("invalido");
    });

    test("a room with nothing of the caller's today answers no slots", async () => {
      const answer = await room(rooms.r2, "");
      expect(answer.status).toBe(200);
      expect(answer.body.slots.map((slot: { id: number }) => slot.id)).toEqual([ids.underWay, ids.night]);
      const [third] = await t.db
        .selectFrom("environments")
        .select("id")
        .where("branch_id", "=", await branchId(t.db, "Filial Aldeota"))
        .where("id", "not in", [rooms.r1, rooms.r2])
        .orderBy("id")
        .execute();
      const empty = await room(third.id);
      expect(empty.status).toBe(200);
      expect(empty.body.slots).toEqual([]);
    });

    test("another company's room answers 404", async () => {
      const answer = await room(rooms.other);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: "Ambiente não encontrado" });
    });

    test("another branch's room answers 404 to a field user of one branch", async () => {
      const answer = await room(rooms.messejana);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: "Ambiente não encontrado" });
    });
  });
});
