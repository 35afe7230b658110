/**
 * The activity reports' rules (api/domain/activities.ts; spec 001 §2.12, §4 'Activity report'; issue 24 'Done when'):
 * 'Feito' / 'Pendente', the activity filter's views, the performed times (docs/activity-reports.md).
 */
import { describe, expect, test } from "vitest";

import {
  activityDone,
  activityMatches,
  activityStatus,
  performedTimes,
  type ActivityCounts,
  type ActivityFilter,
} from "../../api/domain/activities.ts";

describe("Feito / Pendente (§4: 'Feito' when its Historic is non-empty)", () => {
  test.each<[string, ActivityCounts, "Feito" | "Pendente"]>([
    ["no history: Pendente", { historico: 0, fotos: 0 }, "Pendente"],
    ["one execution: Feito", { historico: 1, fotos: 0 }, "Feito"],
    ["several executions, one with a photo: Feito", { historico: 3, fotos: 1 }, "Feito"],
    ["every execution with a photo: Feito", { historico: 2, fotos: 2 }, "Feito"],
  ])("%s", (_rule, counts, expected) => {
    expect(activityStatus(counts)).toBe(expected);
    expect(activityDone(counts)).toBe(expected === "Feito");
  });
});

describe("the activity filter's views", () => {
  const pending = { historico: 0, fotos: 0 };
  const done = { historico: 2, fotos: 0 };
  const withPhoto = { historico: 2, fotos: 1 };
  test.each<[ActivityFilter, ActivityCounts, boolean]>([
    ["todos", pending, true],
    ["todos", done, true],
    ["todos", withPhoto, true],
    ["feitas", pending, false],
    ["feitas", done, true],
    ["feitas", withPhoto, true],
    ["pendentes", pending, true],
    ["pendentes", done, false],
    ["pendentes", withPhoto, false],
    ["imagens", pending, false],
    ["imagens", done, false],
    ["imagens", withPhoto, true],
  ])("%s with %j: %s", (filter, counts, expected) => {
    expect(activityMatches(filter, counts)).toBe(expected);
  });
});

describe("the performed times", () => {
  const at = (time: string) => `2025-03-10T${time}:00.000Z`;

  test.each<[string, string | null, { id: number; createdAt: string }[], [string | null, string][]]>([
    ["none recorded: none", at("10:00"), [], []],
    ["the first starts with the slot", at("10:00"), [{ id: 1, createdAt: at("10:05") }], [[at("10:00"), at("10:05")]]],
    [
      "each later one starts when the one before was recorded",
      at("10:00"),
      [
        { id: 1, createdAt: at("10:05") },
        { id: 2, createdAt: at("10:12") },
        { id: 3, createdAt: at("10:30") },
      ],
      [
        [at("10:00"), at("10:05")],
        [at("10:05"), at("10:12")],
        [at("10:12"), at("10:30")],
      ],
    ],
    ["a slot never started: the first has no start", null, [{ id: 1, createdAt: at("10:05") }], [[null, at("10:05")]]],
    [
      "in recorded order, then by id, whatever order they come in",
      at("10:00"),
      [
        { id: 3, createdAt: at("10:20") },
        { id: 2, createdAt: at("10:10") },
        { id: 1, createdAt: at("10:10") },
      ],
      [
        [at("10:00"), at("10:10")],
        [at("10:10"), at("10:10")],
        [at("10:10"), at("10:20")],
      ],
    ],
  ])("%s", (_rule, start, executions, expected) => {
    expect(performedTimes(start, executions).map((row) => [row.inicio, row.fim])).toEqual(expected);
  });
});
