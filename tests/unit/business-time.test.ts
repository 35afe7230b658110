/**
 * Instants as the business reads them (app/lib/business-time.server.ts): America/Fortaleza, UTC−3 all year; the day
 * turns at 03:00 UTC. Compared with date-fns' own time-zone formatting, which the module used before.
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { describe, expect, test } from "vitest";

import {
  businessDateMinute,
  businessDateTime,
  businessLocalInput,
  businessTime,
} from "../../app/lib/business-time.server";

describe("instants in the business time zone", () => {
  test("the day before 03:00 UTC, the same day after", () => {
    expect(businessDateTime("2026-11-28T02:59:59.000Z")).toBe("27/11/2026 23:59:59");
    expect(businessDateTime("2026-11-28T03:00:00.000Z")).toBe("28/11/2026 00:00:00");
    expect(businessTime("2026-01-01T12:05:09Z")).toBe("09:05:09");
    expect(businessDateMinute("2026-03-01T00:30:00Z")).toBe("28/02/2026 21:30");
    expect(businessLocalInput("2024-02-29T23:59:00Z")).toBe("2024-02-29T20:59");
  });

  test("no instant, or not one, is '-'", () => {
    for (const formatter of [businessTime, businessDateTime, businessDateMinute, businessLocalInput]) {
      expect(formatter(null)).toBe("-");
      expect(formatter(undefined)).toBe("-");
      expect(formatter("")).toBe("-");
      expect(formatter("não é data")).toBe("-");
    }
  });

  test("equal to date-fns' TZDate over 2,000 instants of 2015-2035", () => {
    const patterns = [
      [businessTime, "HH:mm:ss"],
      [businessDateTime, "dd/MM/yyyy HH:mm:ss"],
      [businessDateMinute, "dd/MM/yyyy HH:mm"],
      [businessLocalInput, "yyyy-MM-dd'T'HH:mm"],
    ] as const;
    const from = Date.UTC(2015, 0, 1);
    const span = Date.UTC(2035, 0, 1) - from;
    for (let i = 0; i < 2_000; i++) {
      const iso = new Date(from + Math.floor((span * i) / 2_000) + i * 7_919_000).toISOString();
      for (const [ours, pattern] of patterns)
        expect(ours(iso), `${iso} ${pattern}`).toBe(format(new TZDate(iso, "America/Fortaleza"), pattern));
    }
  });
});
