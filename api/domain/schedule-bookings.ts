import type { BookingSlot } from "./schedule-expansion.ts";

/**
 * Reconciling an agenda's stored bookings with what its edited form wants (spec 001 §5 'Edit schedule', issue 12):
 * pure, so the rule 'past and started bookings are never rewritten' is tested without a database
 * (docs/scheduling.md 'Creating and editing in one transaction'). The service loads the rows, calls `diffBookings`
 * and only applies the three lists.
 */

/** A stored booking row (one date and slot) as the reconciliation needs it. */
export type StoredBooking = {
  id: number;
  dataAgend: string;
  slot: number;
  horaIni: string;
  horaFim: string;
  userId: number;
  environmentId: number;
  /** null = 'A fazer'; 'Andamento', 'Completo', 'Incompleto' once the collaborator started it. */
  status: string | null;
  startDate: Date | string | null;
  /** A history (historic) row refers to it. */
  hasHistory: boolean;
  /** false = deleted from the calendar (DELETE /agendas/Agendamentos/{id}). */
  active: boolean;
};

/** Who and where every wanted slot is for (the agenda's collaborator and environment after the edit). */
export type BookingTarget = { userId: number; environmentId: number };

export type BookingChange = { id: number; horaIni: string; horaFim: string; userId: number; environmentId: number };

export type BookingDiff = {
  /** Wanted slots with no row yet. */
  insert: BookingSlot[];
  /** Open rows still wanted, with other times, collaborator or environment: updated in place, their ids kept. */
  update: BookingChange[];
  /** Open rows no longer wanted. */
  remove: number[];
  /** Rows left as they are because they are past, started, have history or were deleted (counted for tests/logs). */
  kept: number;
};

const keyOf = (row: { dataAgend: string; slot: number }) => `${row.dataAgend}#${row.slot}`;

/** 'HH:mm:ss' (a time column) and 'HH:mm' compare as the same time. */
const sameTime = (a: string, b: string) => a.slice(0, 5) === b.slice(0, 5);

/**
 * Whether a stored row may follow the edit: today or later (Fortaleza's today, passed in), not started (no status,
 * no start instant), no history, not deleted. Everything else is history and never changes.
 */
export function isOpenBooking(row: StoredBooking, today: string): boolean {
  return row.dataAgend >= today && row.status === null && row.startDate === null && !row.hasHistory && row.active;
}

/**
 * The writes that turn `existing` (an agenda's stored rows, any dates) into `wanted` (the edited agenda's slots from
 * today on) without touching a row that is not open (`isOpenBooking`):
 * - an open row whose (date, slot) is not wanted is removed;
 * - an open row that is wanted is updated in place when its times, collaborator or environment differ (its id stays,
 *   so a phone holding today's list still finds it), left alone otherwise;
 * - a wanted (date, slot) with no row at all is inserted; one held by a row that is not open (started, deleted …) is
 *   not: that row keeps its key, so a deleted booking never comes back.
 * Wanted slots before `today` are ignored (the service never asks for them; the rule is here so the diff alone
 * guarantees it).
 */
export function diffBookings(
  existing: readonly StoredBooking[],
  wanted: readonly BookingSlot[],
  target: BookingTarget,
  today: string,
): BookingDiff {
  const wantedByKey = new Map<string, BookingSlot>();
  for (const slot of wanted) if (slot.dataAgend >= today) wantedByKey.set(keyOf(slot), slot);

  const held = new Set<string>();
  const diff: BookingDiff = { insert: [], update: [], remove: [], kept: 0 };
  for (const row of existing) {
    const key = keyOf(row);
    held.add(key);
    if (!isOpenBooking(row, today)) {
      diff.kept++;
      continue;
    }
    const slot = wantedByKey.get(key);
    if (!slot) {
      diff.remove.push(row.id);
      continue;
    }
    const same =
      sameTime(row.horaIni, slot.horaIni) &&
      sameTime(row.horaFim, slot.horaFim) &&
      row.userId === target.userId &&
      row.environmentId === target.environmentId;
    if (!same) diff.update.push({ id: row.id, horaIni: slot.horaIni, horaFim: slot.horaFim, ...target });
  }
  for (const [key, slot] of wantedByKey) if (!held.has(key)) diff.insert.push(slot);
  return diff;
}
