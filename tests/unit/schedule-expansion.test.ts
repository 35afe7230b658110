/**
 * Expanding an agenda into bookings (api/domain/schedule-expansion.ts, spec 001 §2.2, §2.3, §5, §9): examples for
 * each periodicity and its edges, then properties checked with fast-check against a day-by-day oracle written with
 * other date-fns functions (differenceInCalendarWeeks, not the implementation's day offsets).
 */
import {
  addDays,
  differenceInCalendarDays,
  differenceInCalendarWeeks,
  getDate,
  getDay,
  getDaysInMonth,
  getMonth,
  parseISO,
} from "date-fns";
import fc from "fast-check";
import { describe, expect, test } from "vitest";

import {
  bookingSlots,
  businessToday,
  clampAnnualDate,
  dateNumber,
  expandAgenda,
  formatAnnualDate,
  formatWeekdays,
  isoDay,
  minutesOf,
  parseAnnualDate,
  parseBusinessDate,
  parseTime,
  parseWeekdays,
  sortAnnualDates,
  sortDaysOfMonth,
  type AgendaItem,
  type AnnualDate,
  type Periodicity,
  type TimeSlot,
  type Weekday,
} from "../../api/domain/schedule-expansion.ts";

const NUM_RUNS = 200;
const main: TimeSlot = { horaIni: "08:00", horaFim: "09:00" };
const revisions: TimeSlot[] = [
  { horaIni: "11:00", horaFim: "11:30" },
  { horaIni: "15:00", horaFim: "15:30" },
];

function item(periodicity: Periodicity, vigIni: string, vigFim: string, slots = { main, revisions }): AgendaItem {
  return { periodicity, ...slots, vigIni, vigFim, revisionPhotos: false };
}
const datesOf = (agenda: AgendaItem, from = agenda.vigIni, to = agenda.vigFim) =>
  expandAgenda(agenda, { from, to }).map((booking) => booking.dataAgend);

describe("Semanal: the chosen weekdays", () => {
  // 2026-03-02 is a Monday.
  const agenda = item({ kind: "Semanal", weekdays: [1, 3, 5] }, "2026-03-02", "2026-03-15");

  test("every Monday, Wednesday and Friday of the validity, in date order", () => {
    expect(datesOf(agenda)).toEqual([
      "2026-03-02",
      "2026-03-04",
      "2026-03-06",
      "2026-03-09",
      "2026-03-11",
      "2026-03-13",
    ]);
  });

  test("a range is intersected with the validity", () => {
    expect(datesOf(agenda, "2026-02-01", "2026-03-04")).toEqual(["2026-03-02", "2026-03-04"]);
    expect(datesOf(agenda, "2026-03-12", "2026-12-31")).toEqual(["2026-03-13"]);
    expect(datesOf(agenda, "2026-03-16", "2026-03-31")).toEqual([]);
    expect(datesOf(agenda, "2026-03-10", "2026-03-09")).toEqual([]);
  });

  test("each booking carries the main slot and its revision slots", () => {
    const [first] = expandAgenda(agenda, { from: "2026-03-02", to: "2026-03-02" });
    expect(first).toEqual({ dataAgend: "2026-03-02", main, revisions });
    expect(bookingSlots(first)).toEqual([
      { dataAgend: "2026-03-02", slot: 0, type: "Principal", horaIni: "08:00", horaFim: "09:00" },
      { dataAgend: "2026-03-02", slot: 1, type: "Revisão", horaIni: "11:00", horaFim: "11:30" },
      { dataAgend: "2026-03-02", slot: 2, type: "Revisão", horaIni: "15:00", horaFim: "15:30" },
    ]);
  });

  test("no weekday, no booking", () => {
    expect(datesOf(item({ kind: "Semanal", weekdays: [] }, "2026-03-02", "2026-04-30"))).toEqual([]);
  });
});

describe("12X: every other day from the validity start", () => {
  const agenda = item({ kind: "12X" }, "2026-03-03", "2026-03-12");

  test("the start, then every second day", () => {
    expect(datesOf(agenda)).toEqual(["2026-03-03", "2026-03-05", "2026-03-07", "2026-03-09", "2026-03-11"]);
  });

  test("the parity is the validity's, not the range's", () => {
    expect(datesOf(agenda, "2026-03-04", "2026-03-08")).toEqual(["2026-03-05", "2026-03-07"]);
  });

  test("across a month end and February", () => {
    expect(datesOf(item({ kind: "12X" }, "2028-02-27", "2028-03-04"))).toEqual([
      "2028-02-27",
      "2028-02-29",
      "2028-03-02",
      "2028-03-04",
    ]);
  });
});

describe("Semana Alternada: two weekday sets on alternating weeks", () => {
  // 2026-03-04 is a Wednesday; its week runs Sunday 2026-03-01 to Saturday 2026-03-07.
  const agenda = item({ kind: "Semana Alternada", weekdays: [1, 4], weekdays2: [2] }, "2026-03-04", "2026-03-31");

  test("the first set in the validity start's week, the second in the next, and so on", () => {
    expect(datesOf(agenda)).toEqual([
      // week 0: Monday 03-02 is before the validity, Thursday 03-05 is in it
      "2026-03-05",
      // week 1: Tuesday
      "2026-03-10",
      // week 2: Monday and Thursday
      "2026-03-16",
      "2026-03-19",
      // week 3: Tuesday
      "2026-03-24",
      // week 4: Monday (Thursday 04-02 is after the validity)
      "2026-03-30",
    ]);
  });

  test("a week starts on Sunday", () => {
    const sundays = item({ kind: "Semana Alternada", weekdays: [0], weekdays2: [6] }, "2026-03-01", "2026-03-22");
    expect(datesOf(sundays)).toEqual(["2026-03-01", "2026-03-14", "2026-03-15"]);
  });
});

describe("Mensal: days of month, a missing day skipped", () => {
  test("15 and 31 from January to April 2026", () => {
    const agenda = item({ kind: "Mensal", daysOfMonth: [31, 15] }, "2026-01-01", "2026-04-30");
    expect(datesOf(agenda)).toEqual([
      "2026-01-15",
      "2026-01-31",
      "2026-02-15",
      "2026-03-15",
      "2026-03-31",
      "2026-04-15",
    ]);
  });

  test("29 in February only in a leap year", () => {
    const agenda = item({ kind: "Mensal", daysOfMonth: [29] }, "2027-02-01", "2028-03-01");
    expect(datesOf(agenda).filter((date) => date.slice(5, 7) === "02")).toEqual(["2028-02-29"]);
  });
});

describe("Anual: day and month every year, clamped", () => {
  test("29/02 falls on 28/02, in leap years too", () => {
    const agenda = item({ kind: "Anual", dates: [{ day: 29, month: 2 }] }, "2027-01-01", "2028-12-31");
    expect(datesOf(agenda)).toEqual(["2027-02-28", "2028-02-28"]);
  });

  test("several dates in date order; 31/04 and 31/11 become the 30th, 31/10 stays", () => {
    const agenda = item(
      {
        kind: "Anual",
        dates: [
          { day: 31, month: 11 },
          { day: 31, month: 10 },
          { day: 31, month: 4 },
          { day: 1, month: 1 },
        ],
      },
      "2026-01-01",
      "2026-12-31",
    );
    expect(datesOf(agenda)).toEqual(["2026-01-01", "2026-04-30", "2026-10-31", "2026-11-30"]);
  });

  test("the clamp", () => {
    expect(clampAnnualDate({ day: 29, month: 2 })).toEqual({ day: 28, month: 2 });
    expect(clampAnnualDate({ day: 31, month: 6 })).toEqual({ day: 30, month: 6 });
    expect(clampAnnualDate({ day: 31, month: 9 })).toEqual({ day: 30, month: 9 });
    expect(clampAnnualDate({ day: 31, month: 10 })).toEqual({ day: 31, month: 10 });
    expect(clampAnnualDate({ day: 31, month: 12 })).toEqual({ day: 31, month: 12 });
    expect(clampAnnualDate({ day: 15, month: 2 })).toEqual({ day: 15, month: 2 });
  });

  test("lists sorted by month and day, each once after the clamp", () => {
    expect(
      sortAnnualDates([
        { day: 30, month: 2 },
        { day: 28, month: 2 },
        { day: 5, month: 1 },
        { day: 0, month: 1 },
        { day: 1, month: 13 },
      ]),
    ).toEqual([
      { day: 5, month: 1 },
      { day: 28, month: 2 },
    ]);
    expect(formatAnnualDate({ day: 5, month: 1 })).toBe("05/01");
    expect(parseAnnualDate("5/1")).toEqual({ day: 5, month: 1 });
    expect(parseAnnualDate("32/01")).toBeNull();
    expect(parseAnnualDate("10/13")).toBeNull();
  });
});

describe("weekdays, days, dates and times as they travel", () => {
  test("DIAS_SEMANA: names joined by ' - ', read loosely, written Domingo first", () => {
    expect(formatWeekdays([5, 1, 3, 1])).toBe("Segunda - Quarta - Sexta");
    expect(formatWeekdays([0, 6])).toBe("Domingo - Sábado");
    expect(parseWeekdays("Segunda - Quarta - Sexta")).toEqual([1, 3, 5]);
    expect(parseWeekdays("sábado - DOMINGO - Terca-feira")).toEqual([0, 2, 6]);
    expect(parseWeekdays("1,2,3,4,5")).toEqual([1, 2, 3, 4, 5]);
    expect(parseWeekdays("")).toEqual([]);
    expect(parseWeekdays("Segunda - Feriado")).toBeNull();
    expect(parseWeekdays("7")).toBeNull();
  });

  test("days of month sorted, each once, 1 to 31", () => {
    expect(sortDaysOfMonth([31, 1, 15, 1, 0, 32])).toEqual([1, 15, 31]);
  });

  test("times as 'HH:mm'", () => {
    expect(parseTime("8:05")).toBe("08:05");
    expect(parseTime("08:05:00")).toBe("08:05");
    expect(parseTime("23:59")).toBe("23:59");
    expect(parseTime("24:00")).toBeNull();
    expect(parseTime("08:60")).toBeNull();
    expect(parseTime("8h")).toBeNull();
    expect(minutesOf("08:30")).toBe(510);
  });

  test("business dates: yyyy-MM-dd, dd/MM/yyyy, an instant read in Fortaleza; real days only", () => {
    expect(parseBusinessDate("2026-03-01")).toBe("2026-03-01");
    expect(parseBusinessDate("01/03/2026")).toBe("2026-03-01");
    expect(parseBusinessDate("2026-03-01T02:00:00.000Z")).toBe("2026-02-28");
    expect(parseBusinessDate("2026-03-01T03:00:00Z")).toBe("2026-03-01");
    expect(parseBusinessDate("2026-03-01T00:00:00-03:00")).toBe("2026-03-01");
    expect(parseBusinessDate("2026-02-29")).toBeNull();
    expect(parseBusinessDate("31/04/2026")).toBeNull();
    expect(parseBusinessDate("2026-3-1")).toBeNull();
    expect(parseBusinessDate("amanhã")).toBeNull();
    expect(dateNumber("2026-03-01")).toBe(20260301);
  });

  test("today is today in America/Fortaleza (UTC-3)", () => {
    expect(businessToday(new Date("2026-03-01T02:59:00Z"))).toBe("2026-02-28");
    expect(businessToday(new Date("2026-03-01T03:00:00Z"))).toBe("2026-03-01");
    expect(businessToday(new Date("2026-12-31T23:00:00Z"))).toBe("2026-12-31");
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Properties

const EPOCH = parseISO("2020-01-01");
const dateAt = (offset: number) => isoDay(addDays(EPOCH, offset));
const offsetOf = (date: string) => differenceInCalendarDays(parseISO(date), EPOCH);

const weekdaySet = fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }) as fc.Arbitrary<
  Weekday[]
>;
const periodicityArb: fc.Arbitrary<Periodicity> = fc.oneof(
  weekdaySet.map((weekdays) => ({ kind: "Semanal" as const, weekdays })),
  fc.constant({ kind: "12X" as const }),
  fc
    .tuple(weekdaySet, weekdaySet)
    .map(([weekdays, weekdays2]) => ({ kind: "Semana Alternada" as const, weekdays, weekdays2 })),
  fc
    .uniqueArray(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 31 })
    .map((days) => ({ kind: "Mensal" as const, daysOfMonth: sortDaysOfMonth(days) })),
  fc
    .array(fc.record({ day: fc.integer({ min: 1, max: 31 }), month: fc.integer({ min: 1, max: 12 }) }), {
      minLength: 1,
      maxLength: 6,
    })
    .map((dates) => ({ kind: "Anual" as const, dates: sortAnnualDates(dates) })),
);

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
/** 1 to 20 slots in the day's order, none overlapping: 2n distinct minutes, sorted, taken in pairs. */
const slotsArb = fc
  .integer({ min: 1, max: 20 })
  .chain((count) => fc.uniqueArray(fc.integer({ min: 0, max: 1439 }), { minLength: 2 * count, maxLength: 2 * count }))
  .map((minutes) => {
    const sorted = [...minutes].sort((a, b) => a - b);
    const slots: TimeSlot[] = [];
    for (let index = 0; index < sorted.length; index += 2)
      slots.push({ horaIni: hhmm(sorted[index]), horaFim: hhmm(sorted[index + 1]) });
    return { main: slots[0], revisions: slots.slice(1) };
  });

/** An agenda of up to ~14 months from 2020 to 2031 and a range around it (before, across, inside or after it). */
const caseArb = fc
  .record({
    periodicity: periodicityArb,
    slots: slotsArb,
    start: fc.integer({ min: 0, max: 4000 }),
    length: fc.integer({ min: 0, max: 420 }),
    rangeStart: fc.integer({ min: -90, max: 520 }),
    rangeLength: fc.integer({ min: 0, max: 500 }),
  })
  .map(({ periodicity, slots, start, length, rangeStart, rangeLength }) => ({
    agenda: item(periodicity, dateAt(start), dateAt(start + length), slots),
    range: { from: dateAt(start + rangeStart), to: dateAt(start + rangeStart + rangeLength) },
  }));

/** The oracle: whether `date` is a day of the agenda, asked of one day at a time. */
function isAgendaDay(agenda: AgendaItem, date: string): boolean {
  const day = parseISO(date);
  const vigIni = parseISO(agenda.vigIni);
  const periodicity = agenda.periodicity;
  switch (periodicity.kind) {
    case "Semanal":
      return periodicity.weekdays.includes(getDay(day) as Weekday);
    case "12X":
      return differenceInCalendarDays(day, vigIni) % 2 === 0;
    case "Semana Alternada": {
      const week = differenceInCalendarWeeks(day, vigIni, { weekStartsOn: 0 });
      return (week % 2 === 0 ? periodicity.weekdays : periodicity.weekdays2).includes(getDay(day) as Weekday);
    }
    case "Mensal":
      return periodicity.daysOfMonth.includes(getDate(day));
    case "Anual":
      return periodicity.dates.some(
        (date: AnnualDate) => date.month === getMonth(day) + 1 && clampAnnualDate(date).day === getDate(day),
      );
  }
}

describe("properties of the expansion", () => {
  test("no booking outside the validity or the range; dates ascending, each once", () => {
    fc.assert(
      fc.property(caseArb, ({ agenda, range }) => {
        const dates = expandAgenda(agenda, range).map((booking) => booking.dataAgend);
        const inside = (date: string) =>
          date >= agenda.vigIni && date <= agenda.vigFim && date >= range.from && date <= range.to;
        expect(dates.filter((date) => !inside(date))).toEqual([]);
        expect(dates).toEqual([...new Set(dates)].sort());
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("the bookings are exactly the days the periodicity names (none on a wrong day, none missing)", () => {
    fc.assert(
      fc.property(caseArb, ({ agenda, range }) => {
        const from = range.from > agenda.vigIni ? range.from : agenda.vigIni;
        const to = range.to < agenda.vigFim ? range.to : agenda.vigFim;
        const expected: string[] = [];
        for (let offset = offsetOf(from); offset <= offsetOf(to); offset++)
          if (isAgendaDay(agenda, dateAt(offset))) expected.push(dateAt(offset));
        expect(expandAgenda(agenda, range).map((booking) => booking.dataAgend)).toEqual(expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("a range's expansion is the expansions of its two halves, one after the other", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 500 }), ({ agenda, range }, cut) => {
        const split = Math.min(offsetOf(range.from) + cut, offsetOf(range.to));
        const first = expandAgenda(agenda, { from: range.from, to: dateAt(split) });
        const second = expandAgenda(agenda, { from: dateAt(split + 1), to: range.to });
        expect([...first, ...second]).toEqual(expandAgenda(agenda, range));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("every booking holds the item's slots: the main one first, the revisions after it, ascending", () => {
    const ascending = (slots: ReturnType<typeof bookingSlots>) =>
      slots.every(
        (slot, index) =>
          minutesOf(slot.horaIni) < minutesOf(slot.horaFim) &&
          slot.slot === index &&
          slot.type === (index === 0 ? "Principal" : "Revisão") &&
          (index === 0 ||
            (minutesOf(slot.horaIni) >= minutesOf(slots[index - 1].horaFim) &&
              minutesOf(slot.horaIni) > minutesOf(slots[0].horaIni))),
      );
    fc.assert(
      fc.property(caseArb, ({ agenda, range }) => {
        const expected = JSON.stringify([agenda.main, ...agenda.revisions]);
        return expandAgenda(agenda, range).every((booking) => {
          const slots = bookingSlots(booking);
          const times = JSON.stringify(slots.map(({ horaIni, horaFim }) => ({ horaIni, horaFim })));
          return times === expected && ascending(slots) && slots.every((slot) => slot.dataAgend === booking.dataAgend);
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("Semanal: k weekdays over n full weeks give k × n bookings", () => {
    fc.assert(
      fc.property(
        weekdaySet,
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 53 }),
        fc.integer({ min: 0, max: 6 }),
        (weekdays, start, weeks, shift) => {
          // Any 7n consecutive days of the validity hold each weekday n times, whatever day they start on.
          const agenda = item({ kind: "Semanal", weekdays }, dateAt(start), dateAt(start + 7 * weeks + 6));
          const range = { from: dateAt(start + shift), to: dateAt(start + shift + 7 * weeks - 1) };
          expect(expandAgenda(agenda, range)).toHaveLength(weekdays.length * weeks);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  test("12X: d days from the validity start give ceil(d / 2) bookings", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 1, max: 400 }), (start, days) => {
        const agenda = item({ kind: "12X" }, dateAt(start), dateAt(start + days - 1));
        expect(expandAgenda(agenda, { from: agenda.vigIni, to: agenda.vigFim })).toHaveLength(Math.ceil(days / 2));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("Semana Alternada: 2n full weeks from the validity's Sunday give n × (k1 + k2) bookings", () => {
    fc.assert(
      fc.property(
        weekdaySet,
        weekdaySet,
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 1, max: 26 }),
        (weekdays, weekdays2, week, pairs) => {
          // 2020-01-05 is a Sunday.
          const start = 4 + 7 * week;
          const agenda = item(
            { kind: "Semana Alternada", weekdays, weekdays2 },
            dateAt(start),
            dateAt(start + 14 * pairs - 1),
          );
          expect(expandAgenda(agenda, { from: agenda.vigIni, to: agenda.vigFim })).toHaveLength(
            pairs * (weekdays.length + weekdays2.length),
          );
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  test("Mensal: a full month gives one booking per chosen day the month has", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 31 }),
        fc.integer({ min: 2020, max: 2031 }),
        fc.integer({ min: 1, max: 12 }),
        (days, year, month) => {
          const first = `${year}-${String(month).padStart(2, "0")}-01`;
          const length = getDaysInMonth(parseISO(first));
          const agenda = item({ kind: "Mensal", daysOfMonth: days }, first, `${first.slice(0, 8)}${length}`);
          expect(expandAgenda(agenda, { from: first, to: agenda.vigFim })).toHaveLength(
            days.filter((day) => day <= length).length,
          );
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  test("Anual: a full year gives one booking per distinct clamped date", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ day: fc.integer({ min: 1, max: 31 }), month: fc.integer({ min: 1, max: 12 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 2020, max: 2031 }),
        (dates, year) => {
          const agenda = item({ kind: "Anual", dates }, `${year}-01-01`, `${year}-12-31`);
          const distinct = new Set(dates.map((date) => formatAnnualDate(clampAnnualDate(date))));
          expect(expandAgenda(agenda, { from: agenda.vigIni, to: agenda.vigFim })).toHaveLength(distinct.size);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
