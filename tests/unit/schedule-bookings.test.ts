/**
 * Reconciling stored bookings with an edited agenda (api/domain/schedule-bookings.ts, docs/scheduling.md): past,
 * started, with-history and deleted rows are never touched; open rows keep their ids; missing slots are inserted.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";

import { diffBookings, isOpenBooking, type StoredBooking } from "../../api/domain/schedule-bookings.ts";
import type { BookingSlot } from "../../api/domain/schedule-expansion.ts";

const TODAY = "2030-03-10";
const target = { userId: 7, environmentId: 9 };

let nextId = 1;
function row(dataAgend: string, slot: number, overrides: Partial<StoredBooking> = {}): StoredBooking {
  return {
    id: nextId++,
    dataAgend,
    slot,
    horaIni: slot === 0 ? "08:00:00" : "10:00:00",
    horaFim: slot === 0 ? "09:00:00" : "11:00:00",
    userId: 7,
    environmentId: 9,
    status: null,
    startDate: null,
    hasHistory: false,
    active: true,
    ...overrides,
  };
}

function want(
  dataAgend: string,
  slot: number,
  horaIni = slot === 0 ? "08:00" : "10:00",
  horaFim?: string,
): BookingSlot {
  return {
    dataAgend,
    slot,
    type: slot === 0 ? "Principal" : "Revisão",
    horaIni,
    horaFim: horaFim ?? (slot === 0 ? "09:00" : "11:00"),
  };
}

describe("isOpenBooking", () => {
  test("today and later, not started, no history, active", () => {
    expect(isOpenBooking(row(TODAY, 0), TODAY)).toBe(true);
    expect(isOpenBooking(row("2030-03-09", 0), TODAY)).toBe(false);
    expect(isOpenBooking(row(TODAY, 0, { status: "Andamento" }), TODAY)).toBe(false);
    expect(isOpenBooking(row(TODAY, 0, { startDate: new Date() }), TODAY)).toBe(false);
    expect(isOpenBooking(row(TODAY, 0, { hasHistory: true }), TODAY)).toBe(false);
    expect(isOpenBooking(row(TODAY, 0, { active: false }), TODAY)).toBe(false);
  });
});

describe("diffBookings", () => {
  test("same slots, same times: nothing to do (HH:mm:ss and HH:mm are the same time)", () => {
    const existing = [row(TODAY, 0), row(TODAY, 1), row("2030-03-11", 0)];
    const diff = diffBookings(existing, [want(TODAY, 0), want(TODAY, 1), want("2030-03-11", 0)], target, TODAY);
    expect(diff).toEqual({ insert: [], update: [], remove: [], kept: 0 });
  });

  test("changed times update open rows in place and leave past ones", () => {
    const past = row("2030-03-09", 0);
    const open = row(TODAY, 0);
    const diff = diffBookings([past, open], [want("2030-03-09", 0, "07:00"), want(TODAY, 0, "07:00")], target, TODAY);
    expect(diff.update).toEqual([{ id: open.id, horaIni: "07:00", horaFim: "09:00", ...target }]);
    expect(diff.insert).toEqual([]);
    expect(diff.remove).toEqual([]);
    expect(diff.kept).toBe(1);
  });

  test("a new collaborator or environment moves the open rows", () => {
    const open = row(TODAY, 0);
    const diff = diffBookings([open], [want(TODAY, 0)], { userId: 8, environmentId: 9 }, TODAY);
    expect(diff.update).toEqual([{ id: open.id, horaIni: "08:00", horaFim: "09:00", userId: 8, environmentId: 9 }]);
  });

  test("open rows not wanted are removed, wanted slots without a row are inserted", () => {
    const dropped = row(TODAY, 1);
    const diff = diffBookings([row(TODAY, 0), dropped], [want(TODAY, 0), want("2030-03-12", 0)], target, TODAY);
    expect(diff.remove).toEqual([dropped.id]);
    expect(diff.insert).toEqual([want("2030-03-12", 0)]);
  });

  test("started, with-history and deleted rows are kept and their keys never re-inserted", () => {
    const started = row(TODAY, 0, { status: "Andamento", startDate: "2030-03-10T11:00:00Z" });
    const withHistory = row("2030-03-11", 0, { hasHistory: true });
    const deleted = row("2030-03-12", 0, { active: false });
    const wanted = [want(TODAY, 0, "06:00", "07:00"), want("2030-03-11", 0, "06:00", "07:00"), want("2030-03-12", 0)];
    const diff = diffBookings([started, withHistory, deleted], wanted, target, TODAY);
    expect(diff).toEqual({ insert: [], update: [], remove: [], kept: 3 });
  });

  test("wanted slots before today are ignored", () => {
    expect(diffBookings([], [want("2030-03-09", 0)], target, TODAY).insert).toEqual([]);
  });

  test("property: no write touches a row that is not open; the result covers every wanted key once", () => {
    const day = fc.integer({ min: 1, max: 20 }).map((d) => `2030-03-${String(d).padStart(2, "0")}`);
    const stored = fc.record({
      dataAgend: day,
      slot: fc.integer({ min: 0, max: 3 }),
      horaIni: fc.constantFrom("08:00:00", "07:00:00"),
      status: fc.constantFrom(null, null, "Completo"),
      hasHistory: fc.boolean(),
      active: fc.boolean(),
    });
    const wantedSlot = fc.record({
      dataAgend: day,
      slot: fc.integer({ min: 0, max: 3 }),
      horaIni: fc.constantFrom("08:00", "06:00"),
    });
    fc.assert(
      fc.property(fc.array(stored, { maxLength: 30 }), fc.array(wantedSlot, { maxLength: 30 }), (rows, wishes) => {
        const unique = new Map(
          rows.map((r, index) => [`${r.dataAgend}#${r.slot}`, row(r.dataAgend, r.slot, { ...r, id: index + 1 })]),
        );
        const existing = [...unique.values()];
        const wanted = [
          ...new Map(wishes.map((w) => [`${w.dataAgend}#${w.slot}`, want(w.dataAgend, w.slot, w.horaIni)])).values(),
        ];
        const diff = diffBookings(existing, wanted, target, TODAY);
        const open = new Set(existing.filter((r) => isOpenBooking(r, TODAY)).map((r) => r.id));
        for (const id of [...diff.remove, ...diff.update.map((u) => u.id)]) expect(open.has(id)).toBe(true);
        const existingKeys = new Set(existing.map((r) => `${r.dataAgend}#${r.slot}`));
        for (const slot of diff.insert) {
          expect(existingKeys.has(`${slot.dataAgend}#${slot.slot}`)).toBe(false);
          expect(slot.dataAgend >= TODAY).toBe(true);
        }
        // Every wanted key from today on is held by a row that stays, or inserted.
        const removed = new Set(diff.remove);
        const after = new Set([
          ...existing.filter((r) => !removed.has(r.id)).map((r) => `${r.dataAgend}#${r.slot}`),
          ...diff.insert.map((s) => `${s.dataAgend}#${s.slot}`),
        ]);
        for (const slot of wanted)
          if (slot.dataAgend >= TODAY) expect(after.has(`${slot.dataAgend}#${slot.slot}`)).toBe(true);
      }),
    );
  });
});
