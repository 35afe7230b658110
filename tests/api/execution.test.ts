/**
 * The execution API for the cleaning staff's phone app (DESIGN.md 'The execution client's calls'; docs/scheduling.md
 * 'History and the execution API'): the ASG signs in through the API, lists the day's bookings, starts a slot, records
 * a procedure with a photo, finishes; reports another incomplete with a reason; the rules' refusals with their
 * messages; other people's and other tenants' bookings are 404; the web sign-in still refuses ASGs.
 */
import { addDays, formatISO, parseISO } from "date-fns";
import sharp from "sharp";
import { beforeAll, describe, expect, test } from "vitest";

import { isBlockedOnWeb } from "../../api/domain/roles.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import type { SaveAgendaInput } from "../../api/domain/schedule-payloads.ts";
import { ExecutionDay, ExecutionDone, ExecutionSlot } from "../../api/routes/execution.ts";
import { EXECUTION_TEXTS as X, PHOTO_FOLDER, startSlot } from "../../api/services/execution.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { authenticator, SignInRefused } from "../../app/auth.server.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { environmentWithProcedures, otherTenantBooking } from "../support/execution.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

const TODAY = businessToday();
const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });

const tokens: Record<string, string> = {};
const ids = { hospital: 0, other: 0, aldeota: 0, recife: 0 };
const users = { asg: 0, ana: 0, outra: 0 };
let environment = 0;
let procedures: { id: number; name: string }[] = [];
let foreignProcedure = 0;

/** A 12X agenda from today (bookings today and the day after tomorrow), a main slot and one revision. */
function agenda(userId: number, overrides: Partial<SaveAgendaInput> = {}): SaveAgendaInput {
  return {
    Id_EmpresasFilial: ids.aldeota,
    Id_Environments: environment,
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
    ...overrides,
  };
}

async function createAgenda(userId: number) {
  const answer = await t.post("/api/agendas/v2/saveAgenda", [agenda(userId)], { token: tokens.admin });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const agendaId = answer.body[0].ID as number;
  const rows = await t.db
    .selectFrom("bookings")
    .select(["id", "data_agend", "slot"])
    .where("agenda_id", "=", agendaId)
    .orderBy("data_agend")
    .orderBy("slot")
    .execute();
  const slot = (date: string, n: number) => rows.find((row) => row.data_agend === date && row.slot === n)!.id;
  return { agendaId, main: slot(TODAY, 0), revision: slot(TODAY, 1), later: slot(day(TODAY, 2), 0) };
}

function procedureForm(procedureId: number | string, options: { observacao?: string; photo?: File } = {}) {
  const form = new FormData();
  form.set("procedureId", String(procedureId));
  if (options.observacao !== undefined) form.set("observacao", options.observacao);
  if (options.photo) form.set("photo", options.photo);
  return form;
}
const png = () => new File([tinyPng() as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" });

const exec = (path: string, token = tokens.asg) => t.post(`/api/execution/bookings/${path}`, undefined, { token });
const record = (id: number, form: FormData, token = tokens.asg) =>
  t.call("POST", `/api/execution/bookings/${id}/procedures`, { token, form });

beforeAll(async () => {
  Object.assign(ids, await demoIds(t.db));
  tokens.admin = await t.signIn("admin@demo.com.br");
  tokens.outra = await t.signIn("outra@demo.com.br");
  tokens.ana = await t.signIn("ana@demo.com.br");
  tokens.asg = await t.signIn("asg@demo.com.br");
  users.asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  users.ana = (await userByEmail(t.db, "ana@demo.com.br")).id;
  users.outra = (await userByEmail(t.db, "outra@demo.com.br")).id;
  environment = await environmentWithProcedures(t.db, ids.aldeota);
  procedures = await t.db
    .selectFrom("environment_procedures as ep")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .select(["p.id", "p.name"])
    .where("ep.environment_id", "=", environment)
    .orderBy("p.id")
    .execute();
  foreignProcedure = (
    await t.db
      .selectFrom("procedures")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .where(
        "id",
        "not in",
        procedures.map((p) => p.id),
      )
      .orderBy("id")
      .executeTakeFirstOrThrow()
  ).id;
});

describe("signing in", () => {
  test("the ASG signs in through POST /sessions (the app's path); the web sign-in still refuses ASGs", async () => {
    const answer = await t.post("/api/sessions", { email: "asg@demo.com.br", password: "demo1234" });
    expect(answer.status).toBe(200);
    expect(answer.body.user.roleId).toBe(5);
    expect((await t.get("/api/execution/bookings", { token: answer.body.token })).status).toBe(200);
    expect(isBlockedOnWeb(answer.body.user)).toBe(true);

    // The web app's own sign-in (remix-auth over the same API, in-process): refused with 'Acesso bloqueado!'.
    const context = { api: (request: Request) => t.api.fetch(request), requestId: "test" };
    const form = new URLSearchParams({ email: "asg@demo.com.br", password: "demo1234" });
    const request = new Request("http://test.local/", { method: "POST", body: form });
    const refused = await authenticator(context as never)
      .authenticate("form", request)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(SignInRefused);
    expect((refused as SignInRefused).toast.title).toBe("Acesso bloqueado!");
  });
});

describe("a day's work", () => {
  let slots: Awaited<ReturnType<typeof createAgenda>>;
  beforeAll(async () => {
    slots = await createAgenda(users.asg);
  });

  test("lists today's bookings, starts, records a procedure with a PNG photo, finishes", async () => {
    const list = await t.get("/api/execution/bookings", { token: tokens.asg });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const today = ExecutionDay.parse(list.body);
    expect(today.date).toBe(TODAY);
    const mine = today.bookings.find((booking) => booking.agendaId === slots.agendaId)!;
    expect(mine.environment.id).toBe(environment);
    expect(mine.environment.name).toBeTruthy();
    expect(mine.procedures.map((p) => p.id).sort()).toEqual(procedures.map((p) => p.id).sort());
    expect(mine.slots.map((slot) => [slot.id, slot.type, slot.horaIni, slot.horaFim, slot.status])).toEqual([
      [slots.main, "Principal", "08:00", "09:00", null],
      [slots.revision, "Revisão", "10:00", "10:30", null],
    ]);
    // Another day by ?date=; nobody else's bookings.
    const later = ExecutionDay.parse(
      (await t.get(`/api/execution/bookings?date=${day(TODAY, 2)}`, { token: tokens.asg })).body,
    );
    expect(
      later.bookings.find((b) => b.agendaId === slots.agendaId)!.slots.map((s) => [s.id === slots.later, s.type]),
    ).toEqual([
      [true, "Principal"],
      [false, "Revisão"],
    ]);
    const ana = ExecutionDay.parse((await t.get("/api/execution/bookings", { token: tokens.ana })).body);
    expect(ana.bookings.some((booking) => booking.agendaId === slots.agendaId)).toBe(false);

    const before = Date.now();
    const started = await exec(`${slots.main}/start`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const slot = ExecutionSlot.parse(started.body);
    expect(slot.status).toBe("Andamento");
    expect(Date.parse(slot.startDate!)).toBeGreaterThanOrEqual(before - 1000);
    expect(slot.startDate).toMatch(/Z$/);

    const done = await record(
      slots.main,
      procedureForm(procedures[0].id, { observacao: "  Piso molhado  ", photo: png() }),
    );
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const entry = ExecutionDone.parse(done.body);
    expect(entry).toMatchObject({
      procedureId: procedures[0].id,
      procedure: procedures[0].name,
      observacao: "Piso molhado",
    });
    expect(entry.revisionId).toBeNull();
    expect(entry.image).toMatch(/\.jpg$/);
    // The photo is in the store, re-encoded as every upload (docs/photos.md 'Metadata'): a JPEG of the same size.
    const stored = await createDiskStorage(t.storageDir).read(PHOTO_FOLDER, entry.image!);
    const meta = await sharp(stored!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 2, 2]);

    // Without a photo too; the same procedure twice is refused.
    expect((await record(slots.main, procedureForm(procedures[1].id))).status).toBe(201);
    const again = await record(slots.main, procedureForm(procedures[0].id));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(X.procedureAlreadyRecorded);

    const finished = await exec(`${slots.main}/finish`);
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    const closed = ExecutionSlot.parse(finished.body);
    expect(closed.status).toBe("Completo");
    expect(Date.parse(closed.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(closed.startDate!));
    expect(closed.done.map((d) => d.procedureId)).toEqual([procedures[0].id, procedures[1].id]);

    // The back-office sees it in the bookings list with its history.
    const booking = (
      await t.get(`/api/agendas/v2/Agendamentos/company?dataIni=${TODAY}&dataFim=${TODAY}&asgId=${users.asg}`, {
        token: tokens.admin,
      })
    ).body.find((row: { id: number }) => row.id === slots.main);
    expect(booking.status).toBe("Completo");
    expect(booking.Historic.map((h: { tasksId: number }) => h.tasksId)).toEqual([procedures[0].id, procedures[1].id]);
  });

  test("a revision slot reported incomplete with a reason; the history row names the revision", async () => {
    expect((await exec(`${slots.revision}/start`)).status).toBe(200);
    const done = ExecutionDone.parse((await record(slots.revision, procedureForm(procedures[0].id))).body);
    const revision = await t.db
      .selectFrom("agendas as a")
      .innerJoin("revisions as r", "r.periodicity_id", "a.periodicity_id")
      .select("r.id")
      .where("a.id", "=", slots.agendaId)
      .executeTakeFirstOrThrow();
    expect(done.revisionId).toBe(revision.id);

    const blank = await t.post(
      `/api/execution/bookings/${slots.revision}/incomplete`,
      { justificativa: "   " },
      { token: tokens.asg },
    );
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe(X.reasonRequired);
    const answer = await t.post(
      `/api/execution/bookings/${slots.revision}/incomplete`,
      { justificativa: " Sala trancada, sem chave na portaria " },
      { token: tokens.asg },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ExecutionSlot.parse(answer.body)).toMatchObject({
      status: "Incompleto",
      justificativa: "Sala trancada, sem chave na portaria",
    });
    const twice = await t.post(
      `/api/execution/bookings/${slots.revision}/incomplete`,
      { justificativa: "x" },
      { token: tokens.asg },
    );
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(X.alreadyClosed);
  });
});

describe("the rules' refusals", () => {
  let slots: Awaited<ReturnType<typeof createAgenda>>;
  beforeAll(async () => {
    slots = await createAgenda(users.asg);
  });

  test("cannot finish or record before starting; a second start is 409; nothing after finishing", async () => {
    const finish = await exec(`${slots.main}/finish`);
    expect(finish.status).toBe(409);
    expect(finish.body).toEqual({ message: "Inicie a limpeza antes de finalizá-la." });
    const early = await record(slots.main, procedureForm(procedures[0].id));
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("Inicie a limpeza antes de registrar um procedimento.");

    expect((await exec(`${slots.main}/start`)).status).toBe(200);
    const twice = await exec(`${slots.main}/start`);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: "Esta limpeza já foi iniciada." });

    const foreign = await record(slots.main, procedureForm(foreignProcedure));
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe("O procedimento informado não faz parte deste ambiente.");
    const missing = await record(slots.main, procedureForm(""));
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Informe o procedimento realizado.");
    const absent = await record(slots.main, new FormData());
    expect(absent.status).toBe(400);
    expect(absent.body.message).toBe("Informe o procedimento realizado.");

    // Photos: image types only (read from the bytes), the avatars' size limit.
    const text = new File(["não sou imagem"], "foto.png", { type: "image/png" });
    const notImage = await record(slots.main, procedureForm(procedures[0].id, { photo: text }));
    expect(notImage.status).toBe(415);
    expect(notImage.body.message).toBe("A foto deve ser uma imagem JPEG, PNG, GIF ou WebP.");
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(tinyPng());
    const tooBig = await record(slots.main, procedureForm(procedures[0].id, { photo: new File([big], "f.png") }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe("Arquivo muito grande: o limite é de 2 MB");
    expect(await t.db.selectFrom("history").select("id").where("booking_id", "=", slots.main).execute()).toEqual([]);

    expect((await exec(`${slots.main}/finish`)).status).toBe(200);
    for (const path of ["start", "finish"]) {
      const after = await exec(`${slots.main}/${path}`);
      expect(after.status).toBe(409);
      expect(after.body.message).toBe(path === "start" ? "Esta limpeza já foi encerrada." : X.alreadyClosed);
    }
    const late = await record(slots.main, procedureForm(procedures[0].id));
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("Esta limpeza já foi encerrada.");
  });

  test("a booking of a later day cannot be started yet; the service with that day's clock can", async () => {
    const answer = await exec(`${slots.later}/start`);
    expect(answer.status).toBe(409);
    const [y, m, d] = day(TODAY, 2).split("-");
    expect(answer.body.message).toBe(
      `Esta limpeza está agendada para ${d}/${m}/${y} e só pode ser iniciada nesse dia.`,
    );
    // The simulator passes its own clock: 09:00 of that day in Fortaleza is 12:00 UTC.
    const slot = await startSlot(
      t.db,
      { userId: users.asg, companyId: ids.hospital },
      slots.later,
      new Date(`${day(TODAY, 2)}T12:00:00Z`),
    );
    expect(slot.status).toBe("Andamento");
    expect(slot.start_date?.toISOString()).toBe(`${day(TODAY, 2)}T12:00:00.000Z`);
  });

  test("a deleted booking and a booking of a deactivated agenda cannot be started", async () => {
    const removed = await createAgenda(users.asg);
    expect((await t.delete(`/api/agendas/Agendamentos/${removed.main}`, { token: tokens.admin })).status).toBe(204);
    const deleted = await exec(`${removed.main}/start`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe("Este agendamento foi removido e não pode mais ser executado.");

    const detail = (await t.get(`/api/agendas/${removed.agendaId}`, { token: tokens.admin })).body;
    const off = await t.put(
      "/api/agendas/updateAgenda",
      {
        ID: removed.agendaId,
        ATIVO: false,
        Id_EmpresasFilial: ids.aldeota,
        Id_Environments: environment,
        Id_Users: users.asg,
        revisionPhotos: false,
        vigIni: detail.vigIni,
        vigFim: detail.vigFim,
        Periodicidade: {
          ID: detail.Periodicidade.ID,
          type: "12X",
          DIAS_SEMANA: "",
          HORA_BASE_INICIAL: "08:00",
          HORA_BASE_FINAL: "09:00",
          Revisoes: detail.Periodicidade.Revisoes,
        },
      },
      { token: tokens.admin },
    );
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const inactive = await exec(`${removed.revision}/start`);
    expect(inactive.status).toBe(409);
    expect(inactive.body.message).toBe("A agenda deste agendamento está desativada: a limpeza não pode ser iniciada.");
    // And the day's list no longer offers them.
    const list = ExecutionDay.parse((await t.get("/api/execution/bookings", { token: tokens.asg })).body);
    expect(list.bookings.some((booking) => booking.agendaId === removed.agendaId)).toBe(false);
  });

  test("another ASG's booking and another tenant's booking are 404, and nothing changes", async () => {
    const anas = await createAgenda(users.ana);
    for (const path of [`${anas.main}/start`, `${anas.main}/finish`]) {
      const answer = await exec(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: "Agendamento não encontrado" });
    }
    expect((await record(anas.main, procedureForm(procedures[0].id, { photo: png() }))).status).toBe(404);
    expect(
      (await t.post(`/api/execution/bookings/${anas.main}/incomplete`, { justificativa: "x" }, { token: tokens.asg }))
        .status,
    ).toBe(404);
    expect((await t.get(`/api/execution/bookings/${anas.main}`, { token: tokens.asg })).status).toBe(404);
    // An administrator is not the collaborator either.
    expect((await exec(`${anas.main}/start`, tokens.admin)).status).toBe(404);
    const row = await t.db
      .selectFrom("bookings")
      .select(["status", "start_date"])
      .where("id", "=", anas.main)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: null, start_date: null });
    // Ana herself may.
    expect((await exec(`${anas.main}/start`, tokens.ana)).status).toBe(200);

    // Another tenant: a booking of Limpa Bem Serviços, addressed by the ASG and by that tenant's administrator.
    const other = await otherTenantBooking(t.db, ids, users.outra);
    expect((await exec(`${other}/start`)).status).toBe(404);
    expect((await exec(`${slots.revision}/start`, tokens.outra)).status).toBe(404);
    const untouched = await t.db
      .selectFrom("bookings")
      .select("status")
      .where("id", "=", other)
      .executeTakeFirstOrThrow();
    expect(untouched.status).toBeNull();
  });
});
