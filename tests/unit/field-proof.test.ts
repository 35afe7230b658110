/** The proof flags' words (api/domain/field-proof.ts; docs/field-app.md 'Proof flags'): one rule per test. */
import { describe, expect, test } from "vitest";

import { delayText, lateSendText, noQrText, proofFlags, receivedIfDiffers } from "../../api/domain/field-proof.ts";

describe("delayText", () => {
  test("minutes under an hour, at least one", () => {
    expect([delayText(0), delayText(59), delayText(300), delayText(45 * 60 + 59)]).toEqual([
      "1 min",
      "1 min",
      "5 min",
      "45 min",
    ]);
  });

  test("hours and minutes under a day; no '0 min'", () => {
    expect([delayText(8100), delayText(7200), delayText(23 * 3600 + 59 * 60)]).toEqual([
      "2 h 15 min",
      "2 h",
      "23 h 59 min",
    ]);
  });

  test("days and hours from a day up; minutes left out", () => {
    expect([delayText(86_400), delayText(86_400 + 3 * 3600 + 600), delayText(3 * 86_400)]).toEqual([
      "1 dia",
      "1 dia e 3 h",
      "3 dias",
    ]);
  });
});

describe("the flags", () => {
  test("'Enviado com atraso' says how long after the work", () => {
    expect(lateSendText(8100)).toBe("Enviado com atraso (2 h 15 min após a execução)");
  });

  test("no delay recorded (null) or none (0): no late flag", () => {
    expect([lateSendText(null), lateSendText(undefined), lateSendText(0)]).toEqual([null, null, null]);
  });

  test("'Sem leitura do QR' for false only: null (before the field app) says nothing", () => {
    expect([noQrText(false), noQrText(true), noQrText(null)]).toEqual(["Sem leitura do QR", null, null]);
  });

  test("both, in order; none for a slot with nothing to say", () => {
    expect(proofFlags({ viaQr: false, envioAtrasoS: 600 })).toEqual([
      "Sem leitura do QR",
      "Enviado com atraso (10 min após a execução)",
    ]);
    expect(proofFlags({ viaQr: true, envioAtrasoS: null })).toEqual([]);
  });
});

describe("receivedIfDiffers", () => {
  const done = "2026-03-15T11:00:00.000Z";

  test("a minute or more apart: the received instant", () => {
    expect(receivedIfDiffers(done, "2026-03-15T11:01:00.000Z")).toBe("2026-03-15T11:01:00.000Z");
  });

  test("under a minute apart (the send itself): nothing", () => {
    expect(receivedIfDiffers(done, "2026-03-15T11:00:59.000Z")).toBeNull();
  });

  test("either missing: nothing", () => {
    expect([receivedIfDiffers(null, done), receivedIfDiffers(done, null)]).toEqual([null, null]);
  });
});
