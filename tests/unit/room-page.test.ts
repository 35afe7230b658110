/**
 * The public room page's pairing rule (api/domain/room-page.ts, spec 001 §2.14, §4 'Room info page'; issue 13):
 * scheduled hours paired in order with the performed cleanings, the unpaired hours upcoming, the performed beyond
 * them labelled EXTRA, the Principal / Revisão / Extra types, the three views and 'Sem Informações'; then
 * properties with fast-check.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";

import {
  pairRoomDay,
  parseRoomView,
  ROOM_TEXTS,
  ROOM_VIEW_LABELS,
  ROOM_VIEWS,
  roomCards,
  visitTypes,
  withLateHours,
  type RoomPerformedVisit,
  type RoomScheduledSlot,
} from "../../api/domain/room-page.ts";

const NUM_RUNS = 300;

function slot(
  horaIni: string,
  horaFim: string,
  type: "Principal" | "Revisão" = "Revisão",
  employeeName = "Ana",
): RoomScheduledSlot {
  return { horaIni, horaFim, type, employeeName, photo: `${employeeName.toLowerCase()}.jpg` };
}

/** A visit on 2026-03-15 at the given Fortaleza time (UTC-3), lasting `minutes` (null: in progress). */
function visit(at: string, minutes: number | null = 30, revision = false, employeeName = "Ana"): RoomPerformedVisit {
  const startedAt = new Date(`2026-03-15T${at}:00-03:00`);
  return {
    employeeName,
    photo: null,
    startedAt,
    finishedAt: minutes === null ? null : new Date(startedAt.getTime() + minutes * 60_000),
    revision,
  };
}

const summary = (cards: ReturnType<typeof pairRoomDay>["all"]) =>
  cards.map((card) => ({
    state: card.state,
    type: card.type,
    extra: card.extra,
    scheduled: card.scheduled && `${card.scheduled.horaIni}-${card.scheduled.horaFim}`,
    performed: card.performed && `${card.performed.start}-${card.performed.end}`,
  }));

describe("pairing (spec 001 §4 'Room info page')", () => {
  const scheduled = [
    slot("08:00", "09:00", "Principal"),
    slot("11:00", "11:30"),
    slot("15:00", "15:30"),
    slot("17:00", "17:30"),
  ];

  test("scheduled hours pair in order with the performed cleanings; the hours left over are upcoming", () => {
    const day = pairRoomDay(scheduled, [visit("08:10", 40), visit("11:05", 20, true), visit("15:20", null, true)]);
    expect(summary(day.all)).toEqual([
      { state: "done", type: "Principal", extra: false, scheduled: "08:00-09:00", performed: "08:10-08:50" },
      { state: "done", type: "Revisão", extra: false, scheduled: "11:00-11:30", performed: "11:05-11:25" },
      { state: "inProgress", type: "Revisão", extra: false, scheduled: "15:00-15:30", performed: "15:20-null" },
      { state: "upcoming", type: "Revisão", extra: false, scheduled: "17:00-17:30", performed: null },
    ]);
    expect(summary(day.upcoming)).toEqual(summary(day.all.slice(3)));
    // 'Últimas Limpezas': the most recent first.
    expect(summary(day.latest)).toEqual(summary(day.all.slice(0, 3).reverse()));
  });

  test("nothing performed yet: every hour is upcoming, with its slot's type and whom it is for", () => {
    const day = pairRoomDay([slot("14:00", "14:30", "Revisão", "Bia"), slot("08:00", "09:00", "Principal", "Ana")], []);
    expect(day.latest).toEqual([]);
    expect(day.upcoming.map((card) => [card.type, card.employeeName, card.photo, card.scheduled])).toEqual([
      ["Principal", "Ana", "ana.jpg", { horaIni: "08:00", horaFim: "09:00" }],
      ["Revisão", "Bia", "bia.jpg", { horaIni: "14:00", horaFim: "14:30" }],
    ]);
    expect(day.all).toEqual(day.upcoming);
  });

  test("cleanings beyond the scheduled hours are EXTRA, without a scheduled time", () => {
    const day = pairRoomDay(
      [slot("08:00", "09:00", "Principal")],
      [visit("16:00", 15, false, "Caio"), visit("08:02", 50), visit("12:00", 10, true)],
    );
    expect(summary(day.all)).toEqual([
      { state: "done", type: "Principal", extra: false, scheduled: "08:00-09:00", performed: "08:02-08:52" },
      { state: "done", type: "Revisão", extra: true, scheduled: null, performed: "12:00-12:10" },
      { state: "done", type: "Extra", extra: true, scheduled: null, performed: "16:00-16:15" },
    ]);
    expect(day.upcoming).toEqual([]);
    expect(day.all[2].employeeName).toBe("Caio");
    expect(ROOM_TEXTS.extra).toBe("EXTRA");
  });

  test("a paired card shows who did the cleaning; inputs in any order are put in the day's order", () => {
    const day = pairRoomDay(
      [slot("14:00", "14:30", "Revisão", "Bia"), slot("08:00", "09:00", "Principal", "Ana")],
      [visit("14:10", 10, true, "Caio"), visit("08:05", 30, false, "Ana")],
    );
    expect(
      day.all.map((card) => [card.scheduled?.horaIni, card.employeeName, card.scheduledIndex, card.performedIndex]),
    ).toEqual([
      ["08:00", "Ana", 1, 1],
      ["14:00", "Caio", 0, 0],
    ]);
  });

  test("times as a time column answers them ('HH:mm:ss') and instants as ISO strings", () => {
    const day = pairRoomDay(
      [{ horaIni: "08:00:00", horaFim: "09:00:00", type: "Principal", employeeName: "Ana", photo: null }],
      [
        {
          employeeName: "Ana",
          photo: null,
          startedAt: "2026-03-15T11:07:00.000Z",
          finishedAt: "2026-03-15T11:55:00Z",
          revision: false,
        },
      ],
    );
    expect(day.all[0].scheduled).toEqual({ horaIni: "08:00", horaFim: "09:00" });
    expect(day.all[0].performed).toEqual({ start: "08:07", end: "08:55" });
  });

  test("an empty day has no cards at all", () => {
    expect(pairRoomDay([], [])).toEqual({ latest: [], upcoming: [], all: [] });
  });
});

describe("cleaning types (spec 001 §4: Revisão when a revision exists, Principal for the first, Extra for the others)", () => {
  test.each<[(boolean | "corrective")[], string[]]>([
    [[false], ["Principal"]],
    [
      ["corrective", false],
      ["Extra", "Principal"],
    ],
    [
      [false, false, false],
      ["Principal", "Extra", "Extra"],
    ],
    [
      [false, true, true],
      ["Principal", "Revisão", "Revisão"],
    ],
    [
      [true, false, false, true],
      ["Revisão", "Principal", "Extra", "Revisão"],
    ],
    [
      [true, true],
      ["Revisão", "Revisão"],
    ],
    [[], []],
  ])("%j → %j", (revisions, types) => {
    expect(visitTypes(revisions)).toEqual(types);
  });

  test("types follow the order the visits started, not the input order", () => {
    const day = pairRoomDay([], [visit("10:00"), visit("07:00", 10, true), visit("08:00")]);
    expect(day.all.map((card) => [card.performed?.start, card.type])).toEqual([
      ["07:00", "Revisão"],
      ["08:00", "Principal"],
      ["10:00", "Extra"],
    ]);
  });
});

describe("the three buttons and 'Sem Informações' (spec 001 §2.14)", () => {
  test("labels in the order drawn", () => {
    expect(ROOM_VIEWS.map((view) => ROOM_VIEW_LABELS[view])).toEqual([
      "Últimas Limpezas",
      "Próximas Limpezas",
      "Todas Limpezas",
    ]);
    expect(ROOM_TEXTS.empty).toBe("Sem Informações");
  });

  test("the query value chooses the view; anything else is 'todas'", () => {
    expect(parseRoomView("ultimas")).toBe("ultimas");
    expect(parseRoomView(" PROXIMAS ")).toBe("proximas");
    expect(parseRoomView("todas")).toBe("todas");
    expect(parseRoomView(null)).toBe("todas");
    expect(parseRoomView("outra")).toBe("todas");
  });

  test("each view's cards; an empty one is what the page shows as 'Sem Informações'", () => {
    const day = pairRoomDay([slot("08:00", "09:00", "Principal"), slot("12:00", "12:30")], [visit("08:05")]);
    expect(roomCards(day, "ultimas")).toBe(day.latest);
    expect(roomCards(day, "proximas")).toBe(day.upcoming);
    expect(roomCards(day, "todas")).toBe(day.all);
    expect(roomCards(day, "ultimas")).toHaveLength(1);
    expect(roomCards(day, "proximas")).toHaveLength(1);
    const done = pairRoomDay([slot("08:00", "09:00", "Principal")], [visit("08:05")]);
    expect(roomCards(done, "proximas")).toEqual([]);
  });
});

describe("properties", () => {
  const time = fc
    .tuple(fc.integer({ min: 0, max: 22 }), fc.integer({ min: 0, max: 59 }))
    .map(([hours, minutes]) => `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`);
  const scheduledSlot = fc.record({
    horaIni: time,
    horaFim: fc.constant("23:59"),
    type: fc.constantFrom("Principal" as const, "Revisão" as const),
    employeeName: fc.constantFrom("Ana", "Bia", "Caio"),
    photo: fc.constant(null),
  });
  const performedVisit = fc.record({
    employeeName: fc.constantFrom("Ana", "Bia", "Caio"),
    photo: fc.constant(null),
    startedAt: fc
      .integer({ min: 0, max: 86_399 })
      .map((seconds) => new Date(Date.UTC(2026, 2, 15, 3) + seconds * 1000)),
    finishedAt: fc.constant(null),
    revision: fc.boolean(),
  });
  const inputs = fc.tuple(fc.array(scheduledSlot, { maxLength: 12 }), fc.array(performedVisit, { maxLength: 12 }));

  test("no scheduled hour or performed cleaning is lost or shown twice", () => {
    fc.assert(
      fc.property(inputs, ([scheduled, performed]) => {
        const { all } = pairRoomDay(scheduled, performed);
        const indexes = (key: "scheduledIndex" | "performedIndex") =>
          all
            .map((card) => card[key])
            .filter((index) => index !== null)
            .sort((a, b) => a - b);
        expect(indexes("scheduledIndex")).toEqual(scheduled.map((_, index) => index));
        expect(indexes("performedIndex")).toEqual(performed.map((_, index) => index));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("min(scheduled, performed) pairs; the rest is upcoming or EXTRA, never both", () => {
    fc.assert(
      fc.property(inputs, ([scheduled, performed]) => {
        const day = pairRoomDay(scheduled, performed);
        const paired = day.all.filter((card) => card.scheduledIndex !== null && card.performedIndex !== null);
        const extra = day.all.filter((card) => card.extra);
        expect(paired).toHaveLength(Math.min(scheduled.length, performed.length));
        expect(day.upcoming).toHaveLength(Math.max(0, scheduled.length - performed.length));
        expect(extra).toHaveLength(Math.max(0, performed.length - scheduled.length));
        expect(day.upcoming.length === 0 || extra.length === 0).toBe(true);
        expect(day.all).toHaveLength(Math.max(scheduled.length, performed.length));
        // 'Últimas' and 'Próximas' split 'Todas'.
        expect(day.latest.length + day.upcoming.length).toBe(day.all.length);
        for (const card of extra) expect(card.scheduled).toBeNull();
        for (const card of day.upcoming) expect(card.performed).toBeNull();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("pairs are in order: the k-th scheduled hour with the k-th cleaning to start", () => {
    fc.assert(
      fc.property(inputs, ([scheduled, performed]) => {
        const { all, latest } = pairRoomDay(scheduled, performed);
        const starts = all.map((card) => card.scheduled?.horaIni).filter((value) => value !== undefined);
        expect(starts).toEqual([...starts].sort());
        const done = all.filter((card) => card.performedIndex !== null);
        const instants = done.map((card) => performed[card.performedIndex!].startedAt.getTime());
        expect(instants).toEqual([...instants].sort((a, b) => a - b));
        expect(latest).toEqual([...done].reverse());
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test("one Principal at most among the cleanings, a Revisão for each revision, Extra for the others", () => {
    fc.assert(
      fc.property(inputs, ([scheduled, performed]) => {
        const done = pairRoomDay(scheduled, performed).latest;
        const count = (type: string) => done.filter((card) => card.type === type).length;
        const revisions = performed.filter((entry) => entry.revision).length;
        const mains = performed.length - revisions;
        expect(count("Revisão")).toBe(revisions);
        expect(count("Principal")).toBe(Math.min(1, mains));
        expect(count("Extra")).toBe(Math.max(0, mains - 1));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("late hours (issue 27: not listed as next once their time has passed)", () => {
  const slot = (horaIni: string, horaFim: string): RoomScheduledSlot => ({
    horaIni,
    horaFim,
    type: "Revisão",
    employeeName: "Sebastião ASG",
    photo: null,
  });
  const day = pairRoomDay(
    [slot("08:00", "09:00"), slot("10:00", "10:30"), slot("16:00", "16:30")],
    [
      {
        employeeName: "Sebastião ASG",
        photo: null,
        startedAt: "2026-03-10T11:05:00Z",
        finishedAt: "2026-03-10T11:50:00Z",
        revision: false,
      },
    ],
  );

  test("an upcoming hour of today whose end has passed is late; the hour under way and the later ones are not", () => {
    const late = (now: string, date = "2026-03-10") =>
      withLateHours(day.all, { date, today: "2026-03-10", now }).map((card) => [card.scheduled?.horaIni, card.late]);
    expect(late("10:31")).toEqual([
      ["08:00", false], // done
      ["10:00", true],
      ["16:00", false],
    ]);
    expect(late("10:30")).toEqual([
      ["08:00", false],
      ["10:00", false], // its last minute
      ["16:00", false],
    ]);
    expect(late("23:59", "2026-03-09").every(([, isLate]) => isLate === false)).toBe(true); // another day's page
  });
});
