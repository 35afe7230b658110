/**
 * Issue 28 §4–6, the incident loop's second half (docs/incidents.md): a visitor's report queues its alerts; a manager
 * creates the corrective cleaning (an 'Extra' booking through the scheduling service); the ASG lists it on the
 * execution API and resolves it with the proof its kind asks for; the alert job sends each e-mail once, with two
 * instances on one database, and sends an overdue one after a restart.
 */
import { sql } from "kysely";
import pino from "pino";
import sharp from "sharp";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";

import { openDatabase, type Database } from "../../api/db/connection.ts";
import { RoomPage } from "../../api/routes/info.ts";
import { sendDueAlerts } from "../../api/services/incident-alerts.ts";
import { createMailer } from "../../api/services/mailer.ts";
import { useTestApi } from "../support/api.ts";
import { branchId, demoIds } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();
const silent = pino({ level: "silent" });

let room = 0;
let admin = "";
let asg = "";
let asgId = 0;
let kinds: { id: number; nome: string }[] = [];

afterEach(() => {
  vi.useRealTimers();
});

/** A visitor's report through the room page's call, as a person sends it (the form drawn seconds before). */
async function report(kind: string, descricao: string, photo?: Uint8Array) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  const page = RoomPage.parse((await t.get(`/api/info/ambiente/${room}`)).body);
  vi.setSystemTime(new Date(Date.now() + 3_000));
  const form = new FormData();
  form.set("formToken", page.formToken);
  form.set("tipo", String(kinds.find((candidate) => candidate.nome === kind)!.id));
  form.set("descricao", descricao);
  if (photo) form.set("foto", new File([photo as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" }));
  const answer = await t.call("POST", `/api/info/ambiente/${room}/relato`, {
    form,
    headers: { "x-client-address": `10.29.0.${Math.floor(Math.random() * 250)}` },
  });
  vi.useRealTimers();
  expect(answer.status).toBe(202);
  const incident = await t.db
    .selectFrom("incidents")
    .select("id")
    .where("environment_id", "=", room)
    .where("descricao", "=", descricao)
    .executeTakeFirstOrThrow();
  return incident.id;
}

/** A moment after the reports above (they were sent on a clock moved 3 s ahead). */
const soon = () => new Date(Date.now() + 10_000);

/** Leaves only these incidents' alerts waiting: each test counts its own. */
async function onlyAlertsOf(ids: number[]) {
  await t.db
    .updateTable("incident_alerts")
    .set({ done_at: new Date() })
    .where("done_at", "is", null)
    .where("incident_id", "not in", ids)
    .execute();
}

const change = (id: number, body: object, token = admin) => t.post(`/api/ocorrencias/${id}/eventos`, body, { token });
const mailer = (database: Database) => createMailer(database, silent);
const outbox = (subjectStart: string) =>
  t.db
    .selectFrom("outbox")
    .select(["recipient", "subject", "body_text"])
    .where("subject", "like", `${subjectStart}%`)
    .execute();

beforeAll(async () => {
  const ids = await demoIds(t.db);
  admin = await t.signIn("admin@demo.com.br");
  asg = await t.signIn("asg@demo.com.br");
  asgId = (await t.db.selectFrom("users").select("id").where("email", "=", "asg@demo.com.br").executeTakeFirstOrThrow())
    .id;
  room = (
    await t.db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow()
  ).id;
  const company = await t.db
    .selectFrom("environments")
    .select("company_id")
    .where("id", "=", room)
    .executeTakeFirstOrThrow();
  kinds = await t.db
    .selectFrom("incident_kinds")
    .select(["id", "nome"])
    .where("company_id", "=", company.company_id)
    .execute();
});

describe("the loop", () => {
  test("report → alert → corrective cleaning ('Extra') → the ASG resolves with a photo → closed, on every screen", async () => {
    const id = await report("Sujeira", "Piso molhado perto da pia", tinyPng(40, 30));
    const queued = await t.db
      .selectFrom("incident_alerts")
      .select(["tipo", "done_at"])
      .where("incident_id", "=", id)
      .execute();
    expect(queued.map((row) => row.tipo).sort()).toEqual(["aberta", "atrasada"]);

    // The opening e-mail goes to the branch's coordinator, with the link, and is on the timeline.
    await onlyAlertsOf([id]);
    const swept = await sendDueAlerts(
      { db: t.db, mailer: mailer(t.database), publicUrl: "https://limpeza.example" },
      soon(),
    );
    expect(swept.sent).toBe(1);
    const [mail] = await outbox("Nova ocorrência: Sujeira");
    expect(mail).toMatchObject({ recipient: "coordenador@demo.com.br" });
    expect(mail!.body_text).toContain("Piso molhado perto da pia");
    expect(mail!.body_text).toContain(`https://limpeza.example/ocorrencias/${id}`);

    // The manager's detail offers the branch's ASGs; another branch's ASG is refused, nothing written.
    const detail = await t.get(`/api/ocorrencias/${id}`, { token: admin });
    expect(detail.body.colaboradores.map((person: { id: number }) => person.id)).toContain(asgId);
    const messejanaAsg = await t.db
      .selectFrom("users")
      .select("id")
      .where("branch_id", "=", await branchId(t.db, "Filial Messejana"))
      .where("role_id", "=", 5)
      .executeTakeFirstOrThrow();
    const refused = await change(id, { tipo: "corretiva", colaboradorId: messejanaAsg.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Escolha um colaborador (ASG) da filial do ambiente.");
    const badHours = await change(id, { tipo: "corretiva", colaboradorId: asgId, horaIni: "10:00", horaFim: "09:00" });
    expect(badHours.body.message).toBe("O horário de término deve ser depois do início.");
    expect(await t.db.selectFrom("agendas").select("id").where("incident_id", "=", id).execute()).toEqual([]);

    const created = await change(id, { tipo: "corretiva", colaboradorId: asgId, horaIni: "23:00", horaFim: "23:45" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.status).toBe("em_atendimento");
    expect(created.body.eventos.at(-1)).toMatchObject({
      tipo: "corretiva",
      autor: "Antônio Administrador",
      detalhe: "Limpeza corretiva para Sebastião ASG hoje, das 23:00 às 23:45",
    });

    // The booking is the ASG's today, an 'Extra' tied to the incident, on the execution API and the board's list.
    const day = await t.get("/api/execution/bookings", { token: asg });
    const slot = day.body.bookings
      .flatMap((booking: { slots: { ocorrenciaId: number | null }[] }) => booking.slots)
      .find((candidate: { ocorrenciaId: number | null }) => candidate.ocorrenciaId === id);
    expect(slot).toMatchObject({ type: "Extra", horaIni: "23:00", horaFim: "23:45", status: null });
    const listed = await t.get(
      `/api/agendas/v2/Agendamentos/company?dataIni=${day.body.date}&dataFim=${day.body.date}`,
      {
        token: admin,
      },
    );
    expect(listed.body.find((booking: { id: number }) => booking.id === slot.id)).toMatchObject({
      type: "Extra",
      ocorrenciaId: id,
    });

    // The ASG's list: the incident, its proof, the booking; another ASG does not see it.
    const mine = await t.get("/api/execution/incidents", { token: asg });
    expect(mine.body.items.find((item: { id: number }) => item.id === id)).toMatchObject({
      status: "em_atendimento",
      tipo: "Sujeira",
      prova: "foto",
      fotoVisitante: true,
      agendamentoId: slot.id,
    });
    const visitorPhoto = await t.fetch("GET", `/api/execution/incidents/${id}/foto`, { token: asg });
    expect(visitorPhoto.status).toBe(200);
    expect(visitorPhoto.headers.get("content-type")).toBe("image/jpeg");

    // 'Sujeira' asks for a photo: a note alone is refused, nothing written.
    const noteOnly = new FormData();
    noteOnly.set("nota", "Limpei");
    const withoutPhoto = await t.call("POST", `/api/execution/incidents/${id}/resolve`, { token: asg, form: noteOnly });
    expect(withoutPhoto.status).toBe(400);
    expect(withoutPhoto.body.message).toBe("Envie uma foto do ambiente resolvido.");
    expect(
      (await t.db.selectFrom("incidents").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status,
    ).toBe("em_atendimento");

    const proof = new FormData();
    proof.set("nota", "Piso seco e sinalizado");
    proof.set("foto", new File([tinyPng(30, 20) as Uint8Array<ArrayBuffer>], "prova.png", { type: "image/png" }));
    const resolved = await t.call("POST", `/api/execution/incidents/${id}/resolve`, { token: asg, form: proof });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({ id, status: "resolvida" });
    const again = await t.call("POST", `/api/execution/incidents/${id}/resolve`, { token: asg, form: proof });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Esta ocorrência já foi encerrada.");

    // The timeline holds every step; the manager sees the ASG's photo (a JPEG, re-encoded).
    const closed = await t.get(`/api/ocorrencias/${id}`, { token: admin });
    expect(closed.body.status).toBe("resolvida");
    expect(closed.body.eventos.map((event: { tipo: string }) => event.tipo)).toEqual([
      "aberta",
      "alerta_enviado",
      "corretiva",
      "resolvida",
    ]);
    const last = await t.db
      .selectFrom("incident_events")
      .select(["foto", "detalhe"])
      .where("incident_id", "=", id)
      .where("tipo", "=", "resolvida")
      .executeTakeFirstOrThrow();
    expect(last.detalhe).toBe("Piso seco e sinalizado");
    const photo = await t.fetch("GET", `/api/ocorrencias/${id}/fotos/${last.foto}`, { token: admin });
    expect(photo.status).toBe(200);
    expect((await sharp(Buffer.from(await photo.arrayBuffer())).metadata()).format).toBe("jpeg");
    const foreign = await t.fetch("GET", `/api/ocorrencias/${id}/fotos/${last.foto}`, {
      token: await t.signIn("outra@demo.com.br"),
    });
    expect(foreign.status).toBe(404);
    const notItsPhoto = await t.fetch("GET", `/api/ocorrencias/${id}/fotos/outra.jpg`, { token: admin });
    expect(notItsPhoto.status).toBe(404);

    // Resolved before its deadline: the overdue alert is never sent.
    await sendDueAlerts(
      { db: t.db, mailer: mailer(t.database), publicUrl: "https://limpeza.example" },
      new Date(Date.now() + 24 * 3600_000),
    );
    expect(await outbox("Ocorrência atrasada: Sujeira")).toEqual([]);
  });

  test("proof per kind: a note for 'Falta de papel/sabonete', both for 'Vazamento ou dano'; others' incidents 404", async () => {
    const paper = await report("Falta de papel/sabonete", "Sem sabonete no banheiro");
    const leak = await report("Vazamento ou dano", "Torneira pingando");
    for (const id of [paper, leak]) {
      expect((await change(id, { tipo: "corretiva", colaboradorId: asgId })).status).toBe(200);
    }
    const resolve = (id: number, fields: { nota?: string; foto?: boolean }, token = asg) => {
      const form = new FormData();
      if (fields.nota !== undefined) form.set("nota", fields.nota);
      if (fields.foto)
        form.set("foto", new File([tinyPng() as Uint8Array<ArrayBuffer>], "p.png", { type: "image/png" }));
      return t.call("POST", `/api/execution/incidents/${id}/resolve`, { token, form });
    };
    expect((await resolve(paper, { foto: true })).body.message).toBe("Escreva uma nota do que foi feito.");
    expect((await resolve(leak, { nota: "Troquei a vedação" })).body.message).toBe(
      "Envie uma foto do ambiente resolvido.",
    );
    expect((await resolve(leak, { foto: true })).body.message).toBe("Escreva uma nota do que foi feito.");
    expect((await resolve(paper, { nota: "x".repeat(501) })).body.message).toBe(
      "A nota pode ter no máximo 500 caracteres.",
    );
    // The ASG cleans before resolving: the history and the room page call that cleaning 'Extra'.
    const paperBooking = (await t.get("/api/execution/incidents", { token: asg })).body.items.find(
      (item: { id: number }) => item.id === paper,
    ).agendamentoId as number;
    expect((await t.post(`/api/execution/bookings/${paperBooking}/start`, undefined, { token: asg })).status).toBe(200);
    const procedure = await t.db
      .selectFrom("environment_procedures")
      .select("procedure_id")
      .where("environment_id", "=", room)
      .executeTakeFirst();
    expect(procedure, "the demo room has procedures").toBeDefined();
    const done = new FormData();
    done.set("procedureId", String(procedure!.procedure_id));
    expect(
      (await t.call("POST", `/api/execution/bookings/${paperBooking}/procedures`, { token: asg, form: done })).status,
    ).toBe(201);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Fortaleza" }).format(new Date());
    const history = await t.get(`/api/historic/v2/byEnvironment/${room}?dataIni=${today}&dataFim=${today}`, {
      token: admin,
    });
    expect(
      history.body.find((entry: { Agendamento: { id: number } }) => entry.Agendamento.id === paperBooking).Agendamento
        .type,
    ).toBe("Extra");
    const roomDay = RoomPage.parse((await t.get(`/api/info/ambiente/${room}`)).body);
    expect(JSON.stringify(roomDay)).toContain('"Extra"');
    // Someone else's (a manager's token has no corrective bookings; another tenant's ASG neither): 404.
    const coordinator = await t.signIn("coordenador@demo.com.br");
    expect((await resolve(paper, { nota: "Repus" }, coordinator)).status).toBe(404);
    expect((await resolve(paper, { nota: "Repus" })).status).toBe(200);
    expect((await resolve(leak, { nota: "Troquei a vedação", foto: true })).status).toBe(200);
  });

  test("the room page's banner follows the incident; the client and the auditor cannot create a corrective cleaning", async () => {
    const id = await report("Lixo cheio", "Lixeira transbordando");
    const banner = async () => RoomPage.parse((await t.get(`/api/info/ambiente/${room}`)).body).openIncident;
    expect((await banner())?.status).toBe("aberta");
    for (const email of ["cliente@demo.com.br", "auditor@demo.com.br"]) {
      const refused = await change(id, { tipo: "corretiva", colaboradorId: asgId }, await t.signIn(email));
      expect(refused.status, email).toBe(403);
    }
    expect((await change(id, { tipo: "corretiva", colaboradorId: asgId })).status).toBe(200);
    expect((await banner())?.status).toBe("em_atendimento");
    expect((await change(id, { tipo: "corretiva", colaboradorId: asgId })).status).toBe(200);
    expect((await change(id, { tipo: "descartada", motivo: "Duplicada" })).status).toBe(200);
    expect((await change(id, { tipo: "corretiva", colaboradorId: asgId })).status).toBe(409);
    // Closed: its two corrective cleanings, not started, leave the board and the phone (the rows stay, removed).
    const bookings = await t.db
      .selectFrom("bookings as b")
      .innerJoin("agendas as a", "a.id", "b.agenda_id")
      .select(["b.active"])
      .where("a.incident_id", "=", id)
      .execute();
    expect(bookings.map((booking) => booking.active)).toEqual([false, false]);
  });
});

describe("the alert job", () => {
  /** A second instance on the same database: a connection of its own on PostgreSQL; PGlite has one process. */
  async function secondInstance(): Promise<Database> {
    const url = process.env.DATABASE_URL;
    if (!url) return t.database;
    const address = new URL(url);
    address.pathname = `/${t.database.name}`;
    return openDatabase({ databaseUrl: address.href, poolSize: 2 });
  }

  test("two instances sweeping at once send each alert once", async () => {
    const ids = [await report("Sujeira", "Espelho manchado A"), await report("Sujeira", "Espelho manchado B")];
    await onlyAlertsOf(ids);
    const other = await secondInstance();
    try {
      const now = soon();
      const [first, second] = await Promise.all([
        sendDueAlerts({ db: t.db, mailer: mailer(t.database), publicUrl: "https://limpeza.example" }, now),
        sendDueAlerts({ db: other.db, mailer: mailer(other), publicUrl: "https://limpeza.example" }, now),
      ]);
      expect(first.sent + second.sent).toBe(2);
      const mails = await outbox("Nova ocorrência: Sujeira — ");
      for (const id of ids) {
        expect(
          mails.filter((mail) => mail.body_text.includes(`nº ${id}:`)),
          String(id),
        ).toHaveLength(1);
      }
    } finally {
      if (other !== t.database) await other.close();
    }
  });

  test("a deadline moved while its overdue alert is being sent keeps the alert due at the new time", async () => {
    const id = await report("Sujeira", "Porta manchada");
    await onlyAlertsOf([id]);
    await sendDueAlerts({ db: t.db, mailer: mailer(t.database), publicUrl: "https://limpeza.example" }, soon());
    const deadline = (
      await t.db.selectFrom("incidents").select("prazo_at").where("id", "=", id).executeTakeFirstOrThrow()
    ).prazo_at;
    const overdueAt = new Date(deadline.getTime() + 60_000);
    const newDeadline = new Date(overdueAt.getTime() + 3 * 3600_000);
    // The manager moves the deadline while the sweep is mailing (between its claim and its 'done').
    const moving = {
      async send() {
        expect((await change(id, { tipo: "prazo_alterado", prazo: newDeadline.toISOString() })).status).toBe(200);
      },
    };
    await sendDueAlerts({ db: t.db, mailer: moving, publicUrl: "https://limpeza.example" }, overdueAt);
    const alert = await t.db
      .selectFrom("incident_alerts")
      .select(["due_at", "done_at"])
      .where("incident_id", "=", id)
      .where("tipo", "=", "atrasada")
      .executeTakeFirstOrThrow();
    expect(alert).toEqual({ due_at: newDeadline, done_at: null });
  });

  test("an overdue incident is mailed after a restart: a sender that died leaves its claim, taken when its lease ends", async () => {
    const id = await report("Lixo cheio", "Lixeira do corredor");
    await onlyAlertsOf([id]);
    await sendDueAlerts({ db: t.db, mailer: mailer(t.database), publicUrl: "https://limpeza.example" }, soon());
    const deadline = (
      await t.db.selectFrom("incidents").select("prazo_at").where("id", "=", id).executeTakeFirstOrThrow()
    ).prazo_at;
    const overdueAt = new Date(deadline.getTime() + 60_000);
    // An instance claimed the overdue alert and died before sending it.
    await t.db
      .updateTable("incident_alerts")
      .set({ claimed_until: new Date(overdueAt.getTime() + 5 * 60_000) })
      .where("incident_id", "=", id)
      .where("tipo", "=", "atrasada")
      .execute();
    const restarted = await secondInstance();
    try {
      expect(
        (
          await sendDueAlerts(
            { db: restarted.db, mailer: mailer(restarted), publicUrl: "https://limpeza.example" },
            overdueAt,
          )
        ).sent,
      ).toBe(0);
      const afterLease = new Date(overdueAt.getTime() + 6 * 60_000);
      expect(
        (
          await sendDueAlerts(
            { db: restarted.db, mailer: mailer(restarted), publicUrl: "https://limpeza.example" },
            afterLease,
          )
        ).sent,
      ).toBe(1);
      expect(
        (
          await sendDueAlerts(
            { db: t.db, mailer: mailer(t.database), publicUrl: "https://limpeza.example" },
            afterLease,
          )
        ).sent,
      ).toBe(0);
    } finally {
      if (restarted !== t.database) await restarted.close();
    }
    const mails = (await outbox("Ocorrência atrasada: Lixo cheio")).filter((mail) =>
      mail.body_text.includes(`nº ${id}:`),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body_text).toContain("venceu em");
    // A new deadline queues the overdue alert again, for the new time.
    const newDeadline = new Date(Date.now() + 3 * 3600_000);
    expect((await change(id, { tipo: "prazo_alterado", prazo: newDeadline.toISOString() })).status).toBe(200);
    const alert = await t.db
      .selectFrom("incident_alerts")
      .select(["due_at", "done_at", sql<boolean>`claimed_until is null`.as("free")])
      .where("incident_id", "=", id)
      .where("tipo", "=", "atrasada")
      .executeTakeFirstOrThrow();
    expect(alert).toMatchObject({ due_at: newDeadline, done_at: null, free: true });
  });
});

describe("closing an incident and its corrective cleanings", () => {
  test("a discard removes the corrective cleaning not started yet and keeps the one the ASG started", async () => {
    const id = await report("Sujeira", "Mancha no teto do corredor");
    for (const [horaIni, horaFim] of [
      ["20:00", "20:30"],
      ["21:00", "21:30"],
    ]) {
      const created = await change(id, { tipo: "corretiva", colaboradorId: asgId, horaIni, horaFim });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
    const bookings = () =>
      t.db
        .selectFrom("bookings as b")
        .innerJoin("agendas as a", "a.id", "b.agenda_id")
        .select(["b.id", "b.hora_ini", "b.status", "b.active"])
        .where("a.incident_id", "=", id)
        .orderBy("b.hora_ini")
        .execute();
    const [started] = await bookings();
    // The ASG started the first one on the phone (the execution API writes this status).
    await t.db
      .updateTable("bookings")
      .set({ status: "Andamento", start_date: new Date() })
      .where("id", "=", started!.id)
      .execute();
    const discarded = await change(id, { tipo: "descartada", motivo: "Era sujeira antiga, já registrada" });
    expect(discarded.status).toBe(200);
    expect((await bookings()).map((row) => [row.hora_ini, row.status, row.active])).toEqual([
      ["20:00:00", "Andamento", true],
      ["21:00:00", null, false],
    ]);
  });
});
