/**
 * The client report's formulas (issue 24 part 3; docs/decisions/006-client-report.md), table-driven on hand-made
 * rows: each slot's outcome (done on time, late, not done, pending), the counts, the shares and their rounding, the
 * weeks and the presets.
 */
import { describe, expect, test } from "vitest";
import * as z from "zod/mini";

import {
  countSlots,
  defaultClientPeriod,
  formatPercent,
  groupFigures,
  isLate,
  percent,
  periodWeeks,
  presetPeriod,
  scheduledStart,
  slotOutcome,
  sumCounts,
  weekStart,
  type ClientSlot,
  type SlotOutcome,
} from "../../api/domain/client-report.ts";
import { lateToleranceField, requiredLateToleranceField } from "../../api/domain/late-tolerance.ts";
import { CompanyEditSchema } from "../../app/companies/form-schema.ts";

const TODAY = "2026-03-18";
const context = { today: TODAY, toleranceMinutes: 15 };

describe("scheduledStart: the day and time in Fortaleza (UTC-3)", () => {
  test.each([
    ["2026-03-17", "07:00", "2026-03-17T10:00:00.000Z"],
    ["2026-03-17", "22:30", "2026-03-18T01:30:00.000Z"],
    ["2026-03-17", "00:00:00", "2026-03-17T03:00:00.000Z"],
  ])("%s %s is %s", (day, time, instant) => {
    expect(scheduledStart(day, time).toISOString()).toBe(instant);
  });
});

describe("isLate: started strictly after the scheduled start plus the tolerance", () => {
  test.each([
    // scheduled 07:00 Fortaleza = 10:00Z
    { start: "2026-03-17T10:00:00Z", tolerance: 15, late: false, why: "on the minute" },
    { start: "2026-03-17T09:30:00Z", tolerance: 15, late: false, why: "early" },
    { start: "2026-03-17T10:15:00Z", tolerance: 15, late: false, why: "at the limit exactly" },
    { start: "2026-03-17T10:15:01Z", tolerance: 15, late: true, why: "one second past the limit" },
    { start: "2026-03-17T10:01:00Z", tolerance: 0, late: true, why: "no tolerance, one minute" },
    { start: "2026-03-17T13:59:00Z", tolerance: 240, late: false, why: "the largest tolerance" },
    { start: null, tolerance: 15, late: false, why: "no start recorded" },
  ])("$why → $late", ({ start, tolerance, late }) => {
    expect(isLate({ dataAgend: "2026-03-17", horaIni: "07:00", startDate: start }, tolerance)).toBe(late);
  });
});

describe("slotOutcome: one outcome per scheduled cleaning", () => {
  const cases: { slot: ClientSlot; outcome: SlotOutcome; why: string }[] = [
    {
      slot: { dataAgend: "2026-03-17", horaIni: "07:00", status: "Completo", startDate: "2026-03-17T10:10:00Z" },
      outcome: "noPrazo",
      why: "done, started within the tolerance",
    },
    {
      slot: { dataAgend: "2026-03-17", horaIni: "07:00", status: "Completo", startDate: "2026-03-17T10:30:00Z" },
      outcome: "atrasadas",
      why: "done, started 30 min after the scheduled start",
    },
    {
      slot: { dataAgend: TODAY, horaIni: "07:00", status: "Completo", startDate: "2026-03-18T10:16:00Z" },
      outcome: "atrasadas",
      why: "today's, done late",
    },
    {
      slot: { dataAgend: "2026-03-17", horaIni: "07:00", status: "Completo", startDate: null },
      outcome: "noPrazo",
      why: "done with no start recorded: not late",
    },
    {
      slot: { dataAgend: "2026-03-17", horaIni: "07:00", status: null, startDate: null },
      outcome: "naoIniciadas",
      why: "never started, yesterday",
    },
    {
      slot: { dataAgend: "2026-03-17", horaIni: "07:00", status: "Incompleto", startDate: "2026-03-17T10:00:00Z" },
      outcome: "incompletas",
      why: "reported incomplete, yesterday",
    },
    {
      slot: { dataAgend: TODAY, horaIni: "07:00", status: "Incompleto", startDate: null },
      outcome: "incompletas",
      why: "reported incomplete today (without starting)",
    },
    {
      slot: { dataAgend: "2026-03-17", horaIni: "07:00", status: "Andamento", startDate: "2026-03-17T10:00:00Z" },
      outcome: "naoConcluidas",
      why: "started yesterday, never closed",
    },
    {
      slot: { dataAgend: TODAY, horaIni: "07:00", status: null, startDate: null },
      outcome: "pendentes",
      why: "today's, not started yet",
    },
    {
      slot: { dataAgend: TODAY, horaIni: "07:00", status: "Andamento", startDate: "2026-03-18T10:00:00Z" },
      outcome: "pendentes",
      why: "today's, in progress",
    },
  ];
  test.each(cases)("$why → $outcome", ({ slot, outcome }) => {
    expect(slotOutcome(slot, context)).toBe(outcome);
  });

  test("the counts of those rows: each outcome once per row, the total the rows", () => {
    const counts = countSlots(
      cases.map((entry) => entry.slot),
      context,
    );
    expect(counts).toEqual({
      agendadas: 10,
      noPrazo: 2,
      atrasadas: 2,
      naoIniciadas: 1,
      incompletas: 2,
      naoConcluidas: 1,
      pendentes: 2,
    });
    const figures = groupFigures(counts);
    expect(figures.concluidas).toBe(4);
    expect(figures.naoRealizadas).toBe(4);
    expect(figures.concluidas + figures.naoRealizadas + figures.pendentes).toBe(figures.agendadas);
    expect(figures.percentuais).toEqual({
      concluidas: 40,
      noPrazo: 20,
      atrasadas: 20,
      naoRealizadas: 40,
      pendentes: 20,
    });
  });
});

describe("percent: one decimal, half up on the exact fraction", () => {
  test.each([
    [1, 8, 12.5],
    [1, 16, 6.3],
    [1, 3, 33.3],
    [2, 3, 66.7],
    [1, 6, 16.7],
    [5, 6, 83.3],
    [0, 7, 0],
    [7, 7, 100],
    [1, 2000, 0.1],
    [1, 2001, 0],
    [999, 1000, 99.9],
    [19_999, 20_000, 100],
  ])("%i of %i is %d %", (part, total, share) => {
    expect(percent(part, total)).toBe(share);
  });
  test("nothing scheduled: no share ('-')", () => {
    expect(percent(0, 0)).toBeNull();
    expect(formatPercent(null)).toBe("-");
  });
  test("written with a comma", () => {
    expect(formatPercent(12.5)).toBe("12,5 %");
    expect(formatPercent(100)).toBe("100,0 %");
  });
  test("each share rounded on its own: three thirds add up to 99.9", () => {
    const figures = groupFigures({
      agendadas: 3,
      noPrazo: 1,
      atrasadas: 0,
      naoIniciadas: 1,
      incompletas: 0,
      naoConcluidas: 0,
      pendentes: 1,
    });
    expect(figures.percentuais).toMatchObject({ noPrazo: 33.3, naoRealizadas: 33.3, pendentes: 33.3 });
  });
});

describe("sumCounts: the summary is the sum of the groups", () => {
  test("two rooms", () => {
    const a = countSlots(
      [
        { dataAgend: "2026-03-16", horaIni: "07:00", status: "Completo", startDate: "2026-03-16T10:00:00Z" },
        { dataAgend: "2026-03-16", horaIni: "15:00", status: null, startDate: null },
      ],
      context,
    );
    const b = countSlots(
      [{ dataAgend: "2026-03-16", horaIni: "07:00", status: "Incompleto", startDate: null }],
      context,
    );
    expect(sumCounts([a, b])).toEqual({
      agendadas: 3,
      noPrazo: 1,
      atrasadas: 0,
      naoIniciadas: 1,
      incompletas: 1,
      naoConcluidas: 0,
      pendentes: 0,
    });
    expect(sumCounts([])).toMatchObject({ agendadas: 0 });
  });
});

describe("weeks (Monday to Sunday) and the presets", () => {
  test.each([
    ["2026-03-16", "2026-03-16"], // a Monday
    ["2026-03-22", "2026-03-16"], // a Sunday
    ["2026-03-18", "2026-03-16"],
    ["2026-03-01", "2026-02-23"], // across months
  ])("the week of %s starts %s", (day, monday) => {
    expect(weekStart(day)).toBe(monday);
  });
  test("a month's weeks, the first and last clipped to the period", () => {
    expect(periodWeeks({ from: "2026-02-01", to: "2026-02-28" })).toEqual([
      { semana: "2026-01-26", inicio: "2026-02-01", fim: "2026-02-01" },
      { semana: "2026-02-02", inicio: "2026-02-02", fim: "2026-02-08" },
      { semana: "2026-02-09", inicio: "2026-02-09", fim: "2026-02-15" },
      { semana: "2026-02-16", inicio: "2026-02-16", fim: "2026-02-22" },
      { semana: "2026-02-23", inicio: "2026-02-23", fim: "2026-02-28" },
    ]);
  });
  test.each([
    ["mes-passado", "2026-03-18", "2026-02-01", "2026-02-28"],
    ["mes-passado", "2026-01-05", "2025-12-01", "2025-12-31"],
    ["mes-passado", "2024-03-31", "2024-02-01", "2024-02-29"],
    ["semana-passada", "2026-03-18", "2026-03-09", "2026-03-15"],
    ["semana-passada", "2026-03-16", "2026-03-09", "2026-03-15"],
    ["semana-passada", "2026-03-22", "2026-03-09", "2026-03-15"],
  ] as const)("%s on %s is %s to %s", (preset, today, from, to) => {
    expect(presetPeriod(preset, today)).toEqual({ from, to });
  });
  test("the default period is the last complete month", () => {
    expect(defaultClientPeriod("2026-03-01")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
  });
});

describe("the company's late tolerance field ('Tolerância de atraso (minutos)')", () => {
  const message = "Digite um número inteiro de 0 a 240";
  test.each([
    ["0", 0],
    ["15", 15],
    [" 240 ", 240],
    [30, 30],
  ])("%j is %i minutes", (value, minutes) => {
    expect(z.parse(requiredLateToleranceField, value)).toBe(minutes);
  });
  test.each(["", "241", "-1", "2.5", "quinze", 241, 1.5])("%j: '%s'", (value) => {
    const result = z.safeParse(requiredLateToleranceField, value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
  test("the API's payload may leave it out (keeps the saved value)", () => {
    expect(z.parse(lateToleranceField, undefined)).toBeUndefined();
  });
  test("the edit form's schema carries it with the message", () => {
    const result = z.safeParse(CompanyEditSchema, { late_tolerance_minutes: "300" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((issue) => issue.path[0] === "late_tolerance_minutes")?.message).toBe(message);
  });
});
