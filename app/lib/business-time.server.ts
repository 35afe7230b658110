import { TZDate } from "@date-fns/tz";
import { format, parseISO } from "date-fns";
import { ptBR } from "date-fns/locale";

import { BUSINESS_TIME_ZONE } from "./format";

/**
 * An instant the API stores (UTC, ISO) as the business reads it: in America/Fortaleza (spec 000 §1). Server-only, so
 * the time-zone data stays out of the pages' JS. '-' for no instant (§2.11: '-' for blanks). The original printed
 * UTC shifted by a fixed 3 hours (§9); Fortaleza is UTC−3 all year, so this is the same clock, read from the instant.
 */
const inBusinessZone = (pattern: string) => (iso: string | null | undefined) =>
  iso ? format(new TZDate(iso, BUSINESS_TIME_ZONE), pattern) : "-";

/** 'HH:mm:ss' */
export const businessTime = inBusinessZone("HH:mm:ss");
/** 'dd/MM/yyyy HH:mm:ss' */
export const businessDateTime = inBusinessZone("dd/MM/yyyy HH:mm:ss");
/** 'dd/MM/yyyy HH:mm' (deadlines, a timeline) */
export const businessDateMinute = inBusinessZone("dd/MM/yyyy HH:mm");
/** 'yyyy-MM-ddTHH:mm', the value of a datetime-local field showing this instant in Fortaleza */
export const businessLocalInput = inBusinessZone("yyyy-MM-dd'T'HH:mm");

/** A day in words, capitalised: 'Domingo, 22 de novembro de 2026' (page and dialog titles). */
export function weekdayDateBR(isoDate: string) {
  const text = format(parseISO(isoDate), "EEEE, d 'de' MMMM 'de' yyyy", { locale: ptBR });
  return text.charAt(0).toUpperCase() + text.slice(1);
}
