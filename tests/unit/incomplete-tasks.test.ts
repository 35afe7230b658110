/** The incomplete tasks' rules (spec 001 §2.11, §2.15, §5; docs/incomplete-tasks.md): the period and the filter. */
import { describe, expect, test } from "vitest";

import { incompleteFilter, incompletePeriod } from "../../api/domain/incomplete-tasks.ts";

const TODAY = "2026-11-26";
const REFUSED = { ok: false, title: "Filtro inválido", message: "Intervalo de datas inválidos, favor verificar" };
const MONTH = { ok: true, period: { from: "2026-11-01", to: TODAY }, cut: false };

describe("incompletePeriod (§5 'Incomplete tasks')", () => {
  test.each([
    ["no dates: the first of the month to today", {}, MONTH],
    ["one date only", { inicio: "2026-11-10" }, MONTH],
    ["a date shorter than 10 characters", { inicio: "2026-1-10", fim: "2026-11-20" }, MONTH],
    ["a date starting with 0", { inicio: "0026-11-10", fim: "2026-11-20" }, MONTH],
    ["blank dates", { inicio: " ", fim: "" }, MONTH],
    [
      "two usable dates",
      { inicio: "2026-10-05", fim: "2026-11-20" },
      { ok: true, period: { from: "2026-10-05", to: "2026-11-20" }, cut: false },
    ],
    ["a date after today", { inicio: "2026-11-01", fim: "2026-11-27" }, REFUSED],
    ["the end before the start", { inicio: "2026-11-20", fim: "2026-11-01" }, REFUSED],
    ["10 characters that are not a date", { inicio: "2026-13-40", fim: "2026-11-20" }, REFUSED],
    [
      "longer than a year: cut to a year",
      { inicio: "2024-01-01", fim: "2026-11-20" },
      { ok: true, period: { from: "2024-01-01", to: "2024-12-31" }, cut: true },
    ],
  ])("%s", (_, query, expected) => {
    expect(incompletePeriod(query, TODAY)).toEqual(expected);
  });

  test("on the first of the month the default period is that one day", () => {
    expect(incompletePeriod({}, "2026-12-01")).toEqual({
      ok: true,
      period: { from: "2026-12-01", to: "2026-12-01" },
      cut: false,
    });
  });
});

describe("incompleteFilter (§2.15: single-select, 'Tarefa' by default)", () => {
  test.each([
    [null, "tarefa"],
    ["", "tarefa"],
    ["colaborador", "colaborador"],
    ["ambiente", "ambiente"],
    ["tarefa", "tarefa"],
    ["datas", "datas"],
    ["cpf", "tarefa"],
  ])("%s → %s", (value, expected) => {
    expect(incompleteFilter(value)).toBe(expected);
  });
});
