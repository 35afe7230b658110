import * as z from "zod/mini";

import { CLIENT_REPORT_TEXTS, MAX_LATE_TOLERANCE_MINUTES } from "./client-report.ts";
import { preprocess } from "./fields.ts";

/**
 * The main company's late tolerance (companies.late_tolerance_minutes, migration 013; the client report's 'com
 * atraso', docs/decisions/006-client-report.md): whole minutes from 0 to 240. Forms send text, JSON a number; a blank
 * box is refused on the form; an absent value keeps what is saved (the API's PUT) or 15 (a new company).
 */
function toMinutes(value: unknown) {
  if (typeof value === "number") return value;
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && value.trim() === "") return undefined;
  if (typeof value === "string" && /^\s*\d{1,4}\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

const minutes = z
  .int({ error: CLIENT_REPORT_TEXTS.toleranceInvalid })
  .check(
    z.minimum(0, CLIENT_REPORT_TEXTS.toleranceInvalid),
    z.maximum(MAX_LATE_TOLERANCE_MINUTES, CLIENT_REPORT_TEXTS.toleranceInvalid),
  );

/** The edit form's field: required (a blank box is the same message). */
export const requiredLateToleranceField = preprocess(toMinutes, minutes);

/** The API's payloads: absent keeps what is saved (PUT) or 15 (POST). */
export const lateToleranceField = z.optional(requiredLateToleranceField);
