import { sql, type Kysely } from "kysely";

import { scopeBranch, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { businessTime } from "../domain/board.ts";
import { INCIDENT_RESOLUTION_TEXTS as T, INCIDENT_HANDLING_TEXTS, VISITOR_LIMITS } from "../domain/incidents.ts";
import { businessToday, minutesOf, parseTime } from "../domain/schedule-expansion.ts";
import { SaveAgendaItem } from "../domain/schedule-payloads.ts";
import { ApiError, notFound } from "../lib/errors.ts";

import type { Executor } from "./execution.ts";
import { dropCorrectiveBookings, readIncident } from "./incident-handling.ts";
import { INCIDENT_PHOTO_FOLDER, reencodedPhoto } from "./incidents.ts";
import { writeNamingFiles } from "./orphan-files.ts";
import { createAgendas, listSchedulableUsers } from "./scheduling.ts";
import type { Storage } from "./storage.ts";

/**
 * The incident loop's corrective half (issue 28 §4–5, docs/incidents.md): a manager's 'Criar limpeza corretiva' (a
 * one-day agenda for an ASG of the room's branch, through the scheduling service, so it is on the board, the calendar
 * and the reports as 'Extra'), then the ASG's phone lists the incidents of their corrective bookings and resolves one
 * with the proof its kind asks for.
 */

const OPEN = ["aberta", "em_atendimento"] as const;
/** At most this many incidents on a phone's list (one ASG has a handful a day). */
const FIELD_INCIDENTS_MAX = 50;
/** The longest resolution note. */
export const RESOLUTION_NOTE_MAX = 500;

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** The default hours of a corrective cleaning: from the next five minutes, for an hour (not past 23:59). */
export function correctiveHours(now: Date) {
  const start = Math.ceil(minutesOf(businessTime(now)!) / 5) * 5;
  return { horaIni: clock(Math.min(start, 23 * 60 + 55)), horaFim: clock(Math.min(start + 60, 23 * 60 + 59)) };
}

export type CorrectiveInput = { colaboradorId: number; horaIni?: string; horaFim?: string };

/** A corrective cleaning's ASG (of the branch's schedulable staff) and hours, checked before anything is written. */
export async function checkedCorrective(
  db: Kysely<DB>,
  scope: Scope,
  branchId: number,
  input: CorrectiveInput,
  now: Date,
) {
  const defaults = correctiveHours(now);
  const horaIni = input.horaIni ? parseTime(input.horaIni) : defaults.horaIni;
  const horaFim = input.horaFim ? parseTime(input.horaFim) : defaults.horaFim;
  if (!horaIni) throw new ApiError(400, T.startInvalid, { horaIni: [T.startInvalid] });
  if (!horaFim || minutesOf(horaFim) <= minutesOf(horaIni))
    throw new ApiError(400, T.endInvalid, { horaFim: [T.endInvalid] });
  const staff = await listSchedulableUsers(db, scope, { filialId: branchId });
  const asg = staff.find((candidate) => candidate.id === input.colaboradorId);
  if (!asg) {
    // Another tenant's user is 404, as every id out of scope; the company's own others are a wrong choice.
    const known = await db
      .selectFrom("users")
      .select("id")
      .where("id", "=", input.colaboradorId)
      .where("company_id", "=", scope.companyId)
      .$if(scopeBranch(scope) !== null, (qb) => qb.where("branch_id", "=", scopeBranch(scope)!))
      .executeTakeFirst();
    if (!known && input.colaboradorId > 0) throw notFound(T.collaboratorNotFound);
    throw new ApiError(400, T.collaboratorRequired, { colaboradorId: [T.collaboratorRequired] });
  }
  return { asg, horaIni, horaFim };
}

/** 'Criar limpeza corretiva': today's extra booking for an ASG of the room's branch; the incident is 'em atendimento'. */
export async function createCorrective(
  db: Kysely<DB>,
  scope: Scope,
  userId: number,
  incidentId: number,
  input: CorrectiveInput,
  now: Date,
) {
  const incident = await readIncident(db, scope, incidentId, now);
  if (!(OPEN as readonly string[]).includes(incident.status)) throw new ApiError(409, INCIDENT_HANDLING_TEXTS.closed);
  const { asg, horaIni, horaFim } = await checkedCorrective(db, scope, incident.branch_id, input, now);
  const today = businessToday(now);
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay();
  const [agenda] = await createAgendas(
    db,
    scope,
    [
      SaveAgendaItem.parse({
        Id_EmpresasFilial: incident.branch_id,
        Id_Environments: incident.environment_id,
        Id_Users: asg.id,
        Periodicidade: {
          type: "sem",
          DIAS_SEMANA: [weekday],
          hora_base_inicial: horaIni,
          hora_base_final: horaFim,
          nome: `CORRETIVA_${incident.id}`,
          Revisoes: [],
        },
        revisionPhotos: false,
        vigIni: today,
        vigFim: today,
      }),
    ],
    { today, incidentId: incident.id },
  );
  const detalhe = `Limpeza corretiva para ${asg.nome} hoje, das ${horaIni} às ${horaFim}`;
  const moved = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("incidents")
      .set({ status: "em_atendimento" })
      .where("id", "=", incident.id)
      .where("status", "in", OPEN)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return false;
    await trx
      .insertInto("incident_events")
      .values({ incident_id: incident.id, tipo: "corretiva", user_id: userId, detalhe, created_at: now })
      .execute();
    return true;
  });
  if (!moved) {
    // Closed while the agenda was written: the cleaning is no longer wanted.
    await db.deleteFrom("agendas").where("id", "=", agenda!.id).execute();
    throw new ApiError(409, INCIDENT_HANDLING_TEXTS.closed);
  }
  return readIncident(db, scope, incident.id, now);
}

/** The incidents the executor's corrective bookings answer (their agendas' incident), open ones first. */
function executorIncidents(db: Kysely<DB>, executor: Executor) {
  return db
    .selectFrom("incidents as i")
    .innerJoin("environments as e", "e.id", "i.environment_id")
    .innerJoin("incident_kinds as k", "k.id", "i.kind_id")
    .where("i.company_id", "=", executor.companyId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("agendas as a")
          .select(sql`1`.as("one"))
          .whereRef("a.incident_id", "=", "i.id")
          .where("a.user_id", "=", executor.userId)
          .where("a.deleted_at", "is", null),
      ),
    );
}

const FIELD_COLUMNS = [
  "i.id",
  "i.status",
  "i.descricao",
  "i.foto",
  "i.created_at",
  "i.prazo_at",
  "i.closed_at",
  "e.id as environment_id",
  "e.name as ambiente",
  "k.nome as tipo",
  "k.prova",
] as const;

/** GET /execution/incidents: the executor's incidents still open, then those closed in the last day (capped). */
export async function listMyIncidents(db: Kysely<DB>, executor: Executor, now: Date) {
  const since = new Date(now.getTime() - 24 * 3600_000);
  const rows = await executorIncidents(db, executor)
    .select(FIELD_COLUMNS)
    .select((eb) =>
      eb
        .selectFrom("agendas as a")
        .innerJoin("bookings as b", "b.agenda_id", "a.id")
        .select("b.id")
        .whereRef("a.incident_id", "=", "i.id")
        .where("a.user_id", "=", executor.userId)
        .where("a.deleted_at", "is", null)
        .where("b.active", "=", true)
        .orderBy("b.id", "desc")
        .limit(1)
        .as("booking_id"),
    )
    .where((eb) => eb.or([eb("i.status", "in", OPEN), eb("i.closed_at", ">=", since)]))
    .orderBy(sql`i.status in ('aberta', 'em_atendimento')`, "desc")
    .orderBy("i.prazo_at")
    .limit(FIELD_INCIDENTS_MAX)
    .execute();
  return rows;
}

/** One of the executor's incidents (any state), or undefined. */
export function findMyIncident(db: Kysely<DB>, executor: Executor, incidentId: number) {
  return executorIncidents(db, executor).select(FIELD_COLUMNS).where("i.id", "=", incidentId).executeTakeFirst();
}

export type Resolution = { nota: string; photo: Uint8Array | null };

/** Resolves one of the executor's incidents with the proof its kind asks for: a photo, a note, or both. */
export async function resolveIncident(
  deps: { db: Kysely<DB>; storage: Storage },
  executor: Executor,
  incidentId: number,
  resolution: Resolution,
  now: Date,
) {
  const { db } = deps;
  const incident = await findMyIncident(db, executor, incidentId);
  if (!incident) throw notFound(INCIDENT_HANDLING_TEXTS.notFound);
  if (!(OPEN as readonly string[]).includes(incident.status)) throw new ApiError(409, INCIDENT_HANDLING_TEXTS.closed);
  const nota = resolution.nota.trim();
  if (nota.length > RESOLUTION_NOTE_MAX) throw new ApiError(400, T.noteTooLong, { nota: [T.noteTooLong] });
  if (resolution.photo && resolution.photo.byteLength > VISITOR_LIMITS.photoMaxBytes)
    throw new ApiError(413, T.photoTooBig, { foto: [T.photoTooBig] });
  const hasPhoto = Boolean(resolution.photo && resolution.photo.byteLength > 0);
  const wantsPhoto = incident.prova !== "nota";
  const wantsNote = incident.prova !== "foto";
  if (wantsPhoto && !hasPhoto) throw new ApiError(400, T.photoRequired, { foto: [T.photoRequired] });
  if (wantsNote && !nota) throw new ApiError(400, T.noteRequired, { nota: [T.noteRequired] });
  const photo = hasPhoto ? await reencodedPhoto(resolution.photo!) : null;
  // A failed write (closed meanwhile: 409) removes the photo it stored (writeNamingFiles, docs/storage.md 'Orphan files').
  await writeNamingFiles(deps, INCIDENT_PHOTO_FOLDER, async (save) => {
    const foto = photo ? await save(photo) : null;
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("incidents")
        .set({ status: "resolvida", closed_at: now })
        .where("id", "=", incidentId)
        .where("status", "in", OPEN)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) throw new ApiError(409, INCIDENT_HANDLING_TEXTS.closed);
      await trx
        .insertInto("incident_events")
        .values({
          incident_id: incidentId,
          tipo: "resolvida",
          user_id: executor.userId,
          detalhe: nota,
          foto,
          created_at: now,
        })
        .execute();
      await dropCorrectiveBookings(trx, incidentId);
    });
  });
  return (await findMyIncident(db, executor, incidentId))!;
}
