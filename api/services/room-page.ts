import { sql, type Kysely } from "kysely";

import type { DB } from "../db/schema.ts";
import { performedSpan } from "../domain/board.ts";
import { MAX_PAGE_ROWS } from "../domain/limits.ts";
import { cleaningType } from "../domain/reports.ts";
import { pairRoomDay, type RoomCard, type RoomPerformedVisit, type RoomScheduledSlot } from "../domain/room-page.ts";

import { bookingIncidentId } from "./booking-incident.ts";
import { findPublicEnvironment } from "./environments.ts";

/**
 * The public room page's day (spec 001 §2.14, §4 'Room info page'; docs/room-page.md): one environment, one business
 * date. No scope and no token: the id is what the room's QR code holds. Only names, photos (avatar file names) and
 * times leave here: no CPF, e-mail or phone (DESIGN.md 'Security and tenancy').
 */

export type RoomPageDay = {
  environment: { id: number; name: string; empresa: string };
  date: string;
  /** Every card of the day in the day's order (`roomDayOf` gives the three views). */
  cards: Omit<RoomCard, "scheduledIndex" | "performedIndex">[];
};

/** The day of a room; null when the id is not a live environment. */
export async function readRoomDay(db: Kysely<DB>, environmentId: number, date: string): Promise<RoomPageDay | null> {
  const environment = await findPublicEnvironment(db, environmentId);
  if (!environment) return null;

  // The scheduled hours: the day's live booking rows of the room's live agendas, whoever they are for.
  const scheduledRows = await db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .innerJoin("users as u", "u.id", "b.user_id")
    .select(["b.hora_ini", "b.hora_fim", "b.slot", "a.incident_id", "u.nome", "u.avatar"])
    .where("b.environment_id", "=", environment.id)
    .where("b.data_agend", "=", date)
    .where("b.active", "=", true)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    // A public page: at most a page of the day's slots (one room cannot be cleaned a thousand times a day).
    .orderBy("b.hora_ini")
    .orderBy("b.id")
    .limit(MAX_PAGE_ROWS)
    .execute();

  // The cleanings performed: one visit per booking row of the day that was started, live or not (history is what
  // was done), with its first and last recorded procedure for rows closed before finished_at existed.
  const performedRows = await db
    .selectFrom("bookings as b")
    .innerJoin("users as u", "u.id", "b.user_id")
    .leftJoin("history as h", "h.booking_id", "b.id")
    .select([
      "b.id",
      "b.slot",
      bookingIncidentId,
      "b.status",
      "b.start_date",
      "b.finished_at",
      "u.nome",
      "u.avatar",
      sql<Date | null>`min(h.created_at)`.as("first_done"),
      sql<Date | null>`max(h.created_at)`.as("last_done"),
    ])
    .where("b.environment_id", "=", environment.id)
    .where("b.data_agend", "=", date)
    .where("b.status", "is not", null)
    .groupBy(["b.id", "u.id"])
    .orderBy("b.id")
    .limit(MAX_PAGE_ROWS)
    .execute();

  const scheduled: RoomScheduledSlot[] = scheduledRows.map((row) => ({
    horaIni: row.hora_ini,
    horaFim: row.hora_fim,
    type: cleaningType(row.slot, row.incident_id),
    employeeName: row.nome,
    photo: row.avatar,
  }));
  const performed: RoomPerformedVisit[] = [];
  for (const row of performedRows) {
    const history = [row.first_done, row.last_done].filter((at) => at !== null).map((createdAt) => ({ createdAt }));
    const span = performedSpan({
      status: row.status,
      startDate: row.start_date,
      finishedAt: row.finished_at,
      history,
    });
    // A slot reported incomplete without ever being started was not a cleaning: it stays a scheduled hour.
    if (span.start === null) continue;
    performed.push({
      employeeName: row.nome,
      photo: row.avatar,
      startedAt: span.start,
      finishedAt: span.end,
      revision: row.slot > 0,
      corrective: row.incident_id !== null,
    });
  }

  const cards = pairRoomDay(scheduled, performed).all.map(
    ({ scheduledIndex: _scheduled, performedIndex: _performed, ...card }) => card,
  );
  return { environment, date, cards };
}
