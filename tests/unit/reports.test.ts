/**
 * The history reports' rules (api/domain/reports.ts; spec 001 §4, §5 'Reports', §9; issue 23 'Done when'): one case
 * per rule, named after it.
 */
import { describe, expect, test } from "vitest";

import {
  cleaningType,
  dayStatus,
  elapsedMs,
  formatDifference,
  formatDuration,
  groupStatus,
  hasObservation,
  MAX_ITEM_MS,
  reportPeriod,
  reportSlot,
  scheduledMs,
  slotTasks,
  slotTimes,
  type GroupStatus,
  type TaskStatus,
} from "../../api/domain/reports.ts";
import { bookingsWithCompleted } from "../../app/reports/environment-report.ts";

const C: TaskStatus = "Completo";
const N: TaskStatus = "Não Realizado";

describe("the group status (a collaborator's day, an environment's slot)", () => {
  test.each<[string, TaskStatus[], { observation: boolean; today: boolean }, GroupStatus]>([
    ["some done and some not: Incompleto", [C, N, C], { observation: false, today: false }, "Incompleto"],
    ["some done and some not, today: still Incompleto", [N, C], { observation: false, today: true }, "Incompleto"],
    [
      "some done and some not, with an observation: Incompleto",
      [C, N],
      { observation: true, today: false },
      "Incompleto",
    ],
    ["none done, the day is today: A iniciar", [N, N], { observation: false, today: true }, "A iniciar"],
    ["none done, another day: Não Realizado", [N, N], { observation: false, today: false }, "Não Realizado"],
    ["all done, no observation: Completo", [C, C], { observation: false, today: false }, "Completo"],
    ["all done with an observation: Cancelado", [C, C], { observation: true, today: true }, "Cancelado"],
    ["a room without procedures counts as done: Completo", [], { observation: false, today: true }, "Completo"],
  ])("%s", (_rule, tasks, context, expected) => {
    expect(groupStatus(tasks, context)).toBe(expected);
  });

  test("an observation of blanks is no observation", () => {
    expect(hasObservation([{ observacao: "  " }, { observacao: null }])).toBe(false);
    expect(hasObservation([{ observacao: null }, { observacao: "Sala interditada" }])).toBe(true);
  });
});

describe("the tasks of a slot and the leftovers", () => {
  const execution = (id: number, procedureId: number, observacao: string | null = null) => ({
    id,
    procedureId,
    observacao,
  });

  test("a procedure with an execution in the slot is Completo, one without is Não Realizado", () => {
    const { tasks, extras } = slotTasks([10, 11, 12], [execution(1, 11), execution(2, 10)]);
    expect(tasks.map((task) => [task.procedureId, task.status, task.execution?.id ?? null])).toEqual([
      [10, "Completo", 2],
      [11, "Completo", 1],
      [12, "Não Realizado", null],
    ]);
    expect(extras).toEqual([]);
  });

  test("an execution of a procedure the room no longer has is a leftover: Extra", () => {
    const { tasks, extras } = slotTasks([10], [execution(1, 10), execution(2, 99)]);
    expect(tasks.map((task) => task.status)).toEqual(["Completo"]);
    expect(extras.map((extra) => extra.id)).toEqual([2]);
  });

  test("a second execution of the same procedure in one slot is a leftover: Extra", () => {
    const { tasks, extras } = slotTasks([10], [execution(1, 10), execution(2, 10)]);
    expect(tasks[0].execution?.id).toBe(1);
    expect(extras.map((extra) => extra.id)).toEqual([2]);
  });

  test("the first slot of the day is Principal, the others Revisão; a corrective cleaning's slot is Extra", () => {
    expect([0, 1, 19].map((slot) => cleaningType(slot))).toEqual(["Principal", "Revisão", "Revisão"]);
    expect(cleaningType(0, 28)).toBe("Extra");
  });
});

describe("the three times and their format (§9)", () => {
  test.each<[string, number | null, string]>([
    ["hh:mm:ss", 3_723_000, "01:02:03"],
    ["under a second is 00:00:00", 999, "00:00:00"],
    ["a missing time is ' - '", null, " - "],
    ["the 24 h cap", MAX_ITEM_MS + 3_600_000, "24:00:00"],
  ])("duration: %s", (_rule, ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });

  test.each<[string, number | null, number | null, string]>([
    ["longer than scheduled: '+ hh:mm:ss' (actual minus scheduled)", 65 * 60_000, 60 * 60_000, "+ 00:05:00"],
    ["shorter than scheduled: '- hh:mm:ss'", 50 * 60_000, 60 * 60_000, "- 00:10:00"],
    ["as scheduled: '+ 00:00:00'", 60 * 60_000, 60 * 60_000, "+ 00:00:00"],
    ["no actual time: ' - '", null, 60 * 60_000, " - "],
    ["no scheduled time: ' - '", 60 * 60_000, null, " - "],
  ])("difference: %s", (_rule, actual, scheduled, expected) => {
    expect(formatDifference(actual, scheduled)).toBe(expected);
  });

  test("the execution time is the performed end minus start, capped at 24 h; missing or reversed is none", () => {
    expect(elapsedMs("2026-03-15T11:00:00Z", "2026-03-15T11:47:30Z")).toBe(47.5 * 60_000);
    expect(elapsedMs("2026-03-15T11:00:00Z", "2026-03-17T11:00:00Z")).toBe(MAX_ITEM_MS);
    expect(elapsedMs("2026-03-15T11:00:00Z", null)).toBeNull();
    expect(elapsedMs("2026-03-15T12:00:00Z", "2026-03-15T11:00:00Z")).toBeNull();
  });

  test("the estimated time is the scheduled end minus start", () => {
    expect(scheduledMs("08:00", "09:30")).toBe(90 * 60_000);
    expect(scheduledMs("08:00:00", "08:45:00")).toBe(45 * 60_000);
    expect(scheduledMs("09:00", "08:00")).toBeNull();
  });

  test("a slot's execution, estimated and optimised times", () => {
    expect(
      slotTimes({ horaIni: "08:00", horaFim: "09:00", start: "2026-03-15T11:05:00Z", end: "2026-03-15T11:50:00Z" }),
    ).toEqual({ execution: "00:45:00", estimated: "01:00:00", optimised: "- 00:15:00" });
    expect(slotTimes({ horaIni: "08:00", horaFim: "09:00", start: null, end: null })).toEqual({
      execution: " - ",
      estimated: "01:00:00",
      optimised: " - ",
    });
  });
});

describe("the period check (§5 'Reports')", () => {
  const today = "2026-11-25";
  const refused = { ok: false, title: "Filtro inválido", message: "Intervalo de datas inválidos, favor verificar" };

  test.each<[string, { inicio?: string | null; fim?: string | null }, unknown]>([
    ["no dates: today", {}, { ok: true, period: { from: today, to: today }, cut: false }],
    [
      "one date alone: that day",
      { inicio: "2026-11-02" },
      { ok: true, period: { from: "2026-11-02", to: "2026-11-02" }, cut: false },
    ],
    [
      "a range",
      { inicio: "2026-11-01", fim: "2026-11-20" },
      { ok: true, period: { from: "2026-11-01", to: "2026-11-20" }, cut: false },
    ],
    [
      "Brazilian dates are read",
      { inicio: "01/11/2026", fim: "20/11/2026" },
      { ok: true, period: { from: "2026-11-01", to: "2026-11-20" }, cut: false },
    ],
    ["a start after today: Filtro inválido", { inicio: "2026-11-26", fim: "2026-11-26" }, refused],
    ["an end after today: Filtro inválido", { inicio: "2026-11-01", fim: "2026-11-26" }, refused],
    ["an end before the start: Filtro inválido", { inicio: "2026-11-20", fim: "2026-11-01" }, refused],
    ["a malformed date: Filtro inválido", { inicio: "2026-13-01" }, refused],
    ["an impossible day: Filtro inválido", { fim: "31/02/2026" }, refused],
    [
      "exactly a year (366 days) is kept",
      { inicio: "2025-11-25", fim: today },
      { ok: true, period: { from: "2025-11-25", to: today }, cut: false },
    ],
    [
      "a day more than a year (367 days) is cut to 366",
      { inicio: "2025-11-24", fim: today },
      { ok: true, period: { from: "2025-11-24", to: "2026-11-24" }, cut: true },
    ],
    [
      "longer than a year is cut to a year from the start",
      { inicio: "2024-01-01", fim: today },
      { ok: true, period: { from: "2024-01-01", to: "2024-12-31" }, cut: true },
    ],
  ])("%s", (_rule, query, expected) => {
    expect(reportPeriod(query, today)).toEqual(expected);
  });
});

describe("a slot as the reports show it (reportSlot, dayStatus)", () => {
  const booking = (slot: number, executions: { procedureId: number; observacao?: string }[], day = "2026-11-20") => ({
    id: 10 + slot,
    dataAgend: day,
    slot,
    horaIni: "07:00",
    horaFim: "07:30",
    startDate: "2026-11-20T10:00:00.000Z",
    finishedAt: "2026-11-20T10:25:00.000Z",
    justificativa: null,
    procedures: [
      { id: 1, name: "Limpar piso" },
      { id: 2, name: "Recolher lixo" },
    ],
    executions: executions.map((execution, index) => ({
      id: index + 1,
      procedureId: execution.procedureId,
      procedure: `Procedimento ${execution.procedureId}`,
      observacao: execution.observacao ?? null,
      ocorrencia: null,
      image: null,
      createdAt: "2026-11-20T10:10:00.000Z",
    })),
  });

  test("the first slot is 'Principal', the others 'Revisão'; its times are execution, estimated, optimised", () => {
    const slot = reportSlot(booking(0, [{ procedureId: 1 }, { procedureId: 2 }]), "2026-11-25");
    expect(slot).toMatchObject({ type: "Principal", status: "Completo" });
    expect(slot.times).toEqual({ execution: "00:25:00", estimated: "00:30:00", optimised: "- 00:05:00" });
    expect(reportSlot(booking(1, []), "2026-11-25").type).toBe("Revisão");
  });

  test("each task keeps its own status: the skipped procedure is 'Não Realizado' in an 'Incompleto' slot", () => {
    const slot = reportSlot(booking(0, [{ procedureId: 2 }]), "2026-11-25");
    expect(slot.status).toBe("Incompleto");
    expect(slot.tasks.map((task) => [task.procedure, task.status])).toEqual([
      ["Limpar piso", "Não Realizado"],
      ["Recolher lixo", "Completo"],
    ]);
  });

  test("a task not done today is 'A iniciar'; a note does not change a done task, only its group ('Cancelado')", () => {
    const slot = reportSlot(booking(0, [{ procedureId: 1, observacao: "Sala fechada" }], "2026-11-25"), "2026-11-25");
    expect(slot.tasks.map((task) => task.status)).toEqual(["Completo", "A iniciar"]);
    const done = reportSlot(
      booking(0, [{ procedureId: 1, observacao: "Sala fechada" }, { procedureId: 2 }]),
      "2026-11-25",
    );
    expect(done.status).toBe("Cancelado");
    expect(done.tasks.map((task) => task.status)).toEqual(["Completo", "Completo"]);
  });

  test("leftover executions are 'Extra' lines after the room's procedures", () => {
    const slot = reportSlot(booking(1, [{ procedureId: 9 }, { procedureId: 1 }, { procedureId: 1 }]), "2026-11-25");
    expect(slot.tasks.map((task) => [task.procedure, task.type, task.status])).toEqual([
      ["Limpar piso", "Revisão", "Completo"],
      ["Recolher lixo", "Revisão", "Não Realizado"],
      ["Procedimento 9", "Extra", "Completo"],
      ["Procedimento 1", "Extra", "Completo"],
    ]);
  });

  test("a day's status is the group rule over every task of its slots", () => {
    const done = booking(0, [{ procedureId: 1 }, { procedureId: 2 }]);
    expect(dayStatus([done, booking(1, [{ procedureId: 1 }, { procedureId: 2 }])], "2026-11-25")).toBe("Completo");
    expect(dayStatus([done, booking(1, [])], "2026-11-25")).toBe("Incompleto");
    expect(dayStatus([booking(0, []), booking(1, [])], "2026-11-25")).toBe("Não Realizado");
    expect(dayStatus([booking(0, [], "2026-11-25")], "2026-11-25")).toBe("A iniciar");
    expect(dayStatus([done, booking(1, [{ procedureId: 1 }, { procedureId: 2, observacao: "x" }])], "2026-11-25")).toBe(
      "Cancelado",
    );
  });
});

describe("a room card's 'Agendamentos'", () => {
  test("says how many of its slots were completed, the noun agreeing with the number", () => {
    expect([bookingsWithCompleted(2, 1), bookingsWithCompleted(2, 0), bookingsWithCompleted(3, 2)]).toEqual([
      "2 (1 completo)",
      "2 (0 completos)",
      "3 (2 completos)",
    ]);
  });
});
