import { format, parseISO } from "date-fns";
import { ptBR } from "date-fns/locale";

import { BUSINESS_TIME_ZONE } from "./format";

/**
 * An instant the API stores (UTC, ISO) as the business reads it: in America/Fortaleza (spec 000 §1). Server-only, so
 * the time-zone data stays out of the pages' JS. '-' for no instant (§2.11: '-' for blanks). The original printed
 * UTC shifted by a fixed 3 hours (§9); Fortaleza is UTC−3 all year, so this is the same clock, read from the instant.
 *
 * One `Intl.DateTimeFormat` for the zone, made once: the exports write up to six instants a row, and a `TZDate` with
 * date-fns' `format` per instant cost a year's Excel a third of its time (docs/performance.md 'Export flood').
 */
let zoneParts: Intl.DateTimeFormat | undefined;
const inBusinessZone = (pattern: (part: Record<string, string>) => string) => (iso: string | null | undefined) => {
  const ms = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return "-";
  zoneParts ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: BUSINESS_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const part: Record<string, string> = {};
  for (const { type, value } of zoneParts.formatToParts(ms)) part[type] = value;
  return pattern(part);
};

/** 'HH:mm:ss' */
export const businessTime = inBusinessZone((p) => `${p.hour}:${p.minute}:${p.second}`);
/** 'dd/MM/yyyy HH:mm:ss' */
export const businessDateTime = inBusinessZone(
  (p) => `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second}`,
);
/** 'dd/MM/yyyy HH:mm' (deadlines, a timeline) */
export const businessDateMinute = inBusinessZone((p) => `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`);
/** 'yyyy-MM-ddTHH:mm', the value of a datetime-local field showing this instant in Fortaleza */
export const businessLocalInput = inBusinessZone((p) => `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`);

/** A day in words, capitalised: 'Domingo, 22 de novembro de 2026' (page and dialog titles). */
export function weekdayDateBR(isoDate: string) {
  const text = format(parseISO(isoDate), "EEEE, d 'de' MMMM 'de' yyyy", { locale: ptBR });
  return text.charAt(0).toUpperCase() + text.slice(1);
}
