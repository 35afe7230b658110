/**
 * The audit dashboard's rules (api/domain/audit.ts; docs/audit-dashboard.md), table-driven: the §9 plural, the usage
 * percentage with two decimals, hours, each board's limit (top 10, top 8, branches), the inspections' weekly mean
 * score (one decimal, the period's mean exact), the empty chart, the enabled boards in order, the period checks.
 */
import { describe, expect, test } from "vitest";

import {
  AUDIT_BOARDS,
  AUDIT_TEXTS,
  CHARTS,
  OPT_IN_BOARDS,
  PALETTE,
  STATUS_COLOURS,
  activities,
  auditCharts,
  auditPeriodError,
  hours,
  meanScore,
  minutes,
  percentage,
  valueText,
  weekLabel,
  type AuditAggregates,
} from "../../api/domain/audit.ts";

const people = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, nome: `Pessoa ${index + 1}`, count: count - index }));

describe("numbers as the dashboard writes them", () => {
  test.each([
    [0, "0 atividades"],
    [1, "1 atividade"],
    [3, "3 atividades"],
    [1234, "1.234 atividades"],
  ])("activities(%i) = %s", (count, text) => expect(activities(count)).toBe(text));

  test.each([
    [1, 3, 33.33],
    [2, 3, 66.67],
    [1, 8, 12.5],
    [5, 5, 100],
    [0, 0, 0],
    [1, 0, 0],
  ])("percentage(%i, %i) = %f (two decimals)", (part, whole, value) => expect(percentage(part, whole)).toBe(value));

  test.each([
    [0, 0],
    [1_800_000, 0.5],
    [5_400_000, 1.5],
    [86_400_000, 24],
    [60_000, 0],
    [200_000, 0.1],
  ])("hours(%i ms) = %f", (ms, value) => expect(hours(ms)).toBe(value));

  test.each([
    [0, 0],
    [60_000, 1],
    [1_230_000, 20.5],
    [86_400_000, 1440],
  ])("minutes(%i ms) = %f", (ms, value) => expect(minutes(ms)).toBe(value));

  test.each([
    ["atividades", 2, "2 atividades"],
    ["horas", 1.5, "1,5 h"],
    ["minutos", 20.5, "20,5 min"],
    ["%", 12.5, "12,50%"],
    ["nota", 87.5, "87,5%"],
    ["nota", 100, "100,0%"],
    ["nota", 0, "0,0%"],
  ] as const)("valueText(%s, %f) = %s", (unit, value, text) => expect(valueText(unit, value)).toBe(text));

  test.each([
    [0, 0, 0],
    [170, 2, 85],
    // 84.95 is 85.0: half up, in integer tenths (floating point would say 84.9).
    [169.9, 2, 85],
    [240.1, 3, 80],
    [320.2, 4, 80.1],
    [0.1, 2, 0.1],
  ])("meanScore(%f, %i) = %f (one decimal, half up)", (sum, count, mean) => expect(meanScore(sum, count)).toBe(mean));
});

describe("each board's chart", () => {
  test.each([
    [2, 11, 10],
    [2, 3, 3],
    [4, 12, 10],
    [5, 10, 10],
    [7, 15, 10],
    [8, 11, 10],
  ] as const)("board %i of %i groups shows %i (§9 top 10)", (board, count, shown) => {
    const rows = people(count).map((row) => ({
      ...row,
      ms: row.count * 60_000,
      scheduled: row.count,
      started: 1,
      done: row.count,
      notDone: 1,
    }));
    const chart = (CHARTS[board] as (rows: unknown) => ReturnType<(typeof CHARTS)[1]>)(rows);
    expect(chart.labels).toHaveLength(shown);
    expect(chart.labels[0]).toBe("Pessoa 1");
  });

  test("rooms of two branches with one name are told apart by the branch", () => {
    const chart = CHARTS[4]([
      { id: 1, nome: "UTI adulto", filial: "Filial Aldeota", ms: 7_200_000 },
      { id: 2, nome: "UTI adulto", filial: "Filial Messejana", ms: 3_600_000 },
      { id: 3, nome: "Recepção", filial: "Filial Aldeota", ms: 1_800_000 },
    ]);
    expect(chart.labels).toEqual(["UTI adulto · Filial Aldeota", "UTI adulto · Filial Messejana", "Recepção"]);
  });

  test("Tempo Previsto x Realizado: top 8, planned and actual in hours, two series", () => {
    const rows = people(9).map((row) => ({
      ...row,
      filial: "Filial Aldeota",
      plannedMs: row.count * 3_600_000,
      actualMs: row.count * 1_800_000,
    }));
    const chart = CHARTS[6](rows);
    expect(chart.labels).toHaveLength(8);
    expect(chart.datasets.map((set) => set.label)).toEqual(["Previsto", "Realizado"]);
    expect(chart.datasets[0].data[0]).toBe(9);
    expect(chart.datasets[1].data[0]).toBe(4.5);
    expect(chart).toMatchObject({ type: "bar", stacked: false, unit: "horas" });
  });

  test("Ambientes: the statuses in a fixed order with their own colours; a zero is left out", () => {
    const chart = CHARTS[1]([
      { status: "Não Realizado", count: 2 },
      { status: "Completo", count: 5 },
      { status: "A iniciar", count: 0 },
    ]);
    expect(chart.labels).toEqual(["Completo", "Não Realizado"]);
    expect(chart.datasets[0].colours).toEqual([STATUS_COLOURS.Completo, STATUS_COLOURS["Não Realizado"]]);
    expect(chart.summary).toBe("7 atividades no período: Completo 5, Não Realizado 2.");
  });

  test("Atividades em aberto por CNPJ: stacked, one series per open status", () => {
    const counts = { "Em andamento": 1, Incompleto: 2, "A iniciar": 0, "Não Realizado": 4 };
    const chart = CHARTS[3]([{ id: 1, nome: "Filial Aldeota", cnpj: "11222333000181", counts }]);
    expect(chart).toMatchObject({ type: "bar", stacked: true, labels: ["Filial Aldeota"] });
    expect(chart.datasets.map((set) => [set.label, set.data[0]])).toEqual([
      ["Em andamento", 1],
      ["Incompleto", 2],
      ["A iniciar", 0],
      ["Não Realizado", 4],
    ]);
    expect(chart.summary).toBe("7 atividades em aberto em 1 filial.");
  });

  test("a 0 is shown, not 'Sem dados': a collaborator who used the app for none of their slots", () => {
    const chart = CHARTS[7]([{ id: 1, nome: "Ana", scheduled: 4, started: 0 }]);
    expect(chart).toMatchObject({ empty: false, labels: ["Ana"] });
    expect(chart.datasets[0].data).toEqual([0]);
  });

  test("Utilização do App: the share of due slots started in the app, two decimals", () => {
    const chart = CHARTS[7]([{ id: 1, nome: "Ana", scheduled: 3, started: 1 }]);
    expect(chart.datasets[0].data).toEqual([33.33]);
    expect(chart.summary).toBe("Uso do app por colaborador: Ana (33,33%).");
  });

  test("Inspeções: pontuação média: a bar per week with inspections, its mean in percent with one decimal", () => {
    const chart = CHARTS[9]([
      { semana: "2026-10-26", media: 80, inspecoes: 3, soma: 240.1 },
      { semana: "2026-11-02", media: 80.1, inspecoes: 1, soma: 80.1 },
    ]);
    expect(chart).toMatchObject({
      board: 9,
      title: "Inspeções: pontuação média",
      sheet: "Inspeções",
      type: "bar",
      stacked: false,
      unit: "nota",
      labels: ["Semana de 26/10", "Semana de 02/11"],
      datasets: [{ label: "Pontuação média", data: [80, 80.1], colours: [PALETTE[0]] }],
      empty: false,
    });
    // The period's mean is its 4 scores' (320,2 ÷ 4 = 80,05: 80,1%), not the weeks' means weighted (80,025: 80,0%).
    expect(chart.summary).toBe(
      "Pontuação média de 80,1% em 4 inspeções, 2 semanas com inspeções; na última, semana de 02/11: 80,1%.",
    );
  });

  test("Inspeções: one week, one inspection; weeks across a year's turn keep their own day and month", () => {
    expect(CHARTS[9]([{ semana: "2026-11-02", media: 92.3, inspecoes: 1, soma: 92.3 }]).summary).toBe(
      "Pontuação média de 92,3% em 1 inspeção, na semana de 02/11.",
    );
    expect(["2025-12-29", "2026-01-05"].map(weekLabel)).toEqual(["Semana de 29/12", "Semana de 05/01"]);
  });

  test("the inspection board is ours, the last, and opt-in", () => {
    expect(AUDIT_BOARDS.at(-1)).toEqual({ id: 9, title: "Inspeções: pontuação média", sheet: "Inspeções" });
    expect(OPT_IN_BOARDS).toEqual([9]);
  });

  test.each([
    [1, []],
    [2, []],
    [8, []],
    [9, []],
  ] as const)("board %i with nothing to show is empty: 'Sem dados'", (board, rows) => {
    const chart = (CHARTS[board] as (rows: unknown) => ReturnType<(typeof CHARTS)[1]>)(rows);
    expect(chart.empty).toBe(true);
    expect(chart.summary).toBe(AUDIT_TEXTS.noData);
  });

  test("only the enabled boards, in board order", () => {
    const aggregates: Partial<AuditAggregates> = { 9: [], 8: [], 1: [], 3: [] };
    expect(auditCharts(aggregates, [9, 8, 3, 1]).map((chart) => [chart.board, chart.sheet])).toEqual([
      [1, "Ambientes"],
      [3, "Atv em aberto por CNPJ"],
      [8, "Resumo das Atividades"],
      [9, "Inspeções"],
    ]);
    expect(auditCharts(aggregates, [8, 3, 1]).map((chart) => chart.board)).toEqual([1, 3, 8]);
    expect(auditCharts(aggregates, [])).toEqual([]);
  });
});

describe("the period (§5)", () => {
  test.each([
    ["2026-11-01", "2026-11-30", null],
    ["2026-11-26", "2026-11-26", null],
    ["2026-11-27", "2026-11-26", AUDIT_TEXTS.invalidPeriod],
    ["2025-11-26", "2026-11-26", null],
    ["2025-11-25", "2026-11-26", AUDIT_TEXTS.tooManyDays],
  ])("%s to %s: %s", (from, to, error) => expect(auditPeriodError(from, to)).toBe(error));
});
