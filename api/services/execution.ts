import { sql, type Kysely } from "kysely";

import { assertIdsInScope, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { AVATAR_MAX_BYTES, AVATAR_TOO_BIG } from "../domain/fields.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { SCHEDULE_TEXTS } from "../domain/schedule-texts.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { cappedRows, MAX_BOOKING_ROWS, TOO_MANY_ROWS } from "../lib/list-query.ts";

import { bookingIncidentId } from "./booking-incident.ts";
import { IMAGE_TEXTS, reencodedUpload } from "./images.ts";
import { writeNamingFiles } from "./orphan-files.ts";
import type { Storage } from "./storage.ts";

/**
 * The execution client's calls (DESIGN.md 'The execution client's calls'; docs/scheduling.md 'History and the
 * execution API'): the cleaning staff's phone lists the signed-in collaborator's bookings of a day, starts a slot,
 * records each procedure done (photo and observation), then finishes the slot or reports it incomplete with a reason.
 * The demo simulator makes history through these same functions, so every input is plain data and the clock is a
 * parameter (`now`); nothing reads the request or the wall clock.
 *
 * A slot (one bookings row) goes null ('A fazer') → 'Andamento' (start) → 'Completo' (finish) or 'Incompleto' (report
 * incomplete, also straight from 'A fazer'); spec 001 §4. Every write locks the booking row, so two phones (or a
 * retried request) queue and the second one sees the first one's state.
 *
 * Each write keeps two instants (docs/field-app.md 'Instants'): when the work was done (`feitoEm`, the phone's, which
 * a queued record sent later carries) in start_date / history.created_at / finished_at, and when it arrived here
 * (`now`) in start_received_at / history.received_at / finish_received_at.
 */

/** Who executes: the signed-in user (only the booking's own collaborator may touch it) and the tenant. */
export type Executor = { userId: number; companyId: number };

export type ExecutionDeps = { db: Kysely<DB>; storage: Storage };

/** Photos: the avatars' size limit. */
export const PHOTO_MAX_BYTES = AVATAR_MAX_BYTES;
export const PHOTO_FOLDER = "photos";

export const EXECUTION_TEXTS = {
  bookingNotFound: SCHEDULE_TEXTS.bookingNotFound,
  alreadyStarted: "Esta limpeza já foi iniciada.",
  alreadyClosed: "Esta limpeza já foi encerrada.",
  notStartedFinish: "Inicie a limpeza antes de finalizá-la.",
  notStartedRecord: "Inicie a limpeza antes de registrar um procedimento.",
  bookingRemoved: "Este agendamento foi removido e não pode mais ser executado.",
  agendaInactive: "A agenda deste agendamento está desativada: a limpeza não pode ser iniciada.",
  futureDay: (date: string) =>
    `Esta limpeza está agendada para ${date.split("-").reverse().join("/")} e só pode ser iniciada nesse dia.`,
  procedureNotInEnvironment: "O procedimento informado não faz parte deste ambiente.",
  procedureNotFound: "Procedimento não encontrado",
  procedureAlreadyRecorded: "Este procedimento já foi registrado nesta limpeza.",
  procedureRequired: "Informe o procedimento realizado.",
  reasonRequired: "Informe o motivo de a limpeza não ter sido concluída.",
  reasonTooLong: "O motivo pode ter no máximo 500 caracteres.",
  observationTooLong: "A observação pode ter no máximo 1000 caracteres.",
  photoType: IMAGE_TEXTS.type,
  photoTooBig: AVATAR_TOO_BIG,
  tooOld: "Este registro foi feito há mais de 7 dias e não pode mais ser enviado.",
} as const;
const X = EXECUTION_TEXTS;

export const REASON_MAX = 500;
export const OBSERVATION_MAX = 1000;

/** A record done longer ago than this is refused (docs/field-app.md 'Instants'). */
export const MAX_RECORD_AGE_MS = 7 * 24 * 3_600_000;
/**
 * A record received this long after it was done arrived late ('Enviado com atraso'): it waited on the phone for a
 * signal. Shorter waits are a slow upload (a 2 MB photo over a weak 3G link takes a few minutes), not worth a flag.
 */
export const LATE_SEND_S = 5 * 60;

/** What a write may carry besides its data: the phone's instant (absent: now). */
export type WriteOptions = { feitoEm?: Date | null };
/** A start also carries the QR value the room's page was opened with, if any. */
export type StartOptions = WriteOptions & { qr?: string | null };
/**
 * A procedure's record also carries the caller's scope (the session's), which says which procedure ids they may name
 * (docs/security.md, the ids rule); without one (the demo simulator, the benches) the booking's company and branch.
 */
export type ProcedureOptions = WriteOptions & { scope?: Scope };

/**
 * The instant a record was done (docs/field-app.md 'Instants'): the phone's, except one after its receipt (a phone
 * clock ahead must not put work in the future) which becomes the receipt; one older than MAX_RECORD_AGE_MS is refused.
 */
export function doneInstant(feitoEm: Date | null | undefined, received: Date): Date {
  if (!feitoEm) return received;
  if (received.getTime() - feitoEm.getTime() > MAX_RECORD_AGE_MS) throw new ApiError(422, X.tooOld);
  return feitoEm.getTime() > received.getTime() ? received : feitoEm;
}

const latest = (...instants: (Date | null | undefined)[]) =>
  new Date(Math.max(...instants.filter((at): at is Date => !!at).map((at) => new Date(at).getTime())));

/** Seconds between done and received when that is a late send (LATE_SEND_S), else null. */
export function lateBy(done: Date, received: Date): number | null {
  const seconds = Math.round((received.getTime() - done.getTime()) / 1000);
  return seconds >= LATE_SEND_S ? seconds : null;
}

/** bookings.envio_atraso_s keeps the longest late send among the slot's records. */
const longestDelay = (seconds: number) => sql<number>`greatest(coalesce(envio_atraso_s, 0), ${seconds}::integer)`;

/** One slot as the phone shows it. */
export type SlotRow = {
  id: number;
  agenda_id: number;
  environment_id: number;
  data_agend: string;
  slot: number;
  hora_ini: string;
  hora_fim: string;
  status: "Andamento" | "Completo" | "Incompleto" | null;
  start_date: Date | null;
  finished_at: Date | null;
  justificativa: string | null;
  /** Started with the room's current QR value; null: started before the field app (docs/field-app.md 'Proof flags'). */
  iniciada_via_qr: boolean | null;
  start_received_at: Date | null;
  finish_received_at: Date | null;
  /** The longest late send among the slot's records, in seconds; null when none was late. */
  envio_atraso_s: number | null;
  /** The incident a corrective cleaning answers (its agenda's), else null. */
  incident_id: number | null;
  done: DoneRow[];
};

export type DoneRow = {
  id: number;
  procedureId: number;
  procedure: string;
  revisionId: number | null;
  image: string | null;
  observacao: string | null;
  /** When it was done (the phone's instant). */
  createdAt: string | Date;
  /** When it arrived; null for records made before the field app. */
  receivedAt: string | Date | null;
};

/** The day's bookings of one agenda (one environment): its slots in time order. */
export type MyBooking = {
  agendaId: number;
  environment: { id: number; name: string; andar: string; categoria: string; setor: string };
  revisionPhotos: boolean;
  procedures: { id: number; name: string; mandatory: boolean }[];
  slots: SlotRow[];
};

const doneJson = sql<DoneRow[]>`coalesce((
  select json_agg(json_build_object('id', h.id, 'procedureId', h.procedure_id, 'procedure', pr.name,
    'revisionId', h.revision_id, 'image', h.image, 'observacao', h.observacao, 'createdAt', h.created_at,
    'receivedAt', h.received_at)
    order by h.created_at, h.id)
  from history h join procedures pr on pr.id = h.procedure_id
  where h.booking_id = b.id), '[]'::json)`;

const SLOT_COLUMNS = [
  "b.id",
  "b.agenda_id",
  "b.environment_id",
  "b.data_agend",
  "b.slot",
  "b.hora_ini",
  "b.hora_fim",
  "b.status",
  "b.start_date",
  "b.finished_at",
  "b.justificativa",
  "b.iniciada_via_qr",
  "b.start_received_at",
  "b.finish_received_at",
  "b.envio_atraso_s",
  bookingIncidentId,
] as const;

/**
 * The executor's bookings of one business day (America/Fortaleza; `date` 'yyyy-MM-dd'), grouped by agenda: the
 * environment, its procedures, and each slot with what was done in it. Only what can be executed: active bookings of
 * active, not removed agendas (the lists' filter, docs/scheduling.md), read along bookings_user_day_idx.
 */
export async function listMyBookings(db: Kysely<DB>, executor: Executor, date: string): Promise<MyBooking[]> {
  const rows = await cappedRows(
    db
      .selectFrom("bookings as b")
      .innerJoin("agendas as a", "a.id", "b.agenda_id")
      .innerJoin("environments as e", "e.id", "b.environment_id")
      .innerJoin("categories as cat", "cat.id", "e.category_id")
      .innerJoin("sectors as sec", "sec.id", "e.sector_id")
      .select([
        ...SLOT_COLUMNS,
        "a.revision_photos",
        "e.name as environment",
        "e.andar",
        "cat.name as categoria",
        "sec.name as setor",
        doneJson.as("done"),
      ])
      .where("b.user_id", "=", executor.userId)
      .where("b.company_id", "=", executor.companyId)
      .where("b.data_agend", "=", date)
      .where("b.active", "=", true)
      .where("a.ativo", "=", true)
      .where("a.deleted_at", "is", null)
      .orderBy("b.hora_ini")
      .orderBy("b.hora_fim")
      .orderBy("b.id"),
    MAX_BOOKING_ROWS,
    TOO_MANY_ROWS,
  );
  const environmentIds = [...new Set(rows.map((row) => row.environment_id))];
  const procedures = environmentIds.length
    ? await db
        .selectFrom("environment_procedures as ep")
        .innerJoin("procedures as p", "p.id", "ep.procedure_id")
        .select(["ep.environment_id", "p.id", "p.name", "ep.mandatory"])
        .where("ep.environment_id", "in", environmentIds)
        .where("p.deleted_at", "is", null)
        .orderBy("ep.mandatory", "desc")
        .orderBy("p.name")
        .orderBy("p.id")
        .execute()
    : [];
  const byAgenda = new Map<number, MyBooking>();
  for (const row of rows) {
    let booking = byAgenda.get(row.agenda_id);
    if (!booking) {
      booking = {
        agendaId: row.agenda_id,
        environment: {
          id: row.environment_id,
          name: row.environment,
          andar: row.andar,
          categoria: row.categoria,
          setor: row.setor,
        },
        revisionPhotos: row.revision_photos,
        procedures: procedures
          .filter((procedure) => procedure.environment_id === row.environment_id)
          .map(({ id, name, mandatory }) => ({ id, name, mandatory })),
        slots: [],
      };
      byAgenda.set(row.agenda_id, booking);
    }
    booking.slots.push(slotOf(row));
  }
  return [...byAgenda.values()];
}

function slotOf(row: SlotRow): SlotRow {
  return {
    id: row.id,
    agenda_id: row.agenda_id,
    environment_id: row.environment_id,
    data_agend: row.data_agend,
    slot: row.slot,
    hora_ini: row.hora_ini,
    hora_fim: row.hora_fim,
    status: row.status,
    start_date: row.start_date,
    finished_at: row.finished_at,
    justificativa: row.justificativa,
    iniciada_via_qr: row.iniciada_via_qr,
    start_received_at: row.start_received_at,
    finish_received_at: row.finish_received_at,
    envio_atraso_s: row.envio_atraso_s,
    incident_id: row.incident_id,
    done: row.done,
  };
}

/** One slot of the executor (any state, deleted ones included: the writes say why they refuse), or 404. */
export async function findMySlot(db: Kysely<DB>, executor: Executor, bookingId: number): Promise<SlotRow> {
  const row = await db
    .selectFrom("bookings as b")
    .select([...SLOT_COLUMNS, doneJson.as("done")])
    .where("b.id", "=", bookingId)
    .where("b.user_id", "=", executor.userId)
    .where("b.company_id", "=", executor.companyId)
    .executeTakeFirst();
  if (!row) throw notFound(X.bookingNotFound);
  return slotOf(row);
}

/** The booking row locked for this write, with its agenda's state; another collaborator's or tenant's is 404. */
async function lockMySlot(trx: Kysely<DB>, executor: Executor, bookingId: number) {
  const row = await trx
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .select([
      "b.id",
      "b.agenda_id",
      "b.environment_id",
      "b.branch_id",
      "b.data_agend",
      "b.slot",
      "b.status",
      "b.start_date",
      "b.active",
      "a.ativo as agenda_ativo",
      "a.deleted_at as agenda_deleted_at",
      "a.periodicity_id",
    ])
    .where("b.id", "=", bookingId)
    .where("b.user_id", "=", executor.userId)
    .where("b.company_id", "=", executor.companyId)
    .forUpdate("b")
    .executeTakeFirst();
  if (!row) throw notFound(X.bookingNotFound);
  return row;
}

/** A write that needs the slot 'Andamento': 409 `notStarted` before, alreadyClosed after. */
function checkStarted(row: { status: string | null }, notStarted: string) {
  if (row.status === null) throw new ApiError(409, notStarted);
  if (row.status !== "Andamento") throw new ApiError(409, X.alreadyClosed);
}

/** The booking row locked for a write that needs it 'Andamento' (checkStarted). */
async function lockStartedSlot(trx: Kysely<DB>, executor: Executor, bookingId: number, notStarted: string) {
  const row = await lockMySlot(trx, executor, bookingId);
  checkStarted(row, notStarted);
  return row;
}

const inTransaction = <R>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<R>): Promise<R> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

type LockedSlot = Awaited<ReturnType<typeof lockMySlot>>;

/** A slot that may still be done at all: not removed, its agenda active. */
function checkAvailable(row: LockedSlot) {
  if (!row.active || row.agenda_deleted_at !== null) throw new ApiError(409, X.bookingRemoved);
  if (!row.agenda_ativo) throw new ApiError(409, X.agendaInactive);
}

function checkDay(row: LockedSlot, done: Date) {
  // Done before the slot's day is not possible (the done instant is never after `now`, so this also refuses a slot
  // of a later day started now): a phone clock behind gets the same refusal (docs/field-app.md 'Instants').
  if (row.data_agend > businessToday(done)) throw new ApiError(409, X.futureDay(row.data_agend));
}

/**
 * Start a slot: 'A fazer' → 'Andamento', start_date = when it was done (the phone's `feitoEm`, else now),
 * start_received_at = now. Refused (409) when it was started already (whatever its state now), when the booking was
 * removed or its agenda deactivated or removed, and when done on a day before the slot's (a late start of an earlier
 * day's slot is allowed: the reports show it late). iniciada_via_qr: `qr` is the room's current QR value.
 */
export async function startSlot(
  db: Kysely<DB>,
  executor: Executor,
  bookingId: number,
  now: Date,
  options: StartOptions = {},
): Promise<SlotRow> {
  const done = doneInstant(options.feitoEm, now);
  await inTransaction(db, async (trx) => {
    const row = await lockMySlot(trx, executor, bookingId);
    checkAvailable(row);
    if (row.status !== null) throw new ApiError(409, row.status === "Andamento" ? X.alreadyStarted : X.alreadyClosed);
    checkDay(row, done);
    // A retired code (qr_codigo_anterior) or any other value starts the slot all the same, flagged false.
    const viaQr = options.qr
      ? !!(await trx
          .selectFrom("environments")
          .select("id")
          .where("id", "=", row.environment_id)
          .where("qr_codigo", "=", options.qr)
          .executeTakeFirst())
      : false;
    const late = lateBy(done, now);
    await trx
      .updateTable("bookings")
      .set({
        status: "Andamento",
        start_date: done,
        start_received_at: now,
        iniciada_via_qr: viaQr,
        ...(late === null ? {} : { envio_atraso_s: longestDelay(late) }),
        updated_at: now,
      })
      .where("id", "=", row.id)
      .execute();
  });
  return findMySlot(db, executor, bookingId);
}

/** The nth revision of the agenda's periodicity (by time) for a revision slot; none for the main one. */
async function revisionOf(trx: Kysely<DB>, row: { slot: number; periodicity_id: number }) {
  if (row.slot === 0) return undefined;
  return trx
    .selectFrom("revisions")
    .select("id")
    .where("periodicity_id", "=", row.periodicity_id)
    .orderBy("hora_inicial")
    .orderBy("id")
    .offset(row.slot - 1)
    .limit(1)
    .executeTakeFirst();
}

/** A record of a started slot is not before its start (the order the work was done in is kept). */
const notBeforeStart = (done: Date, row: { start_date: Date | null }) => latest(done, row.start_date);

async function noteLateSend(trx: Kysely<DB>, bookingId: number, done: Date, now: Date) {
  const late = lateBy(done, now);
  if (late === null) return;
  await trx
    .updateTable("bookings")
    .set({ envio_atraso_s: longestDelay(late) })
    .where("id", "=", bookingId)
    .execute();
}

export type PhotoInput = { bytes: Uint8Array };
export type ProcedureInput = { procedureId: number; observacao?: string | null; photo?: PhotoInput | null };

/** The photo as stored: within the size limit, then re-encoded as every upload is (upright, JPEG, no EXIF or GPS). */
export async function executionPhoto(photo: PhotoInput) {
  if (photo.bytes.byteLength > PHOTO_MAX_BYTES) throw new ApiError(413, X.photoTooBig);
  return reencodedUpload(photo.bytes);
}

/**
 * Record one procedure done in a started slot (a history row: procedure, photo, observation, done at `feitoEm` but
 * not before the slot's start, received `now`). The procedure must be one of the environment's; each at most once
 * per slot. In a revision slot (slot n > 0) the row names the nth revision of the agenda's periodicity (by time), the
 * spec's Historic.revisionId; the main slot leaves it null.
 */
export async function recordProcedure(
  deps: ExecutionDeps,
  executor: Executor,
  bookingId: number,
  input: ProcedureInput,
  now: Date,
  options: ProcedureOptions = {},
): Promise<DoneRow> {
  const phoneDone = doneInstant(options.feitoEm, now);
  const observacao = input.observacao?.trim() || null;
  if (observacao && observacao.length > OBSERVATION_MAX)
    throw new ApiError(400, X.observationTooLong, { observacao: [X.observationTooLong] });
  // Decoded before the booking is locked: the costly step holds no row.
  const photo = input.photo ? await executionPhoto(input.photo) : null;
  // A write that fails after the photo is saved removes it (writeNamingFiles, docs/storage.md 'Orphan files').
  return writeNamingFiles(deps, PHOTO_FOLDER, (save) =>
    inTransaction(deps.db, async (trx) => {
      const row = await lockMySlot(trx, executor, bookingId);
      const procedure = await trx
        .selectFrom("environment_procedures as ep")
        .innerJoin("procedures as p", "p.id", "ep.procedure_id")
        .select(["p.id", "p.name"])
        .where("ep.environment_id", "=", row.environment_id)
        .where("ep.procedure_id", "=", input.procedureId)
        .executeTakeFirst();
      // Not the room's: an id the caller may not read (another company's, another branch's for field staff) is 404 as
      // every such id (docs/security.md), before the slot's state is told; a readable one is the 400 below.
      if (!procedure) {
        const scope = options.scope ?? { level: "branch", companyId: executor.companyId, branchId: row.branch_id };
        await assertIdsInScope(trx, scope, "procedures", [input.procedureId], X.procedureNotFound);
      }
      checkStarted(row, X.notStartedRecord);
      if (!procedure)
        throw new ApiError(400, X.procedureNotInEnvironment, { procedureId: [X.procedureNotInEnvironment] });
      const repeated = await trx
        .selectFrom("history")
        .select("id")
        .where("booking_id", "=", row.id)
        .where("procedure_id", "=", procedure.id)
        .executeTakeFirst();
      if (repeated) throw new ApiError(409, X.procedureAlreadyRecorded);
      const revision = await revisionOf(trx, row);
      const done = notBeforeStart(phoneDone, row);
      // Saved last, once every check has passed, so a refused call leaves no file behind.
      const image = photo ? await save(photo) : null;
      const history = await trx
        .insertInto("history")
        .values({
          booking_id: row.id,
          procedure_id: procedure.id,
          revision_id: revision?.id ?? null,
          user_id: executor.userId,
          image,
          observacao,
          created_at: done,
          received_at: now,
          updated_at: now,
        })
        .returning(["id", "created_at", "received_at"])
        .executeTakeFirstOrThrow();
      await noteLateSend(trx, row.id, done, now);
      return {
        id: history.id,
        procedureId: procedure.id,
        procedure: procedure.name,
        revisionId: revision?.id ?? null,
        image,
        observacao,
        createdAt: history.created_at,
        receivedAt: history.received_at,
      };
    }),
  );
}

/**
 * 'Tudo feito' (docs/field-app.md): records every procedure of the room not recorded yet in this started slot, no
 * photo and no note, all at one instant (as recordProcedure's), in the order the room's page lists them (mandatory
 * first, then by name). The same refusals as recording one; none left is not an error (a resend, a second tap).
 */
export async function recordRemaining(
  db: Kysely<DB>,
  executor: Executor,
  bookingId: number,
  now: Date,
  options: WriteOptions = {},
): Promise<SlotRow> {
  const phoneDone = doneInstant(options.feitoEm, now);
  await inTransaction(db, async (trx) => {
    const row = await lockStartedSlot(trx, executor, bookingId, X.notStartedRecord);
    const missing = await trx
      .selectFrom("environment_procedures as ep")
      .innerJoin("procedures as p", "p.id", "ep.procedure_id")
      .select("p.id")
      .where("ep.environment_id", "=", row.environment_id)
      .where("p.deleted_at", "is", null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("history as h")
              .select("h.id")
              .whereRef("h.procedure_id", "=", "p.id")
              .where("h.booking_id", "=", row.id),
          ),
        ),
      )
      .orderBy("ep.mandatory", "desc")
      .orderBy("p.name")
      .orderBy("p.id")
      .execute();
    if (!missing.length) return;
    const revision = await revisionOf(trx, row);
    const done = notBeforeStart(phoneDone, row);
    await trx
      .insertInto("history")
      .values(
        missing.map((procedure) => ({
          booking_id: row.id,
          procedure_id: procedure.id,
          revision_id: revision?.id ?? null,
          user_id: executor.userId,
          created_at: done,
          received_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await noteLateSend(trx, row.id, done, now);
  });
  return findMySlot(db, executor, bookingId);
}

/** A slot's closing instant: not before its start nor its last record (the order the work was done in is kept). */
async function closingInstant(trx: Kysely<DB>, row: { id: number; start_date: Date | null }, done: Date) {
  const last = await trx
    .selectFrom("history")
    .select((eb) => eb.fn.max("created_at").as("at"))
    .where("booking_id", "=", row.id)
    .executeTakeFirst();
  return latest(done, row.start_date, last?.at ? new Date(last.at) : null);
}

/**
 * Finish a started slot: 'Andamento' → 'Completo', finished_at = when it was done (not before the start or the last
 * record), finish_received_at = now.
 */
export async function finishSlot(
  db: Kysely<DB>,
  executor: Executor,
  bookingId: number,
  now: Date,
  options: WriteOptions = {},
): Promise<SlotRow> {
  const phoneDone = doneInstant(options.feitoEm, now);
  await inTransaction(db, async (trx) => {
    const row = await lockStartedSlot(trx, executor, bookingId, X.notStartedFinish);
    const done = await closingInstant(trx, row, phoneDone);
    const late = lateBy(done, now);
    await trx
      .updateTable("bookings")
      .set({
        status: "Completo",
        finished_at: done,
        finish_received_at: now,
        ...(late === null ? {} : { envio_atraso_s: longestDelay(late) }),
        updated_at: now,
      })
      .where("id", "=", row.id)
      .execute();
  });
  return findMySlot(db, executor, bookingId);
}

/**
 * Report a slot incomplete with a reason (justificativa): 'A fazer' or 'Andamento' → 'Incompleto', finished_at = when
 * it was done (as a finish's), finish_received_at = now. From 'A fazer' it needs the same checks as a start (a
 * removed booking or inactive agenda is not to be done at all); start_date stays null then, which the reports read as
 * 'never started'; as for a start, not done before the slot's day.
 */
export async function reportIncomplete(
  db: Kysely<DB>,
  executor: Executor,
  bookingId: number,
  reason: string,
  now: Date,
  options: WriteOptions = {},
): Promise<SlotRow> {
  const justificativa = reason.trim();
  if (!justificativa) throw new ApiError(400, X.reasonRequired, { justificativa: [X.reasonRequired] });
  if (justificativa.length > REASON_MAX) throw new ApiError(400, X.reasonTooLong, { justificativa: [X.reasonTooLong] });
  const phoneDone = doneInstant(options.feitoEm, now);
  await inTransaction(db, async (trx) => {
    const row = await lockMySlot(trx, executor, bookingId);
    if (row.status !== null && row.status !== "Andamento") throw new ApiError(409, X.alreadyClosed);
    if (row.status === null) {
      checkAvailable(row);
      checkDay(row, phoneDone);
    }
    const done = row.status === null ? phoneDone : await closingInstant(trx, row, phoneDone);
    const late = lateBy(done, now);
    await trx
      .updateTable("bookings")
      .set({
        status: "Incompleto",
        justificativa,
        finished_at: done,
        finish_received_at: now,
        ...(late === null ? {} : { envio_atraso_s: longestDelay(late) }),
        updated_at: now,
      })
      .where("id", "=", row.id)
      .execute();
  });
  return findMySlot(db, executor, bookingId);
}
