import { TZDate } from "@date-fns/tz";
import { addDays } from "date-fns";
import type { Kysely } from "kysely";

import { assertEnvironmentInScope, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { BUSINESS_TIME_ZONE, businessToday, dayOf, isoDay } from "../domain/schedule-expansion.ts";
import { SCHEDULE_TEXTS } from "../domain/schedule-texts.ts";
import { notFound } from "../lib/errors.ts";

import { listMyBookings, type Executor, type MyBooking, type SlotRow } from "./execution.ts";
import { lateTolerance } from "./reports/client.ts";

/**
 * The field app's reads (docs/field-app.md 'Calls'): who may sign in to it, the caller's day ('Hoje') and a room
 * opened from its QR code. The slots are the execution service's (`listMyBookings`): the same filter (active bookings
 * of active, not removed agendas), the same slot shape, one query per day. Plain inputs and a clock (`now`), as the
 * execution service.
 */

/**
 * Whether the executor has bookings to do from `today` on (business date): an active booking of an active agenda that
 * was not removed, as the execution lists show them. Read along bookings_user_day_idx; one row at most.
 */
export async function hasBookingsFrom(db: Kysely<DB>, executor: Executor, today: string) {
  const row = await db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .select("b.id")
    .where("b.user_id", "=", executor.userId)
    .where("b.company_id", "=", executor.companyId)
    .where("b.data_agend", ">=", today)
    .where("b.active", "=", true)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A slot's state on the phone, in the order the counts are given. */
export const FIELD_STATES = ["A fazer", "Atrasada", "Em andamento", "Concluída", "Não concluída"] as const;
export type FieldState = (typeof FIELD_STATES)[number];

/** At most this many slots in each list of the day (today, yesterday's open ones, tomorrow), the first in time order. */
export const MAX_FIELD_SLOTS = 200;

/** The instant a slot starts: its business date and start time in America/Fortaleza. */
function slotStart(slot: Pick<SlotRow, "data_agend" | "hora_ini">) {
  const [year, month, day] = slot.data_agend.split("-").map(Number);
  const [hours, minutes] = slot.hora_ini.split(":").map(Number);
  return new TZDate(year, month - 1, day, hours, minutes, BUSINESS_TIME_ZONE);
}

/**
 * The state of a slot at `now`: a started one is 'Em andamento', a closed one 'Concluída' or 'Não concluída'; one not
 * started is 'A fazer' until its start plus the company's late tolerance (companies.late_tolerance_minutes, the
 * client report's 'com atraso'), then 'Atrasada'.
 */
export function fieldState(
  slot: Pick<SlotRow, "data_agend" | "hora_ini" | "status">,
  now: Date,
  toleranceMinutes: number,
): FieldState {
  switch (slot.status) {
    case "Andamento":
      return "Em andamento";
    case "Completo":
      return "Concluída";
    case "Incompleto":
      return "Não concluída";
    default:
      return now.getTime() < slotStart(slot).getTime() + toleranceMinutes * 60_000 ? "A fazer" : "Atrasada";
  }
}

export type FieldSlot = { slot: SlotRow; environment: MyBooking["environment"]; state: FieldState };

export type FieldDay = {
  date: string;
  /** Today's slots per state (all of them, also past MAX_FIELD_SLOTS). */
  counts: Record<FieldState, number>;
  /** The slot to do next: the first under way, else the first not started (late ones come first: earlier). */
  nextId: number | null;
  today: FieldSlot[];
  /** Yesterday's slots still open (not started, or under way): the execution rules let an earlier day be done. */
  yesterday: FieldSlot[];
  tomorrow: FieldSlot[];
};

/** Slots of one day in time order (the execution lists' order, across agendas). */
const byTime = (a: SlotRow, b: SlotRow) =>
  a.hora_ini.localeCompare(b.hora_ini) || a.hora_fim.localeCompare(b.hora_fim) || a.id - b.id;

/** The executor's slots of one business day, every agenda together, in time order, with their rooms. */
async function slotsOf(db: Kysely<DB>, executor: Executor, date: string) {
  const bookings = await listMyBookings(db, executor, date);
  return bookings
    .flatMap((booking) => booking.slots.map((slot) => ({ slot, environment: booking.environment })))
    .sort((a, b) => byTime(a.slot, b.slot));
}

/** 'Hoje' (GET /execution/today): the executor's day at `now`. */
export async function fieldDay(db: Kysely<DB>, executor: Executor, now: Date): Promise<FieldDay> {
  const date = businessToday(now);
  const day = (offset: number) => isoDay(addDays(dayOf(date), offset));
  const tolerance = await lateTolerance(db, executor.companyId);
  const withState = (rows: Awaited<ReturnType<typeof slotsOf>>): FieldSlot[] =>
    rows.map((row) => ({ ...row, state: fieldState(row.slot, now, tolerance) }));
  const today = withState(await slotsOf(db, executor, date));
  const yesterday = withState(await slotsOf(db, executor, day(-1))).filter(
    (row) => row.slot.status === null || row.slot.status === "Andamento",
  );
  const tomorrow = withState(await slotsOf(db, executor, day(1)));

  const counts = Object.fromEntries(FIELD_STATES.map((state) => [state, 0])) as Record<FieldState, number>;
  for (const row of today) counts[row.state]++;
  const next =
    today.find((row) => row.state === "Em andamento") ??
    today.find((row) => row.state === "Atrasada" || row.state === "A fazer");
  return {
    date,
    counts,
    nextId: next?.slot.id ?? null,
    today: today.slice(0, MAX_FIELD_SLOTS),
    yesterday: yesterday.slice(0, MAX_FIELD_SLOTS),
    tomorrow: tomorrow.slice(0, MAX_FIELD_SLOTS),
  };
}

/** What the QR value a room's page was opened with is: the printed code's, the one before a reissue, or neither. */
export type QrCheck = "valido" | "substituido" | "invalido";

export type FieldRoom = {
  environment: MyBooking["environment"];
  /** Mandatory first, then by name. */
  procedures: MyBooking["procedures"];
  /** Whether one of the caller's agendas here asks for a single photo per revision. */
  revisionPhotos: boolean;
  /** null when the page was opened without a QR value (chosen from 'Hoje'). */
  qr: QrCheck | null;
  /** The caller's slots of today in this room, in time order. */
  slots: SlotRow[];
  /** Other people's slots in this room today (a count: no names). */
  othersToday: number;
};

/**
 * A room opened on the phone (GET /execution/environments/{id}): 404 outside the caller's company or, for
 * branch-level callers and field staff, branch (docs/security.md, the ids rule), and for a removed room.
 */
export async function fieldRoom(
  db: Kysely<DB>,
  scope: Scope,
  executor: Executor,
  environmentId: number,
  qr: string | null,
  now: Date,
): Promise<FieldRoom> {
  await assertEnvironmentInScope(db, scope, environmentId);
  const room = await db
    .selectFrom("environments as e")
    .innerJoin("categories as cat", "cat.id", "e.category_id")
    .innerJoin("sectors as sec", "sec.id", "e.sector_id")
    .select([
      "e.id",
      "e.name",
      "e.andar",
      "cat.name as categoria",
      "sec.name as setor",
      "e.qr_codigo",
      "e.qr_codigo_anterior",
    ])
    .where("e.id", "=", environmentId)
    .where("e.company_id", "=", scope.companyId)
    .where("e.deleted_at", "is", null)
    .executeTakeFirst();
  if (!room) throw notFound(SCHEDULE_TEXTS.environmentNotFound);
  const today = businessToday(now);
  const procedures = await db
    .selectFrom("environment_procedures as ep")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .select(["p.id", "p.name", "ep.mandatory"])
    .where("ep.environment_id", "=", environmentId)
    .where("p.deleted_at", "is", null)
    .orderBy("ep.mandatory", "desc")
    .orderBy("p.name")
    .orderBy("p.id")
    .execute();
  const mine = (await listMyBookings(db, executor, today)).filter(
    (booking) => booking.environment.id === environmentId,
  );
  const others = await db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("b.environment_id", "=", environmentId)
    .where("b.data_agend", "=", today)
    .where("b.company_id", "=", scope.companyId)
    .where("b.user_id", "!=", executor.userId)
    .where("b.active", "=", true)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return {
    environment: { id: room.id, name: room.name, andar: room.andar, categoria: room.categoria, setor: room.setor },
    procedures,
    revisionPhotos: mine.some((booking) => booking.revisionPhotos),
    qr:
      qr === null
        ? null
        : qr === room.qr_codigo
          ? "valido"
          : qr === room.qr_codigo_anterior
            ? "substituido"
            : "invalido",
    slots: mine.flatMap((booking) => booking.slots).sort(byTime),
    othersToday: Number(others.n),
  };
}
