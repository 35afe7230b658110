/**
 * The dashboard board (api/domain/board.ts, spec 001 §2.6, §2.7, §2.8, §4, §9; issue 13): the status mapping and its
 * columns, the performed times, the schedule detail's 'Horário' versus 'Realizado' rows, the period the URL asks for
 * and the period heading's four Portuguese forms; then properties with fast-check.
 */
import { TZDate } from "@date-fns/tz";
import { addDays, format, formatISO } from "date-fns";
import fc from "fast-check";
import { describe, expect, test } from "vitest";

import {
  BOARD_COLUMNS,
  BOARD_TEXTS,
  boardColumn,
  boardColumnOf,
  boardPeriod,
  businessTime,
  isInProgress,
  longDate,
  parseBookingStatus,
  performedSpan,
  periodHeading,
  scheduleDetailRows,
  slotState,
  timeRange,
  type BoardColumnKey,
} from "../../api/domain/board.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";

const NUM_RUNS = 200;

describe("columns (spec 001 §2.6, §9)", () => {
  test("four columns in order, with the spec's titles and card colours, each with a tooltip", () => {
    expect(BOARD_COLUMNS.map(({ key, title, color, status }) => ({ key, title, color, status }))).toEqual([
      { key: "toDo", title: "A fazer", color: "#3399ff", status: null },
      { key: "inProgress", title: "Fazendo", color: "#ffd700", status: "Andamento" },
      { key: "done", title: "Feito", color: "#00884A", status: "Completo" },
      { key: "incomplete", title: "Intercorrência", color: "#ffa500", status: "Incompleto" },
    ]);
    for (const column of BOARD_COLUMNS) {
      expect(column.tooltip.length).toBeGreaterThan(10);
      expect(boardColumn(column.key)).toBe(column);
    }
  });

  test("the empty card and the load failure toast (spec 001 §2.6, §8)", () => {
    expect(BOARD_TEXTS.empty).toBe("Não há registros");
    expect(`${BOARD_TEXTS.loadFailedTitle}: ${BOARD_TEXTS.loadFailed}`).toBe(
      "Erro: Erro ao carregar dados, por favor atualize a página",
    );
  });
});

describe("status mapping (spec 001 §4 'Schedule status on the board')", () => {
  test.each<[string | null | undefined, BoardColumnKey, string]>([
    [null, "toDo", "A fazer"],
    [undefined, "toDo", "A fazer"],
    ["", "toDo", "A fazer"],
    ["   ", "toDo", "A fazer"],
    ["Andamento", "inProgress", "Fazendo"],
    ["Completo", "done", "Feito"],
    ["Incompleto", "incomplete", "Intercorrência"],
  ])("%j goes to %s ('%s')", (status, key, title) => {
    expect(boardColumnOf(status)).toBe(key);
    expect(boardColumn(boardColumnOf(status)).title).toBe(title);
  });

  test("the status is read in any case and with spaces around", () => {
    expect(boardColumnOf(" andamento ")).toBe("inProgress");
    expect(boardColumnOf("COMPLETO")).toBe("done");
    expect(boardColumnOf("incompleto")).toBe("incomplete");
    expect(parseBookingStatus(" Completo")).toBe("Completo");
  });

  test("a word the board does not know shows as not started, as an empty one does", () => {
    expect(boardColumnOf("Cancelado")).toBe("toDo");
    expect(boardColumnOf("Andamento!")).toBe("toDo");
    expect(parseBookingStatus(42)).toBeNull();
  });

  test("the history modal: an entry whose booking is 'Andamento' is in progress (spec 001 §2.8)", () => {
    expect(isInProgress("Andamento")).toBe(true);
    expect(isInProgress("Completo")).toBe(false);
    expect(isInProgress(null)).toBe(false);
  });
});

describe("performed times", () => {
  test("instants read as the time of day in America/Fortaleza (UTC-3)", () => {
    expect(businessTime(new Date("2026-03-15T11:05:00Z"))).toBe("08:05");
    expect(businessTime("2026-03-15T11:05:30.123+00:00")).toBe("08:05");
    expect(businessTime("2026-03-16T02:30:00Z")).toBe("23:30");
    expect(businessTime(null)).toBeNull();
    expect(businessTime("not a date")).toBeNull();
  });

  const history = [
    { createdAt: "2026-03-15T11:40:00Z" },
    { createdAt: new Date("2026-03-15T11:10:00Z") },
    { createdAt: "2026-03-15T11:52:00Z" },
  ];

  test("not started (no status): nothing, even if a start or history were written", () => {
    expect(performedSpan({ status: null, startDate: null, history: [] })).toEqual({ start: null, end: null });
    expect(performedSpan({ status: null, startDate: "2026-03-15T11:00:00Z", history })).toEqual({
      start: null,
      end: null,
    });
  });

  test("'Andamento': the start only, from start_date, else the first history entry", () => {
    expect(performedSpan({ status: "Andamento", startDate: "2026-03-15T11:00:00Z", history })).toEqual({
      start: "2026-03-15T11:00:00Z",
      end: null,
    });
    expect(performedSpan({ status: "Andamento", startDate: null, history })).toEqual({
      start: history[1].createdAt,
      end: null,
    });
  });

  test("finished ('Completo' or 'Incompleto'): the end is finished_at (migration 008)", () => {
    expect(
      performedSpan({
        status: "Completo",
        startDate: "2026-03-15T11:00:00Z",
        finishedAt: "2026-03-15T12:10:00Z",
        history,
      }),
    ).toEqual({ start: "2026-03-15T11:00:00Z", end: "2026-03-15T12:10:00Z" });
    expect(
      performedSpan({
        status: "Incompleto",
        startDate: null,
        finishedAt: new Date("2026-03-15T12:00:00Z"),
        history: [],
      }),
    ).toEqual({ start: null, end: new Date("2026-03-15T12:00:00Z") });
    expect(
      performedSpan({ status: "Andamento", startDate: null, finishedAt: "2026-03-15T12:10:00Z", history }).end,
    ).toBeNull();
  });

  test("finished without finished_at (a row closed before it existed): the end is the last history entry", () => {
    for (const status of ["Completo", "Incompleto"]) {
      expect(performedSpan({ status, startDate: "2026-03-15T11:00:00Z", history })).toEqual({
        start: "2026-03-15T11:00:00Z",
        end: "2026-03-15T11:52:00Z",
      });
    }
    expect(performedSpan({ status: "Completo", startDate: null, history: [] })).toEqual({ start: null, end: null });
  });
});

describe("the schedule detail (spec 001 §2.7, §4)", () => {
  test("slot states: not started 'A iniciar', 'Andamento' 'Em andamento', else the outcome", () => {
    expect(slotState(null)).toBe("A iniciar");
    expect(slotState("")).toBe("A iniciar");
    expect(slotState("Andamento")).toBe("Em andamento");
    expect(slotState("Completo")).toBe("Completo");
    expect(slotState("Incompleto")).toBe("Incompleto");
  });

  test("'Horário' versus 'Realizado': planned slots in the day's order, then 'Fez a mais'", () => {
    const rows = scheduleDetailRows(
      [
        { horaIni: "15:00:00", horaFim: "15:30:00", status: null, performed: { start: null, end: null } },
        {
          horaIni: "08:00",
          horaFim: "09:00",
          status: "Completo",
          performed: { start: "2026-03-15T11:05:00Z", end: "2026-03-15T11:52:00Z" },
          proof: { viaQr: false, envioAtrasoS: 8100 },
        },
        {
          horaIni: "11:00",
          horaFim: "11:30",
          status: "Andamento",
          performed: { start: "2026-03-15T14:02:00Z", end: null },
        },
        {
          horaIni: "10:00",
          horaFim: "10:30",
          status: "Incompleto",
          performed: { start: "2026-03-15T13:01:00Z", end: "2026-03-15T13:20:00Z" },
        },
      ],
      [
        { start: "2026-03-15T21:00:00Z", end: "2026-03-15T21:15:00Z" },
        { start: "2026-03-15T19:10:00Z", end: null },
      ],
    );
    expect(rows).toEqual([
      {
        state: "Completo",
        column: "done",
        scheduled: "08:00 - 09:00",
        performed: "08:05 - 08:52",
        flags: ["Sem leitura do QR", "Enviado com atraso (2 h 15 min após a execução)"],
      },
      { state: "Incompleto", column: "incomplete", scheduled: "10:00 - 10:30", performed: "10:01 - 10:20", flags: [] },
      {
        state: "Em andamento",
        column: "inProgress",
        scheduled: "11:00 - 11:30",
        performed: "Em andamento",
        flags: [],
      },
      { state: "A iniciar", column: "toDo", scheduled: "15:00 - 15:30", performed: "A iniciar", flags: [] },
      { state: "Fez a mais", column: "done", scheduled: "Fez a mais", performed: "Iniciado às 16:10", flags: [] },
      { state: "Fez a mais", column: "done", scheduled: "Fez a mais", performed: "18:00 - 18:15", flags: [] },
    ]);
  });

  test("a slot with one end of its span or none says what it has, and no slots give no rows", () => {
    const end = "2026-03-15T12:14:00Z"; // 09:14 in Fortaleza
    expect(
      scheduleDetailRows([
        { horaIni: "08:00", horaFim: "09:00", status: "Completo", performed: { start: null, end: null } },
        { horaIni: "09:00", horaFim: "09:30", status: "Incompleto", performed: { start: null, end } },
        { horaIni: "10:00", horaFim: "10:30", status: "Completo", performed: { start: null, end } },
      ]).map((row) => row.performed),
    ).toEqual(["Sem horário registrado", "Justificado às 09:14", "Encerrado às 09:14"]);
    expect(scheduleDetailRows([])).toEqual([]);
    expect(timeRange({ horaIni: "7:05", horaFim: "07:40:00" })).toBe("07:05 - 07:40");
  });
});

describe("the period (spec 001 §2.6, §9 'Dashboard default period: today')", () => {
  const today = "2026-03-15";

  test("no dates, or unreadable ones: today", () => {
    expect(boardPeriod({}, today)).toEqual({ from: today, to: today });
    expect(boardPeriod({ dataIni: "", dataFim: null }, today)).toEqual({ from: today, to: today });
    expect(boardPeriod({ dataIni: "2026-02-31", dataFim: "ontem" }, today)).toEqual({ from: today, to: today });
  });

  test("the default is today in Fortaleza, not in UTC", () => {
    // 01:30 UTC on the 16th is still the 15th in Fortaleza.
    const now = new Date("2026-03-16T01:30:00Z");
    expect(boardPeriod({}, businessToday(now))).toEqual({ from: "2026-03-15", to: "2026-03-15" });
  });

  test("both dates; one of them alone is that day; 'dd/MM/yyyy' is read; a reversed range is put in order", () => {
    expect(boardPeriod({ dataIni: "2026-03-01", dataFim: "2026-03-10" }, today)).toEqual({
      from: "2026-03-01",
      to: "2026-03-10",
    });
    expect(boardPeriod({ dataIni: "2026-03-01" }, today)).toEqual({ from: "2026-03-01", to: "2026-03-01" });
    expect(boardPeriod({ dataFim: "2026-04-02" }, today)).toEqual({ from: "2026-04-02", to: "2026-04-02" });
    expect(boardPeriod({ dataIni: "01/03/2026", dataFim: "05/03/2026" }, today)).toEqual({
      from: "2026-03-01",
      to: "2026-03-05",
    });
    expect(boardPeriod({ dataIni: "2026-03-10", dataFim: "2026-03-01" }, today)).toEqual({
      from: "2026-03-01",
      to: "2026-03-10",
    });
  });
});

describe("the period heading's four forms (spec 001 §2.6)", () => {
  test.each([
    ["one day", "2026-03-15", "2026-03-15", "15 de março de 2026"],
    ["a range within one month", "2026-03-10", "2026-03-15", "10 a 15 de março de 2026"],
    ["across months of one year", "2026-02-28", "2026-03-03", "28 de fevereiro a 3 de março de 2026"],
    ["across years", "2025-12-30", "2026-01-02", "30 de dezembro de 2025 a 2 de janeiro de 2026"],
  ])("%s: %s to %s is '%s'", (_form, from, to, heading) => {
    expect(periodHeading({ from, to })).toBe(heading);
  });

  test("the first day of a month is written '1º'", () => {
    expect(periodHeading({ from: "2026-05-01", to: "2026-05-01" })).toBe("1º de maio de 2026");
    expect(periodHeading({ from: "2026-05-01", to: "2026-05-31" })).toBe("1º a 31 de maio de 2026");
    expect(periodHeading({ from: "2026-04-30", to: "2026-06-01" })).toBe("30 de abril a 1º de junho de 2026");
    expect(periodHeading({ from: "2025-01-01", to: "2026-12-31" })).toBe(
      "1º de janeiro de 2025 a 31 de dezembro de 2026",
    );
  });

  test("every month's Portuguese name, in lower case", () => {
    const names = Array.from({ length: 12 }, (_, month) =>
      longDate(`2026-${String(month + 1).padStart(2, "0")}-15`).replace(/^15 de | de 2026$/g, ""),
    );
    expect(names).toEqual([
      "janeiro",
      "fevereiro",
      "março",
      "abril",
      "maio",
      "junho",
      "julho",
      "agosto",
      "setembro",
      "outubro",
      "novembro",
      "dezembro",
    ]);
  });

  test("a range given the other way round reads in order", () => {
    expect(periodHeading({ from: "2026-03-15", to: "2026-03-10" })).toBe("10 a 15 de março de 2026");
  });
});

describe("properties", () => {
  const status = fc.constantFrom(null, undefined, "", "Andamento", "Completo", "Incompleto", "andamento", "Outro");

  test("the detail has one row per planned slot and per execution without one, and its state follows the board", () => {
    const slot = fc.record({
      horaIni: fc.constantFrom("08:00", "09:30", "14:00"),
      horaFim: fc.constantFrom("10:00", "16:00"),
      status,
      performed: fc.constant({ start: "2026-03-15T11:00:00Z", end: "2026-03-15T12:00:00Z" }),
    });
    fc.assert(
      fc.property(fc.array(slot, { maxLength: 10 }), fc.nat(5), (slots, extras) => {
        const rows = scheduleDetailRows(
          slots,
          Array.from({ length: extras }, () => ({ start: "2026-03-15T15:00:00Z", end: null })),
        );
        expect(rows).toHaveLength(slots.length + extras);
        expect(rows.filter((row) => row.state === "Fez a mais")).toHaveLength(extras);
        for (const row of rows.slice(0, slots.length)) {
          const expected = {
            "A iniciar": "toDo",
            "Em andamento": "inProgress",
            Completo: "done",
            Incompleto: "incomplete",
          };
          expect(row.column).toBe(expected[row.state as keyof typeof expected]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("businessTime agrees with date-fns' TZDate in America/Fortaleza", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1999, 0, 1), max: Date.UTC(2035, 0, 1) }), (ms) => {
        expect(businessTime(new Date(ms))).toBe(format(new TZDate(ms, "America/Fortaleza"), "HH:mm"));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  const day = fc
    .integer({ min: 0, max: 3000 })
    .map((offset) => formatISO(addDays(new Date(2024, 0, 1), offset), { representation: "date" }));

  test("the heading: one date in words for one day, two joined by ' a ' otherwise, ending with the last year", () => {
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const heading = periodHeading({ from, to });
        expect(heading.endsWith(` de ${to.slice(0, 4)}`)).toBe(true);
        expect(heading).toBe(periodHeading({ from: to, to: from }));
        if (from === to) expect(heading).toBe(longDate(from));
        else {
          expect(heading.split(" a ")).toHaveLength(2);
          expect(heading.endsWith(longDate(to))).toBe(true);
          // The year is written once unless the range crosses years; the month once unless it crosses months.
          expect(heading.split(" de 20")).toHaveLength(from.slice(0, 4) === to.slice(0, 4) ? 2 : 3);
          expect(heading.split(" de ")).toHaveLength(
            from.slice(0, 7) === to.slice(0, 7) ? 3 : from.slice(0, 4) === to.slice(0, 4) ? 4 : 5,
          );
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("the period asked for is always an ordered range of real days", () => {
    fc.assert(
      fc.property(fc.option(day), fc.option(day), (dataIni, dataFim) => {
        const period = boardPeriod({ dataIni, dataFim }, "2026-03-15");
        expect(period.from <= period.to).toBe(true);
        if (dataIni && dataFim) expect([period.from, period.to].sort()).toEqual([dataIni, dataFim].sort());
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
