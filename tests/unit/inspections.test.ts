/** Issue 29: the inspection score and the pass mark (api/domain/inspections.ts, docs/inspections.md 'The score'). */
import { describe, expect, test } from "vitest";

import { inspectionScore, passes, percent, type ScoredAnswer } from "../../api/domain/inspections.ts";

const c = (peso: number): ScoredAnswer => ({ peso, resposta: "conforme" });
const n = (peso: number): ScoredAnswer => ({ peso, resposta: "nao_conforme" });
const na = (peso: number): ScoredAnswer => ({ peso, resposta: "nao_se_aplica" });

describe("inspectionScore", () => {
  test("weights: Σ weights 'Conforme' ÷ Σ weights applicable", () => {
    expect(inspectionScore([c(3), n(2), c(1), n(4)])).toEqual({ conforme: 4, aplicaveis: 10, nota: 40 });
    expect(inspectionScore([c(5), n(1)])).toEqual({ conforme: 5, aplicaveis: 6, nota: 83.3 });
    // The same items unweighted would be 50%: a heavy item counts more.
    expect(inspectionScore([c(1), n(1)])!.nota).toBe(50);
    expect(inspectionScore([c(5), n(1)])!.nota).not.toBe(50);
  });

  test("'Não se aplica' counts in neither sum; nothing applicable has no score", () => {
    expect(inspectionScore([c(3), na(5), n(4)])).toEqual({ conforme: 3, aplicaveis: 7, nota: 42.9 });
    expect(inspectionScore([na(1), na(5)])).toBeNull();
    expect(inspectionScore([])).toBeNull();
    expect(inspectionScore([c(2), na(5)])!.nota).toBe(100);
    expect(inspectionScore([n(2), na(5)])!.nota).toBe(0);
  });

  test("rounding: half up to one decimal, in integers (no floating-point drift)", () => {
    // 1/3 = 33.33…% → 33.3; 2/3 = 66.66…% → 66.7.
    expect(inspectionScore([c(1), n(2)])!.nota).toBe(33.3);
    expect(inspectionScore([c(2), n(1)])!.nota).toBe(66.7);
    // 1/2 with N/A around it is 50%; 1699/2000 = 84.95% → 85.0 (half up); 16989/20000 = 84.945% → 84.9.
    expect(inspectionScore([c(1), n(1), ...Array(38).fill(na(1))])!.nota).toBe(50);
    const halfUp = [...Array(1699).fill(c(1)), ...Array(301).fill(n(1))];
    expect(inspectionScore(halfUp)!.nota).toBe(85);
    const justBelow = [...Array(16989).fill(c(1)), ...Array(3011).fill(n(1))];
    expect(inspectionScore(justBelow)!.nota).toBe(84.9);
  });

  test("versioning is the caller's: the same answers under other weights give another score", () => {
    const v1 = inspectionScore([c(3), n(2)])!;
    const v2 = inspectionScore([c(1), n(5)])!;
    expect([v1.nota, v2.nota]).toEqual([60, 16.7]);
  });
});

describe("passes", () => {
  test("the score as shown reaches the mark; the default mark is 85", () => {
    expect(passes(85, 85)).toBe(true);
    expect(passes(84.9, 85)).toBe(false);
    expect(passes(85.1, 85)).toBe(true);
    expect(passes(70, 70)).toBe(true);
    expect(passes(0, 0)).toBe(true);
    // 0.1 + 0.2 style values do not flip a result.
    expect(passes(0.1 + 0.2, 0.3)).toBe(true);
  });

  test("percent writes one decimal with a comma", () => {
    expect(percent(87.5)).toBe("87,5%");
    expect(percent(100)).toBe("100,0%");
  });
});
