/**
 * The field app's write path in the execution API (docs/field-app.md 'Idempotency', 'Instants', 'Proof flags';
 * docs/scheduling.md 'History and the execution API'): the Idempotency-Key header (a resend records once and answers
 * the same; another request with the key, a send in flight, a 5xx, the per-user cap, the sweep), the phone's
 * instants (future, too old, before the start, before the slot's day, a queue sent late), the QR proof,
 * 'Tudo feito' (procedures/remaining), and the walk of every execution call with a field session over ids of another
 * company and another branch (404 and nothing written, each call's control with the caller's own ids).
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { addDays, formatISO, parseISO } from "date-fns";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { INCIDENT_HANDLING_TEXTS } from "../../api/domain/incidents.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import type { SaveAgendaInput } from "../../api/domain/schedule-payloads.ts";
import { SCHEDULE_TEXTS } from "../../api/domain/schedule-texts.ts";
import { ExecutionDone, ExecutionSlot, FEITO_EM_INVALID } from "../../api/routes/execution.ts";
import type { FieldDay } from "../../api/routes/field.ts";
import { FILE_NOT_FOUND } from "../../api/routes/files.ts";
import { EXECUTION_TEXTS as X, PHOTO_FOLDER } from "../../api/services/execution.ts";
import {
  IDEMPOTENCY_TEXTS as I,
  KEYS_PER_USER_DAY,
  requestSignature,
  sweepExpiredIdempotencyKeys,
} from "../../api/services/idempotency.ts";
import { INCIDENT_PHOTO_FOLDER } from "../../api/services/incidents.ts";
import { createDiskStorage, type Storage } from "../../api/services/storage.ts";
import { useTestApi, type ApiAnswer } from "../support/api.ts";
import { countRows, demoIds, userByEmail } from "../support/demo.ts";
import { environmentWithProcedures, otherTenantBooking, writtenAgenda, writtenBooking } from "../support/execution.ts";
import { tinyPng } from "../support/files.ts";
import { operationsOf, readOpenApi } from "../support/openapi.ts";

// A store whose next saves can be made to fail: a 5xx mid-request.
const storeDir = mkdtempSync(path.join(tmpdir(), "field-execution-"));
const disk = createDiskStorage(storeDir);
let failingSaves = 0;
const storage: Storage = {
  ...disk,
  save: async (folder, extension, bytes) => {
    if (failingSaves > 0) {
      failingSaves--;
      throw new Error("disco indisponível (teste)");
    }
    return disk.save(folder, extension, bytes);
  },
};
const t = useTestApi({ storage });
afterAll(() => rmSync(storeDir, { recursive: true, force: true }));

const TODAY = businessToday();
const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });
const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);

const ids = { hospital: 0, other: 0, aldeota: 0, messejana: 0, recife: 0 };
const tokens: Record<"admin" | "asg" | "ana" | "bruno", string> = { admin: "", asg: "", ana: "", bruno: "" };
const users = { asg: 0, ana: 0, bruno: 0, outra: 0 };
const rooms = { aldeota: 0, messejana: 0 };
/** The Aldeota room's procedures (not deleted), as the room's page lists them. */
let procedures: { id: number; name: string }[] = [];

beforeAll(async () => {
  Object.assign(ids, await demoIds(t.db));
  tokens.admin = await t.signIn("admin@demo.com.br");
  tokens.asg = await t.signIn("asg@demo.com.br");
  tokens.ana = await t.signIn("ana@demo.com.br");
  tokens.bruno = await t.signIn("bruno@demo.com.br");
  users.asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  users.ana = (await userByEmail(t.db, "ana@demo.com.br")).id;
  users.bruno = (await userByEmail(t.db, "bruno@demo.com.br")).id;
  users.outra = (await userByEmail(t.db, "outra@demo.com.br")).id;
  rooms.aldeota = await environmentWithProcedures(t.db, ids.aldeota);
  rooms.messejana = await environmentWithProcedures(t.db, ids.messejana);
  procedures = await t.db
    .selectFrom("environment_procedures as ep")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .select(["p.id", "p.name"])
    .where("ep.environment_id", "=", rooms.aldeota)
    .where("p.deleted_at", "is", null)
    .orderBy("p.id")
    .execute();
  expect(procedures.length).toBeGreaterThanOrEqual(2);
});

/** Today's main slot and its revision of a new 12X agenda (through the API), for `userId` in the branch's room. */
async function todaysSlots(userId = users.asg, branch: "aldeota" | "messejana" = "aldeota") {
  const agenda: SaveAgendaInput = {
    Id_EmpresasFilial: ids[branch],
    Id_Environments: rooms[branch],
    Id_Users: userId,
    Periodicidade: {
      type: "12X",
      DIAS_SEMANA: "",
      hora_base_inicial: "08:00",
      hora_base_final: "09:00",
      Revisoes: [{ HORA_INICIAL: "10:00", HORA_FINAL: "10:30" }],
    },
    revisionPhotos: false,
    vigIni: TODAY,
    vigFim: day(TODAY, 2),
  };
  const answer = await t.post("/api/agendas/v2/saveAgenda", [agenda], { token: tokens.admin });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const rows = await t.db
    .selectFrom("bookings")
    .select(["id", "slot"])
    .where("agenda_id", "=", answer.body[0].ID as number)
    .where("data_agend", "=", TODAY)
    .orderBy("slot")
    .execute();
  return { main: rows[0].id, revision: rows[1].id };
}

/**
 * A slot of yesterday: any instant of the last hour is on or after its day whatever the hour the test runs (a slot
 * of today would refuse an instant of 23:30 yesterday as done before its day).
 */
async function yesterdaysSlot() {
  const { main } = await todaysSlots();
  await t.db
    .updateTable("bookings")
    .set({ data_agend: day(TODAY, -1) })
    .where("id", "=", main)
    .execute();
  return main;
}

const newKey = () => randomUUID();
type Send = { key?: string; json?: unknown; form?: FormData; token?: string };
const send = (bookingId: number, action: string, options: Send = {}) =>
  t.call("POST", `/api/execution/bookings/${bookingId}/${action}`, {
    token: options.token ?? tokens.asg,
    json: options.json,
    form: options.form,
    headers: options.key === undefined ? {} : { "idempotency-key": options.key },
  });

function procedureForm(procedureId: number, options: { photo?: boolean; feitoEm?: Date } = {}) {
  const form = new FormData();
  form.set("procedureId", String(procedureId));
  if (options.photo) form.set("photo", new File([tinyPng() as Uint8Array<ArrayBuffer>], "foto.png"));
  if (options.feitoEm) form.set("feitoEm", options.feitoEm.toISOString());
  return form;
}

const bookingRow = (id: number) =>
  t.db
    .selectFrom("bookings")
    .select([
      "status",
      "start_date",
      "start_received_at",
      "finished_at",
      "finish_received_at",
      "envio_atraso_s",
      "iniciada_via_qr",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const historyOf = (bookingId: number) =>
  t.db
    .selectFrom("history")
    .select(["id", "procedure_id", "image", "created_at", "received_at"])
    .where("booking_id", "=", bookingId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
const storedPhotos = () => {
  const dir = path.join(storeDir, PHOTO_FOLDER);
  return existsSync(dir) ? readdirSync(dir).filter((name) => !name.startsWith(".")) : [];
};

/** A key whose first send (a finish of `bookingId`, no body) began at `since` and has no answer yet. */
async function finishInFlight(bookingId: number, since: Date) {
  const key = newKey();
  const emptyBody = createHash("sha256").digest("hex");
  await t.db
    .insertInto("idempotency_keys")
    .values({
      company_id: ids.hospital,
      user_id: users.asg,
      chave: key,
      pedido: requestSignature("POST", `/api/execution/bookings/${bookingId}/finish`, emptyBody),
      created_at: since,
    })
    .execute();
  return key;
}

describe("Idempotency-Key", () => {
  test("the same key twice records once and answers the same status and body, the second marked replayed", async () => {
    const { main } = await todaysSlots();
    const key = newKey();
    const first = await send(main, "start", { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const recorded = await bookingRow(main);
    const again = await send(main, "start", { key });
    expect([again.status, again.body]).toEqual([200, first.body]);
    expect([first.headers.get("idempotent-replayed"), again.headers.get("idempotent-replayed")]).toEqual([
      null,
      "true",
    ]);
    // Recorded once: a second start would have been refused, and the received instant is the first one's.
    expect((await bookingRow(main)).start_received_at).toEqual(recorded.start_received_at);
  });

  test("a photo sent twice with one key (a new multipart boundary each time): one history row, one file", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    const photosBefore = storedPhotos().length;
    const key = newKey();
    const first = await send(main, "procedures", { key, form: procedureForm(procedures[0].id, { photo: true }) });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await send(main, "procedures", { key, form: procedureForm(procedures[0].id, { photo: true }) });
    expect([again.status, again.body]).toEqual([201, first.body]);
    expect((await historyOf(main)).length).toBe(1);
    expect(storedPhotos().length).toBe(photosBefore + 1);
  });

  test("the same key with another body is refused (422) and records nothing", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    const key = newKey();
    expect((await send(main, "procedures", { key, form: procedureForm(procedures[0].id) })).status).toBe(201);
    const other = await send(main, "procedures", { key, form: procedureForm(procedures[1].id) });
    expect([other.status, other.body.message]).toEqual([422, I.otherRequest]);
    expect((await historyOf(main)).map((row) => row.procedure_id)).toEqual([procedures[0].id]);
  });

  test("the same key on another call is refused (422) and records nothing", async () => {
    const { main } = await todaysSlots();
    const key = newKey();
    expect((await send(main, "start", { key })).status).toBe(200);
    const finish = await send(main, "finish", { key });
    expect([finish.status, finish.body.message]).toEqual([422, I.otherRequest]);
    expect((await bookingRow(main)).status).toBe("Andamento");
  });

  test("two sends at once with one key record once", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    const key = newKey();
    const answers = await Promise.all(
      [0, 1].map(() => send(main, "procedures", { key, form: procedureForm(procedures[0].id) })),
    );
    // The second either came after the first's answer (the same answer again) or met it in flight (409, try again):
    // never the rule's 'already recorded', which would mean it ran.
    const recorded = answers.find((answer) => answer.status === 201)!;
    for (const answer of answers)
      expect([answer.status, answer.body]).toEqual(
        answer.status === 201 ? [201, recorded.body] : [409, { message: I.inFlight }],
      );
    expect((await historyOf(main)).length).toBe(1);
  });

  test("a refusal is kept: the key answers it again after the slot has changed", async () => {
    const { main } = await todaysSlots();
    const key = newKey();
    const early = await send(main, "finish", { key });
    expect([early.status, early.body.message]).toEqual([409, X.notStartedFinish]);
    expect((await send(main, "start")).status).toBe(200);
    const again = await send(main, "finish", { key });
    expect([again.status, again.body.message, again.headers.get("idempotent-replayed")]).toEqual([
      409,
      X.notStartedFinish,
      "true",
    ]);
    expect((await bookingRow(main)).status).toBe("Andamento");
  });

  test("a 5xx is not kept: the same key runs again and records", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    const key = newKey();
    failingSaves = 1;
    const failed = await send(main, "procedures", { key, form: procedureForm(procedures[0].id, { photo: true }) });
    expect(failed.status).toBe(500);
    const retried = await send(main, "procedures", { key, form: procedureForm(procedures[0].id, { photo: true }) });
    expect([retried.status, retried.headers.get("idempotent-replayed")]).toEqual([201, null]);
    expect((await historyOf(main)).length).toBe(1);
  });

  test("a key outside 1-100 of A-Z a-z 0-9 _ - : . is refused (400) and nothing is recorded", async () => {
    const { main } = await todaysSlots();
    for (const key of ["com espaço", "x".repeat(101), "", "ação"]) {
      const answer = await send(main, "start", { key });
      expect([answer.status, answer.body.message], key).toEqual([400, I.invalidKey]);
    }
    expect((await bookingRow(main)).status).toBeNull();
  });

  test("a key in double quotes (the draft's sf-string) is the same key as bare", async () => {
    const { main } = await todaysSlots();
    const key = newKey();
    expect((await send(main, "start", { key: `"${key}"` })).status).toBe(200);
    const bare = await send(main, "start", { key });
    expect([bare.status, bare.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
  });

  test("while the first send is being answered the same key gets 409 with Retry-After, and nothing runs", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    const key = await finishInFlight(main, new Date());
    const answer = await send(main, "finish", { key });
    expect([answer.status, answer.body.message, answer.headers.get("retry-after")]).toEqual([409, I.inFlight, "2"]);
    expect((await bookingRow(main)).status).toBe("Andamento");
  });

  test("a first send left unanswered over 2 minutes ago (its process died) is run by the next send", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    const key = await finishInFlight(main, ago(3 * MINUTE));
    expect((await send(main, "finish", { key })).status).toBe(200);
    expect((await bookingRow(main)).status).toBe("Completo");
  });

  test(`a user's ${KEYS_PER_USER_DAY + 1}th new key in 24 hours is refused (429) and records nothing`, async () => {
    const { main } = await todaysSlots(users.ana);
    await t.db
      .insertInto("idempotency_keys")
      .values(
        Array.from({ length: KEYS_PER_USER_DAY }, (_, n) => ({
          company_id: ids.hospital,
          user_id: users.ana,
          chave: `antiga-${n}`,
          pedido: "POST /x",
          status: 200,
          created_at: ago(23 * 60 * MINUTE),
        })),
      )
      .execute();
    const answer = await send(main, "start", { key: newKey(), token: tokens.ana });
    expect([answer.status, answer.body.message]).toEqual([429, I.tooMany]);
    expect((await bookingRow(main)).status).toBeNull();
    await t.db.deleteFrom("idempotency_keys").where("user_id", "=", users.ana).execute();
  });

  test("keys older than 24 hours do not count towards the cap", async () => {
    const { main } = await todaysSlots(users.ana);
    await t.db
      .insertInto("idempotency_keys")
      .values(
        Array.from({ length: KEYS_PER_USER_DAY }, (_, n) => ({
          company_id: ids.hospital,
          user_id: users.ana,
          chave: `ontem-${n}`,
          pedido: "POST /x",
          status: 200,
          created_at: ago(25 * 60 * MINUTE),
        })),
      )
      .execute();
    expect((await send(main, "start", { key: newKey(), token: tokens.ana })).status).toBe(200);
    await t.db.deleteFrom("idempotency_keys").where("user_id", "=", users.ana).execute();
  });

  test("another branch's booking with a key is 404, and that 404 is not replayed to its owner sending the same key", async () => {
    const { main } = await todaysSlots(users.bruno, "messejana");
    const key = newKey();
    const foreign = await send(main, "start", { key });
    expect([foreign.status, foreign.body.message]).toEqual([404, X.bookingNotFound]);
    expect((await bookingRow(main)).status).toBeNull();
    const own = await send(main, "start", { key, token: tokens.bruno });
    expect([own.status, own.headers.get("idempotent-replayed")]).toEqual([200, null]);
  });

  test("another company's booking with a key is 404 and stays untouched", async () => {
    const other = await otherTenantBooking(t.db, ids, users.outra);
    const answer = await send(other, "start", { key: newKey() });
    expect([answer.status, answer.body.message]).toEqual([404, X.bookingNotFound]);
    expect((await bookingRow(other)).status).toBeNull();
  });

  test("the sweep removes keys older than 30 days and keeps the others", async () => {
    const row = (chave: string, days: number) => ({
      company_id: ids.hospital,
      user_id: users.asg,
      chave,
      pedido: "POST /x",
      status: 200,
      created_at: ago(days * 24 * 60 * MINUTE),
    });
    await t.db
      .insertInto("idempotency_keys")
      .values([row("velha", 31), row("recente", 29)])
      .execute();
    await sweepExpiredIdempotencyKeys(t.db, new Date());
    const left = await t.db
      .selectFrom("idempotency_keys")
      .select("chave")
      .where("chave", "in", ["velha", "recente"])
      .execute();
    expect(left.map((r) => r.chave)).toEqual(["recente"]);
  });
});

describe("phone instants (feitoEm)", () => {
  test("an instant in the future is stored as the receipt", async () => {
    const { main } = await todaysSlots();
    const before = Date.now();
    const answer = await send(main, "start", { json: { feitoEm: new Date(Date.now() + 2 * 3_600_000).toISOString() } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const row = await bookingRow(main);
    expect(row.start_date).toEqual(row.start_received_at);
    expect(row.start_date!.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(row.start_date!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  test("an instant 8 days old is refused (422) and nothing is written", async () => {
    const main = await yesterdaysSlot();
    const answer = await send(main, "start", { json: { feitoEm: ago(8 * 24 * 60 * MINUTE).toISOString() } });
    expect([answer.status, answer.body.message]).toEqual([
      422,
      "Este registro foi feito há mais de 7 dias e não pode mais ser enviado.",
    ]);
    expect(await bookingRow(main)).toMatchObject({ status: null, start_date: null, start_received_at: null });
  });

  test("a queue sent later is stored in the order it was done, with both instants and the longest delay", async () => {
    const main = await yesterdaysSlot();
    const hourAgo = ago(60 * MINUTE).getTime();
    const at = (minutes: number) => new Date(hourAgo + minutes * MINUTE);
    const sentFrom = Date.now();
    const steps = [
      await send(main, "start", { key: newKey(), json: { feitoEm: at(0).toISOString() } }),
      await send(main, "procedures", { key: newKey(), form: procedureForm(procedures[1].id, { feitoEm: at(5) }) }),
      await send(main, "procedures", { key: newKey(), form: procedureForm(procedures[0].id, { feitoEm: at(10) }) }),
      await send(main, "finish", { key: newKey(), json: { feitoEm: at(20).toISOString() } }),
    ];
    expect(steps.map((step) => step.status)).toEqual([200, 201, 201, 200]);
    const slot = ExecutionSlot.parse(steps[3].body);
    expect([slot.startDate, slot.finishedAt]).toEqual([at(0).toISOString(), at(20).toISOString()]);
    expect(slot.done.map((done) => [done.procedureId, done.createdAt])).toEqual([
      [procedures[1].id, at(5).toISOString()],
      [procedures[0].id, at(10).toISOString()],
    ]);
    for (const received of [slot.startReceivedAt, slot.finishReceivedAt, ...slot.done.map((d) => d.receivedAt)])
      expect(Date.parse(received!)).toBeGreaterThanOrEqual(sentFrom);
    // The start waited the longest: about an hour.
    expect(slot.envioAtrasoS).toBeGreaterThanOrEqual(3600);
    expect(slot.envioAtrasoS).toBeLessThan(3600 + 60);
    expect((await bookingRow(main)).envio_atraso_s).toBe(slot.envioAtrasoS);
  });

  test("a record received under 5 minutes after it was done is not flagged late", async () => {
    const main = await yesterdaysSlot();
    expect((await send(main, "start", { json: { feitoEm: ago(4 * MINUTE).toISOString() } })).status).toBe(200);
    expect((await bookingRow(main)).envio_atraso_s).toBeNull();
  });

  test("a procedure done before the slot's start is stored at the start", async () => {
    const main = await yesterdaysSlot();
    const start = ago(30 * MINUTE);
    expect((await send(main, "start", { json: { feitoEm: start.toISOString() } })).status).toBe(200);
    const done = await send(main, "procedures", {
      form: procedureForm(procedures[0].id, { feitoEm: ago(40 * MINUTE) }),
    });
    expect(done.status).toBe(201);
    expect(ExecutionDone.parse(done.body).createdAt).toBe(start.toISOString());
  });

  test("a finish done before the slot's last procedure is stored at that procedure's instant", async () => {
    const main = await yesterdaysSlot();
    expect((await send(main, "start", { json: { feitoEm: ago(30 * MINUTE).toISOString() } })).status).toBe(200);
    const last = ago(10 * MINUTE);
    expect((await send(main, "procedures", { form: procedureForm(procedures[0].id, { feitoEm: last }) })).status).toBe(
      201,
    );
    const finish = await send(main, "finish", { json: { feitoEm: ago(20 * MINUTE).toISOString() } });
    expect(ExecutionSlot.parse(finish.body).finishedAt).toBe(last.toISOString());
  });

  test("a start done before the slot's own day is refused as a start of a later day", async () => {
    const { main } = await todaysSlots();
    // 02:00 UTC of today is 23:00 of yesterday in Fortaleza (UTC-3).
    const answer = await send(main, "start", { json: { feitoEm: `${TODAY}T02:00:00Z` } });
    const [y, m, d] = TODAY.split("-");
    expect([answer.status, answer.body.message]).toEqual([
      409,
      `Esta limpeza está agendada para ${d}/${m}/${y} e só pode ser iniciada nesse dia.`,
    ]);
    expect((await bookingRow(main)).status).toBeNull();
  });

  test("an instant without an offset is refused (400)", async () => {
    const { main } = await todaysSlots();
    const answer = await send(main, "start", { json: { feitoEm: `${TODAY}T08:15:00` } });
    expect([answer.status, answer.body.message]).toEqual([400, FEITO_EM_INVALID]);
    expect((await bookingRow(main)).status).toBeNull();
  });
});

describe("QR proof", () => {
  const currentQr = async () =>
    (
      await t.db
        .selectFrom("environments")
        .select("qr_codigo")
        .where("id", "=", rooms.aldeota)
        .executeTakeFirstOrThrow()
    ).qr_codigo;

  test("started with the room's current QR value: viaQr true", async () => {
    const { main } = await todaysSlots();
    const answer = await send(main, "start", { json: { qr: await currentQr() } });
    expect(ExecutionSlot.parse(answer.body).viaQr).toBe(true);
    expect((await bookingRow(main)).iniciada_via_qr).toBe(true);
  });

  test("started with a wrong QR value: started all the same, viaQr false", async () => {
    const { main } = await todaysSlots();
    const answer = await send(main, "start", { json: { qr: "0123456789abcdef" } });
    expect([answer.status, answer.body.status, answer.body.viaQr]).toEqual([200, "Andamento", false]);
  });

  test("started without a QR value (the room chosen from a list): viaQr false", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).body.viaQr).toBe(false);
  });

  test("started with the retired QR value (the code was reissued): started all the same, viaQr false", async () => {
    const { main } = await todaysSlots();
    const retired = await currentQr();
    await t.db
      .updateTable("environments")
      .set({ qr_codigo: "fedcba9876543210", qr_codigo_anterior: retired, qr_emitido_em: new Date() })
      .where("id", "=", rooms.aldeota)
      .execute();
    const answer = await send(main, "start", { json: { qr: retired } });
    expect([answer.status, answer.body.viaQr]).toEqual([200, false]);
  });
});

describe("'Tudo feito' (procedures/remaining)", () => {
  test("'Iniciar', 'Tudo feito', 'Finalizar': the slot done with every procedure of the room once", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start", { key: newKey() })).status).toBe(200);
    const all = await send(main, "procedures/remaining", { key: newKey() });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const finished = ExecutionSlot.parse((await send(main, "finish", { key: newKey() })).body);
    expect(finished.status).toBe("Completo");
    expect(finished.done.map((done) => done.procedureId).sort()).toEqual(procedures.map((p) => p.id).sort());
  });

  test("after one recorded procedure it records each of the others once, none twice", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    const first = ExecutionDone.parse((await send(main, "procedures", { form: procedureForm(procedures[0].id) })).body);
    expect((await send(main, "procedures/remaining")).status).toBe(200);
    const rows = await historyOf(main);
    expect(rows.map((row) => row.procedure_id).sort()).toEqual(procedures.map((p) => p.id).sort());
    expect(rows.filter((row) => row.procedure_id === procedures[0].id).map((row) => row.id)).toEqual([first.id]);
  });

  test("a second 'Tudo feito' (a new key) records nothing more", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    expect((await send(main, "procedures/remaining", { key: newKey() })).status).toBe(200);
    const again = await send(main, "procedures/remaining", { key: newKey() });
    expect(again.status).toBe(200);
    expect((await historyOf(main)).length).toBe(procedures.length);
  });

  test("before the start it is refused (409) and records nothing", async () => {
    const { main } = await todaysSlots();
    const answer = await send(main, "procedures/remaining");
    expect([answer.status, answer.body.message]).toEqual([409, X.notStartedRecord]);
    expect(await historyOf(main)).toEqual([]);
  });

  test("after the finish it is refused (409) and records nothing", async () => {
    const { main } = await todaysSlots();
    expect((await send(main, "start")).status).toBe(200);
    expect((await send(main, "finish")).status).toBe(200);
    const answer = await send(main, "procedures/remaining");
    expect([answer.status, answer.body.message]).toEqual([409, X.alreadyClosed]);
    expect(await historyOf(main)).toEqual([]);
  });

  test("records at the phone's instant, received now", async () => {
    const main = await yesterdaysSlot();
    expect((await send(main, "start", { json: { feitoEm: ago(50 * MINUTE).toISOString() } })).status).toBe(200);
    const at = ago(40 * MINUTE);
    const slot = ExecutionSlot.parse(
      (await send(main, "procedures/remaining", { json: { feitoEm: at.toISOString() } })).body,
    );
    expect(new Set(slot.done.map((done) => done.createdAt))).toEqual(new Set([at.toISOString()]));
    expect(slot.done.every((done) => Date.parse(done.receivedAt!) > at.getTime() + 30 * MINUTE)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// A field user of another company or branch gets 404 for every id (docs/security.md, the ids rule).

/** Where a fixture row lives and whose it is: a company, a branch, a room of it with a procedure, a person. */
type Owner = { company: number; branch: number; room: number; procedure: number; user: number };

/**
 * A booking of today written straight to the database (tests/support/execution.ts): any owner, also one no API call
 * writes (another company's room naming the caller), so that a single scope filter is all that keeps it out.
 */
const ownersBooking = (owner: Owner, state: "todo" | "started") =>
  writtenBooking(t.db, owner, { periodicity: "Ronda", state });

/**
 * An incident of the owner's room, open ('em_atendimento'), with a visitor's photo in the store and a corrective
 * agenda naming the owner's person (what GET /execution/incidents lists); its kind asks for a note only.
 */
async function writtenIncident(owner: Owner) {
  const kind = await t.db
    .selectFrom("incident_kinds")
    .select("id")
    .where("company_id", "=", owner.company)
    .where("prova", "=", "nota")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const incident = await t.db
    .insertInto("incidents")
    .values({
      company_id: owner.company,
      branch_id: owner.branch,
      environment_id: owner.room,
      kind_id: kind.id,
      descricao: "Lixeira cheia",
      foto: await storage.save(INCIDENT_PHOTO_FOLDER, "png", tinyPng()),
      prazo_at: new Date(Date.now() + 4 * 60 * MINUTE),
      status: "em_atendimento",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await writtenAgenda(t.db, owner, { nome: "Corretiva", type: "sem", hours: ["23:00", "23:30"] }, incident.id);
  return incident.id;
}

/** The ids one execution call is sent with: the caller's own, but for the one foreign id a row tries. */
type WalkIds = { booking: number; room: number; procedure: number; incident: number };

/** The foreign ids a field user of Hospital Boa Saúde, Filial Aldeota (asg@demo.com.br) tries: what, and whose. */
const FOREIGN = {
  "another company's booking": { id: "booking", owner: "otherCompany" },
  // A row no API call writes: only the company filter keeps it from the caller it names.
  "another company's booking naming the caller": { id: "booking", owner: "otherCompanyCaller" },
  "another branch's booking": { id: "booking", owner: "otherBranch" },
  "another company's room": { id: "room", owner: "otherCompany" },
  "another branch's room": { id: "room", owner: "otherBranch" },
  "another company's procedure": { id: "procedure", owner: "otherCompany" },
  "another branch's procedure": { id: "procedure", owner: "otherBranch" },
  "another company's incident": { id: "incident", owner: "otherCompany" },
  "another company's incident naming the caller": { id: "incident", owner: "otherCompanyCaller" },
  "another branch's incident": { id: "incident", owner: "otherBranch" },
} as const;
type ForeignKind = keyof typeof FOREIGN;
type OwnerName = (typeof FOREIGN)[ForeignKind]["owner"] | "own";
const kindsOf = (id: keyof WalkIds) =>
  (Object.keys(FOREIGN) as ForeignKind[]).filter((kind) => FOREIGN[kind].id === id);

type Walked = {
  /** The OpenAPI operation, 'METHOD /api/path'. */
  route: string;
  kinds: readonly ForeignKind[];
  /** The booking state the call succeeds on (for the foreign booking too, so a missed check would write). */
  needs?: "todo" | "started";
  /** Whether the call takes an incident (a fresh one per try: resolving closes it). */
  incident?: true;
  /** The 404's message for the route's path id. */
  missing: string;
  /** The control's status with the caller's own ids. */
  ok: number;
  send: (ids: WalkIds, token: string) => Promise<ApiAnswer>;
};

/** A write as the field app's queue sends it: with a new Idempotency-Key. */
const queued = (path: string, token: string, body: { json?: unknown; form?: FormData } = {}) =>
  t.call("POST", path, { token, ...body, headers: { "idempotency-key": newKey() } });
const slotPath = (ids: WalkIds, action = "") => `/api/execution/bookings/${ids.booking}${action}`;

/** Every operation under /api/execution that takes an id, with the ids it takes (the coverage test reads the rest). */
const WALK: Walked[] = [
  {
    route: "GET /api/execution/bookings/{id}",
    kinds: kindsOf("booking"),
    needs: "todo",
    missing: X.bookingNotFound,
    ok: 200,
    send: (ids, token) => t.get(slotPath(ids), { token }),
  },
  {
    route: "POST /api/execution/bookings/{id}/start",
    kinds: kindsOf("booking"),
    needs: "todo",
    missing: X.bookingNotFound,
    ok: 200,
    send: (ids, token) => queued(slotPath(ids, "/start"), token, { json: {} }),
  },
  {
    route: "POST /api/execution/bookings/{id}/procedures",
    kinds: [...kindsOf("booking"), ...kindsOf("procedure")],
    needs: "started",
    missing: X.bookingNotFound,
    ok: 201,
    send: (ids, token) =>
      queued(slotPath(ids, "/procedures"), token, { form: procedureForm(ids.procedure, { photo: true }) }),
  },
  {
    route: "POST /api/execution/bookings/{id}/procedures/remaining",
    kinds: kindsOf("booking"),
    needs: "started",
    missing: X.bookingNotFound,
    ok: 200,
    send: (ids, token) => queued(slotPath(ids, "/procedures/remaining"), token, { json: {} }),
  },
  {
    route: "POST /api/execution/bookings/{id}/finish",
    kinds: kindsOf("booking"),
    needs: "started",
    missing: X.bookingNotFound,
    ok: 200,
    send: (ids, token) => queued(slotPath(ids, "/finish"), token, { json: {} }),
  },
  {
    route: "POST /api/execution/bookings/{id}/incomplete",
    kinds: kindsOf("booking"),
    needs: "todo",
    missing: X.bookingNotFound,
    ok: 200,
    send: (ids, token) => queued(slotPath(ids, "/incomplete"), token, { json: { justificativa: "Sala trancada" } }),
  },
  {
    route: "GET /api/execution/environments/{id}",
    kinds: kindsOf("room"),
    missing: SCHEDULE_TEXTS.environmentNotFound,
    ok: 200,
    send: (ids, token) => t.get(`/api/execution/environments/${ids.room}`, { token }),
  },
  {
    route: "GET /api/execution/incidents/{id}/foto",
    kinds: kindsOf("incident"),
    incident: true,
    missing: FILE_NOT_FOUND,
    ok: 200,
    send: (ids, token) => t.get(`/api/execution/incidents/${ids.incident}/foto`, { token }),
  },
  {
    route: "POST /api/execution/incidents/{id}/resolve",
    kinds: kindsOf("incident"),
    incident: true,
    missing: INCIDENT_HANDLING_TEXTS.notFound,
    ok: 200,
    send: (ids, token) => {
      const form = new FormData();
      form.set("nota", "Lixeira esvaziada");
      return queued(`/api/execution/incidents/${ids.incident}/resolve`, token, { form });
    },
  },
];

/** The operations under /api/execution that take no id: what they list must hold none of the foreign rows. */
const LISTS = [
  {
    route: "GET /api/execution/today",
    rows: "booking" as const,
    idsIn: (body: FieldDay) => [...body.today, ...body.yesterday, ...body.tomorrow].map((slot) => slot.id),
  },
  {
    route: "GET /api/execution/bookings",
    rows: "booking" as const,
    idsIn: (body: { bookings: { slots: { id: number }[] }[] }) =>
      body.bookings.flatMap((booking) => booking.slots.map((slot) => slot.id)),
  },
  {
    route: "GET /api/execution/incidents",
    rows: "incident" as const,
    idsIn: (body: { items: { id: number }[] }) => body.items.map((item) => item.id),
  },
];

describe("a field session (POST /api/sessions/campo) on ids of another company or branch", () => {
  let field = "";
  const owners = {} as Record<OwnerName, Owner>;

  beforeAll(async () => {
    // The real field sign-in: a session of kind 'campo', which opens only the field calls.
    const signedIn = await t.post("/api/sessions/campo", { email: "asg@demo.com.br", password: DEMO_PASSWORD });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    field = signedIn.body.token;
    const procedureOf = async (room: number) =>
      (
        await t.db
          .selectFrom("environment_procedures")
          .select("procedure_id")
          .where("environment_id", "=", room)
          .orderBy("procedure_id")
          .executeTakeFirstOrThrow()
      ).procedure_id;
    const recife = await environmentWithProcedures(t.db, ids.recife);
    owners.own = {
      company: ids.hospital,
      branch: ids.aldeota,
      room: rooms.aldeota,
      procedure: procedures[0].id,
      user: users.asg,
    };
    owners.otherCompany = {
      company: ids.other,
      branch: ids.recife,
      room: recife,
      procedure: await procedureOf(recife),
      user: users.outra,
    };
    owners.otherCompanyCaller = { ...owners.otherCompany, user: users.asg };
    owners.otherBranch = {
      company: ids.hospital,
      branch: ids.messejana,
      room: rooms.messejana,
      procedure: await procedureOf(rooms.messejana),
      user: users.bruno,
    };
  });

  /** The ids a try sends: the caller's own (fresh rows, in the state the call needs) but for `kind`'s one. */
  async function idsFor(route: Walked, kind: ForeignKind | "own"): Promise<WalkIds> {
    const foreign = kind === "own" ? null : FOREIGN[kind];
    const ownerOf = (id: keyof WalkIds) => owners[foreign?.id === id ? foreign.owner : "own"];
    const booking = ownerOf("booking");
    return {
      booking: route.needs ? await ownersBooking(booking, route.needs) : 0,
      room: ownerOf("room").room,
      // With a foreign booking, its room's procedure: a missed booking check would record it.
      procedure: foreign?.id === "procedure" ? ownerOf("procedure").procedure : booking.procedure,
      incident: route.incident ? await writtenIncident(ownerOf("incident")) : 0,
    };
  }

  /**
   * Everything a call with these ids could write, flat ('booking.status', 'history', …): the booking and its history,
   * the incident and its events, every history row, the stored photos.
   */
  async function stateOf(walkIds: WalkIds): Promise<Record<string, string>> {
    const booking = await t.db.selectFrom("bookings").selectAll().where("id", "=", walkIds.booking).executeTakeFirst();
    const incident = await t.db
      .selectFrom("incidents")
      .selectAll()
      .where("id", "=", walkIds.incident)
      .executeTakeFirst();
    const state = {
      ...Object.fromEntries(Object.entries(booking ?? {}).map(([key, value]) => [`booking.${key}`, value])),
      ...Object.fromEntries(Object.entries(incident ?? {}).map(([key, value]) => [`incident.${key}`, value])),
      history: await historyOf(walkIds.booking),
      events: await t.db
        .selectFrom("incident_events")
        .select(["id", "tipo"])
        .where("incident_id", "=", walkIds.incident)
        .execute(),
      historyRows: await countRows(t.db, "history"),
      photos: storedPhotos().length,
    };
    return Object.fromEntries(Object.entries(state).map(([key, value]) => [key, JSON.stringify(value)]));
  }

  /** What differs between two states, 'booking.status null → "Andamento"'. */
  const changes = (before: Record<string, string>, after: Record<string, string>) =>
    Object.keys(after)
      .filter((key) => after[key] !== before[key])
      .map((key) => `${key} ${before[key]} → ${after[key]}`);

  for (const route of WALK) {
    test(`${route.route}: 404 and nothing written for ${route.kinds.join(", ")}; 200s with the caller's own`, async () => {
      const wrong: string[] = [];
      for (const kind of route.kinds) {
        const walkIds = await idsFor(route, kind);
        const before = await stateOf(walkIds);
        const answer = await route.send(walkIds, field);
        const message = FOREIGN[kind].id === "procedure" ? X.procedureNotFound : route.missing;
        if (answer.status !== 404 || answer.body?.message !== message)
          wrong.push(`${kind}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
        const written = changes(before, await stateOf(walkIds));
        if (written.length) wrong.push(`${kind}: wrote ${written.join("; ")}`);
      }
      expect(wrong).toEqual([]);

      // The control: the caller's own ids, the same call, succeeds (and writes what it should).
      const own = await idsFor(route, "own");
      const answer = await route.send(own, field);
      expect(answer.status, JSON.stringify(answer.body)).toBe(route.ok);
    });
  }

  test("the calls without an id list none of those bookings and incidents, and do list the caller's own", async () => {
    const bookings = await Promise.all(
      (["otherCompany", "otherCompanyCaller", "otherBranch"] as const).map((who) => ownersBooking(owners[who], "todo")),
    );
    const incidents = await Promise.all(
      (["otherCompany", "otherCompanyCaller", "otherBranch"] as const).map((who) => writtenIncident(owners[who])),
    );
    const own = { booking: await ownersBooking(owners.own, "todo"), incident: await writtenIncident(owners.own) };
    for (const list of LISTS) {
      const answer = await t.get(list.route.replace(/^GET /, ""), { token: field });
      expect(answer.status, `${list.route}: ${JSON.stringify(answer.body)}`).toBe(200);
      const listed = list.idsIn(answer.body);
      const foreign = list.rows === "booking" ? bookings : incidents;
      expect(
        foreign.filter((id) => listed.includes(id)),
        list.route,
      ).toEqual([]);
      expect(listed, list.route).toContain(own[list.rows]);
    }
  });

  test("the walk covers every operation under /api/execution of the OpenAPI document", async () => {
    const served = operationsOf(await readOpenApi(t))
      .filter((operation) => operation.path.startsWith("/api/execution/") || operation.path === "/api/execution")
      .map((operation) => operation.name);
    expect([...WALK.map((route) => route.route), ...LISTS.map((list) => list.route)].sort()).toEqual(served.sort());
  });
});
