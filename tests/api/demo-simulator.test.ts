/**
 * The demo simulator (api/db/demo-simulator.ts; docs/scheduling.md 'The demo simulator'): on the test database (demo
 * data without history) it simulates a few days through the services, twice on two databases, and the output must be
 * consistent and the same both times.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import {
  businessInstant,
  DEMO_REASONS,
  FIELD_ROUND,
  simulateDemoHistory,
  type SimulationResult,
} from "../../api/db/demo-simulator.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { fieldDay } from "../../api/services/field-day.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { openTestDatabase, type TestDatabase } from "../support/db.ts";

/** 10:05 in Fortaleza on a fixed day: today's early slots are done, the later ones are not. */
const NOW = businessInstant("2026-03-18", 10 * 60 + 5);
const TODAY = businessToday(NOW);
const DAYS = 10;

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

async function snapshot(t: TestDatabase) {
  const bookings = await t.db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .select([
      "b.id",
      "b.agenda_id",
      "b.environment_id",
      "a.environment_id as agenda_environment_id",
      "b.user_id",
      "b.data_agend",
      "b.slot",
      "b.hora_ini",
      "b.hora_fim",
      "b.status",
      "b.start_date",
      "b.finished_at",
      "b.justificativa",
    ])
    .orderBy("b.id")
    .execute();
  const history = await t.db
    .selectFrom("history as h")
    .innerJoin("bookings as b", "b.id", "h.booking_id")
    .select([
      "h.id",
      "h.booking_id",
      "h.procedure_id",
      "h.revision_id",
      "h.user_id",
      "h.image",
      "h.observacao",
      "h.created_at",
      "b.environment_id",
      "b.user_id as booking_user_id",
      "b.slot",
    ])
    .orderBy("h.id")
    .execute();
  return { bookings, history };
}

const dbs: TestDatabase[] = [];
const dirs: string[] = [];
const runs: { result: SimulationResult; data: Snapshot }[] = [];

beforeAll(async () => {
  for (let run = 0; run < 2; run++) {
    const t = await openTestDatabase();
    dbs.push(t);
    const dir = mkdtempSync(path.join(tmpdir(), "demo-simulator-"));
    dirs.push(dir);
    const result = await simulateDemoHistory(t.db, { now: NOW, storage: createDiskStorage(dir), days: DAYS });
    runs.push({ result, data: await snapshot(t) });
  }
}, 120_000);

afterAll(async () => {
  for (const t of dbs) await t.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the demo simulator", () => {
  test("writes agendas, executed bookings and history through the services", () => {
    const { result, data } = runs[0];
    expect(result.agendas).toBeGreaterThanOrEqual(9);
    expect(result.bookings).toBe(data.bookings.length);
    expect(result.history).toBe(data.history.length);
    expect(result.completed).toBeGreaterThan(0);
    expect(result.photos).toBeGreaterThan(0);
    const statuses = new Set(data.bookings.map((row) => row.status));
    expect(statuses).toContain("Completo");
    expect(statuses).toContain(null);
  });

  test("the proof flags have examples: most starts with the room's QR value, some without, a few sent late", async () => {
    const { result } = runs[0];
    const started = await dbs[0].db
      .selectFrom("bookings")
      .select(["iniciada_via_qr", "start_date", "start_received_at", "envio_atraso_s"])
      .where("start_date", "is not", null)
      .execute();
    const withoutQr = started.filter((row) => row.iniciada_via_qr === false).length;
    expect([withoutQr, started.length - withoutQr > started.length / 2]).toEqual([result.withoutQr, true]);
    expect(result.withoutQr).toBeGreaterThan(0);
    const late = started.filter((row) => row.envio_atraso_s !== null);
    expect(late.length).toBe(result.lateSends);
    expect(result.lateSends).toBeGreaterThan(0);
    // All of a late slot's records arrived together: the start waited the longest.
    for (const row of late)
      expect(row.envio_atraso_s).toBe(
        Math.round((row.start_received_at!.getTime() - row.start_date!.getTime()) / 1000),
      );
  });

  test("every history row belongs to a booking of its environment, done by the booking's collaborator", () => {
    const { data } = runs[0];
    const byId = new Map(data.bookings.map((row) => [row.id, row]));
    for (const row of data.history) {
      const booking = byId.get(row.booking_id)!;
      expect(booking).toBeDefined();
      expect(booking.environment_id).toBe(booking.agenda_environment_id);
      expect(row.user_id).toBe(row.booking_user_id);
      expect(booking.status).not.toBeNull();
      // A revision slot names its revision; the main slot none.
      expect(row.revision_id === null).toBe(row.slot === 0);
      expect(row.created_at.getTime()).toBeGreaterThanOrEqual(booking.start_date!.getTime());
      if (booking.finished_at) expect(row.created_at.getTime()).toBeLessThanOrEqual(booking.finished_at.getTime());
    }
  });

  test("statuses agree with start, finish and reason; nothing after 'now' is executed", () => {
    const { data, result } = runs[0];
    const start = data.bookings.map((row) => row.data_agend).sort()[0];
    for (const row of data.bookings) {
      for (const instant of [row.start_date, row.finished_at]) {
        if (instant) expect(instant.getTime()).toBeLessThanOrEqual(NOW.getTime());
      }
      if (row.data_agend > TODAY) expect(row.status).toBeNull();
      switch (row.status) {
        case null:
          expect([row.start_date, row.finished_at, row.justificativa]).toEqual([null, null, null]);
          break;
        case "Andamento":
          expect(row.data_agend).toBe(TODAY);
          expect(row.start_date).not.toBeNull();
          expect([row.finished_at, row.justificativa]).toEqual([null, null]);
          break;
        case "Completo":
          expect(row.start_date!.getTime()).toBeLessThanOrEqual(row.finished_at!.getTime());
          expect(row.justificativa).toBeNull();
          break;
        case "Incompleto":
          expect(row.finished_at).not.toBeNull();
          expect(DEMO_REASONS).toContain(row.justificativa);
          break;
      }
    }
    expect(start < TODAY).toBe(true);
    expect(data.bookings.filter((row) => row.status === "Incompleto").length).toBe(result.incomplete);
    expect(data.bookings.filter((row) => row.status === "Andamento").length).toBe(result.inProgress);
  });

  test("is deterministic: two databases, the same rows (photo file names aside)", () => {
    const [first, second] = runs;
    const { ms: _a, ...firstCounts } = first.result;
    const { ms: _b, ...secondCounts } = second.result;
    expect(secondCounts).toEqual(firstCounts);
    expect(second.data.bookings).toEqual(first.data.bookings);
    const withoutNames = (data: Snapshot) =>
      data.history.map(({ image, ...row }) => ({ ...row, photo: image !== null }));
    expect(withoutNames(second.data)).toEqual(withoutNames(first.data));
  });
});

describe("asg@demo.com.br has slots of today in the field app whatever the hour the demo starts", () => {
  /** A fresh demo simulated up to `now` (one day before it): Sebastião's 'Hoje' at that instant. */
  async function sebastiaoAt(now: Date) {
    const t = await openTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), "demo-field-"));
    try {
      await simulateDemoHistory(t.db, { now, storage: createDiskStorage(dir), days: 1 });
      const user = await t.db
        .selectFrom("users")
        .select(["id", "company_id"])
        .where("email", "=", "asg@demo.com.br")
        .executeTakeFirstOrThrow();
      const day = await fieldDay(t.db, { userId: user.id, companyId: user.company_id }, now);
      const room = day.today.find((row) => row.environment.name === FIELD_ROUND.environment)!;
      const procedures = await t.db
        .selectFrom("environment_procedures")
        .select("procedure_id")
        .where("environment_id", "=", room.environment.id)
        .execute();
      return { day, procedures: procedures.length };
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const states = (day: Awaited<ReturnType<typeof sebastiaoAt>>["day"]) => day.today.map((row) => row.state);

  test("just after midnight: the first round under way, the next to do", async () => {
    const { day, procedures } = await sebastiaoAt(businessInstant("2026-03-18", 5));
    expect(states(day)).toContain("Em andamento");
    expect(states(day)).toContain("A fazer");
    expect(procedures).toBeGreaterThan(0);
  }, 60_000);

  test("mid-morning (the run above): a slot under way and one to do", () => {
    const { data } = runs[0];
    // The round's 09:00-09:20 and 11:00-11:20 (no other agenda has those slots).
    const slot = (ini: string, fim: string) =>
      data.bookings.filter((row) => row.data_agend === TODAY && row.hora_ini === ini && row.hora_fim === fim);
    expect(slot("09:00:00", "09:20:00").map((row) => row.status)).toEqual(["Andamento"]);
    expect(slot("11:00:00", "11:20:00").map((row) => row.status)).toEqual([null]);
  });

  test("late at night: the last round under way, tomorrow's listed", async () => {
    const { day } = await sebastiaoAt(businessInstant("2026-03-18", 23 * 60 + 40));
    expect(states(day)).toContain("Em andamento");
    expect(day.tomorrow.length).toBeGreaterThanOrEqual(FIELD_ROUND.revisions.length + 1);
  }, 60_000);
});
