import {
  differenceInCalendarDays,
  eachDayOfInterval,
  formatISO,
  getDate,
  getDay,
  getMonth,
  parseISO,
  startOfWeek,
} from "date-fns";

/**
 * Scheduling (spec 001 §2.2, §2.3, §3 'Periodicidade', §5, §9): the agenda item as the domain sees it, and its
 * expansion into bookings (agendamentos) for any date range. Pure and browser-safe (date-fns and Intl, no
 * I/O); the rules and the payload schemas are in ./schedule-rules.ts, the design in docs/scheduling.md.
 *
 * Business dates are 'yyyy-MM-dd' strings (a `date` column, the spec's wire format). Calendar arithmetic runs on
 * the host's local midnight through date-fns, whose day functions are daylight-saving safe, so any host reads the
 * same calendar; the time zone only decides what 'today' is (America/Fortaleza, `businessToday`, one Intl formatter:
 * a TZDate per day asked Intl for an offset each time, ~70 ms for a year of days against ~2 ms).
 */

export const BUSINESS_TIME_ZONE = "America/Fortaleza";

/** 0 = Domingo ... 6 = Sábado (date-fns' getDay; the picker runs Domingo to Sábado, spec 001 §9). */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;
export const WEEKDAY_NAMES = ["Domingo", "Segunda", "Terça", "Quarta", "Quinta", "Sexta", "Sábado"] as const;

/** The edit form's periodicity types (spec 001 §4); on the wire only '12X' stays, the others are sent as 'sem'. */
export const PERIODICITY_KINDS = ["Semanal", "12X", "Semana Alternada", "Mensal", "Anual"] as const;
export type PeriodicityKind = (typeof PERIODICITY_KINDS)[number];
/** The types the register and edit forms offer (spec 001 §2.2, §2.3, §9); the others exist in the form code only. */
/** How a 12X agenda's days read where a weekly one lists its weekdays (ours; issue 27: never 'Dias da semana: 12X'). */
export const ALTERNATE_DAYS_TEXT = "Dia sim, dia não";

export const OFFERED_PERIODICITY_KINDS = ["Semanal", "12X"] as const satisfies readonly PeriodicityKind[];

/** A day of an 'Anual' periodicity: day 1-31, month 1-12, kept clamped (`clampAnnualDate`). */
export type AnnualDate = { day: number; month: number };

export type Periodicity =
  | { kind: "Semanal"; weekdays: Weekday[] }
  | { kind: "12X" }
  /** `weekdays` in the validity start's week and every other week after it, `weekdays2` in the weeks between. */
  | { kind: "Semana Alternada"; weekdays: Weekday[]; weekdays2: Weekday[] }
  | { kind: "Mensal"; daysOfMonth: number[] }
  | { kind: "Anual"; dates: AnnualDate[] };

/** One cleaning of a day: 'HH:mm' start and end, start < end within the day (spec 001 §5). */
export type TimeSlot = { horaIni: string; horaFim: string };

/**
 * An agenda item (spec 001 §3 'Agenda item on the client' and the save payload): where, how often, when in the day
 * (the main cleaning and its revisions: at most 20 in all), and the validity (vigência, both days included).
 */
export type AgendaItem = {
  periodicity: Periodicity;
  main: TimeSlot;
  revisions: TimeSlot[];
  vigIni: string;
  vigFim: string;
  /** 'As Revisões serão com foto única?' */
  revisionPhotos: boolean;
};

/** Both days included, 'yyyy-MM-dd'. */
export type DateRange = { from: string; to: string };

/** One booking (agendamento): a day of the agenda with its main slot and its revision slots, in the day's order. */
export type ExpandedBooking = { dataAgend: string; main: TimeSlot; revisions: TimeSlot[] };

/** One slot of a booking: 0 is the main cleaning ('Principal'), n the nª revision ('Revisão'), spec 001 §2.5. */
export type BookingSlot = TimeSlot & { dataAgend: string; slot: number; type: "Principal" | "Revisão" | "Extra" };

// ---------------------------------------------------------------------------------------------------------------
// Dates and times

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const BR_DAY = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A business date's local midnight (the arithmetic's unit). */
export function dayOf(date: string): Date {
  return parseISO(date);
}

/** A day back as 'yyyy-MM-dd'. */
export function isoDay(date: Date): string {
  return formatISO(date, { representation: "date" });
}

/**
 * A date as the API and the forms send it: 'yyyy-MM-dd', 'dd/MM/yyyy', or an instant with its offset (the day it is
 * in Fortaleza); a real day only (31/02 is refused), from 1900 to 2100. Answers 'yyyy-MM-dd' or null.
 */
export function parseBusinessDate(value: string): string | null {
  const text = value.trim();
  if (ISO_INSTANT.test(text)) {
    const instant = new Date(text);
    return Number.isNaN(instant.getTime()) ? null : businessDayOf(instant);
  }
  const br = BR_DAY.exec(text);
  const iso = br ? `${br[3]}-${br[2]}-${br[1]}` : text;
  // Business dates run from 1900 to 2100: a year 9999 would walk an agenda's steps, and date arithmetic, off the end.
  if (!ISO_DAY.test(iso) || iso < "1900-01-01" || iso > "2100-12-31") return null;
  // A real day: 31/02 rolls over into March and is refused. Plain Date.UTC rather than date-fns' parseISO: the agenda
  // forms run this in the browser (JS budget).
  const [year, month, day] = iso.split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? iso : null;
}

let businessDayFormat: Intl.DateTimeFormat | undefined;

/**
 * The day an instant is in, in America/Fortaleza, 'yyyy-MM-dd'. Intl rather than @date-fns/tz's TZDate: the agenda
 * forms load this module in the browser, and the page's JS budget has no room for a time-zone library.
 */
function businessDayOf(instant: Date): string {
  businessDayFormat ??= new Intl.DateTimeFormat("en-US", {
    timeZone: BUSINESS_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  const parts = Object.fromEntries(businessDayFormat.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Today in America/Fortaleza (spec: 'today' means today there), 'yyyy-MM-dd'. */
export function businessToday(now: Date = new Date()): string {
  return businessDayOf(now);
}

/** 'yyyy-MM-dd' as the number yyyymmdd: the spec's one-year rule adds 10000 to it (spec 001 §5). */
export function dateNumber(date: string): number {
  return Number(date.replaceAll("-", ""));
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** 'H:mm', 'HH:mm' or 'HH:mm:ss' (a `time` column) as 'HH:mm'; null when it is no time of day. Seconds are dropped. */
export function parseTime(value: string): string | null {
  const match = TIME.exec(value.trim());
  if (!match) return null;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  return `${String(hours).padStart(2, "0")}:${match[2]}`;
}

/** Minutes since midnight of an 'HH:mm' time: the spec compares times 'as numbers made from the digits of HH:MM'. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(":").map(Number);
  return hours * 60 + minutes;
}

// ---------------------------------------------------------------------------------------------------------------
// Weekdays, days of month, annual dates

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/-?feira$/, "")
    .trim();
const WEEKDAY_BY_NAME = new Map<string, Weekday>(WEEKDAY_NAMES.map((name, index) => [fold(name), index as Weekday]));

/** Weekdays sorted Domingo first, each once. */
export function sortWeekdays(weekdays: Iterable<number>): Weekday[] {
  return [...new Set(weekdays)]
    .filter((day): day is Weekday => Number.isInteger(day) && day >= 0 && day <= 6)
    .sort((a, b) => a - b);
}

/**
 * DIAS_SEMANA as stored and sent (spec 001 §3: weekday names joined by ' - '): names with or without accents and
 * '-feira' in any case, or the digits 0 (Domingo) to 6 (Sábado); ',' is read as a separator too. '' is no weekday;
 * null when a part is no weekday.
 */
export function parseWeekdays(value: string): Weekday[] | null {
  const parts = value
    .split(/\s+-\s+|,/)
    .map((part) => part.trim())
    .filter(Boolean);
  const days: Weekday[] = [];
  for (const part of parts) {
    const day = /^[0-6]$/.test(part) ? (Number(part) as Weekday) : WEEKDAY_BY_NAME.get(fold(part));
    if (day === undefined) return null;
    days.push(day);
  }
  return sortWeekdays(days);
}

/** Weekdays as DIAS_SEMANA: 'Segunda - Quarta - Sexta' (Domingo first). */
export function formatWeekdays(weekdays: Iterable<number>): string {
  return sortWeekdays(weekdays)
    .map((day) => WEEKDAY_NAMES[day])
    .join(" - ");
}

/** Days of month 1-31, sorted, each once (the edit form keeps its chips so, spec 001 §5). */
export function sortDaysOfMonth(days: Iterable<number>): number[] {
  return [...new Set(days)].filter((day) => Number.isInteger(day) && day >= 1 && day <= 31).sort((a, b) => a - b);
}

/** The last day an 'Anual' date may name in each month: February 28, the 30-day months 30 (spec 001 §5, §9). */
const ANNUAL_DAY_MAX = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * An annual date clamped as the spec asks (§9: 'February clamp 28; 30-day months clamp 30'): 29/02 is 28/02 in every
 * year, leap years included, so an 'Anual' agenda never skips a year; 31/04 is 30/04. §5 describes the old form
 * clamping October rather than November; we clamp the real 30-day months (April, June, September, November), so
 * 31/10 stays and 31/11, a day that never comes, becomes 30/11 (docs/scheduling.md).
 */
export function clampAnnualDate(date: AnnualDate): AnnualDate {
  return { day: Math.min(date.day, ANNUAL_DAY_MAX[date.month - 1] ?? 31), month: date.month };
}

const isAnnualDate = (date: AnnualDate) =>
  Number.isInteger(date.day) && Number.isInteger(date.month) && date.day >= 1 && date.day <= 31 && date.month >= 1;

/** Annual dates clamped, sorted by month then day, each once. */
export function sortAnnualDates(dates: Iterable<AnnualDate>): AnnualDate[] {
  const keys = new Set<number>();
  for (const date of dates) {
    if (!isAnnualDate(date) || date.month > 12) continue;
    const clamped = clampAnnualDate(date);
    keys.add(clamped.month * 100 + clamped.day);
  }
  return [...keys].sort((a, b) => a - b).map((key) => ({ day: key % 100, month: Math.floor(key / 100) }));
}

const pad2 = (value: number) => String(value).padStart(2, "0");

/** An annual date as stored (periodicities.datas_anuais) and sent (DATAS_ANUAIS): 'dd/MM'. */
export function formatAnnualDate(date: AnnualDate): string {
  return `${pad2(date.day)}/${pad2(date.month)}`;
}

/** 'dd/MM' (or 'd/M') as an annual date, not yet clamped; null when the day is not 1-31 or the month not 1-12. */
export function parseAnnualDate(value: string): AnnualDate | null {
  const match = /^(\d{1,2})\/(\d{1,2})$/.exec(value.trim());
  if (!match) return null;
  const date = { day: Number(match[1]), month: Number(match[2]) };
  return isAnnualDate(date) && date.month <= 12 ? date : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Expansion

/**
 * The days of `range` within the validity on which `item` has a booking, in date order, each with its main slot and
 * its revision slots (as given: the rules keep them ascending). Any range works (a calendar month, a year, one day):
 * it is intersected with the validity, so expanding two adjoining ranges gives the expansion of their union.
 *
 * - Semanal: the chosen weekdays.
 * - 12X ('dia sim, dia não'): the validity start, then every second day.
 * - Semana Alternada: `weekdays` in the validity start's week (weeks run Domingo to Sábado) and every second week
 *   after it, `weekdays2` in the other weeks.
 * - Mensal: the chosen days of each month; a day the month lacks (31 in April, 30 in February) is skipped.
 * - Anual: the chosen day and month every year, clamped first (`clampAnnualDate`: 29/02 falls on 28/02).
 */
export function expandAgenda(item: AgendaItem, range: DateRange): ExpandedBooking[] {
  const from = range.from > item.vigIni ? range.from : item.vigIni;
  const to = range.to < item.vigFim ? range.to : item.vigFim;
  if (from > to) return [];
  const start = dayOf(from);
  const matches = dayMatcher(item.periodicity, dayOf(item.vigIni), start);
  const bookings: ExpandedBooking[] = [];
  eachDayOfInterval({ start, end: dayOf(to) }).forEach((day, index) => {
    if (matches(day, index)) bookings.push({ dataAgend: isoDay(day), main: item.main, revisions: item.revisions });
  });
  return bookings;
}

/**
 * Whether a day has a booking. `index` counts days from `first` (the first day expanded), so the offsets from the
 * validity start are counted once rather than per day (differenceInCalendarDays costs about 10 µs a call).
 */
function dayMatcher(periodicity: Periodicity, vigIni: Date, first: Date): (day: Date, index: number) => boolean {
  switch (periodicity.kind) {
    case "Semanal": {
      const weekdays = new Set<number>(periodicity.weekdays);
      return (day) => weekdays.has(getDay(day));
    }
    case "12X": {
      const offset = differenceInCalendarDays(first, vigIni);
      return (_day, index) => (offset + index) % 2 === 0;
    }
    case "Semana Alternada": {
      const sets = [new Set<number>(periodicity.weekdays), new Set<number>(periodicity.weekdays2)];
      // Days from the Sunday that opens the validity start's week: week n of the validity is that count / 7.
      const offset = differenceInCalendarDays(first, startOfWeek(vigIni, { weekStartsOn: 0 }));
      return (day, index) => sets[Math.floor((offset + index) / 7) % 2].has(getDay(day));
    }
    case "Mensal": {
      const days = new Set(periodicity.daysOfMonth);
      return (day) => days.has(getDate(day));
    }
    case "Anual": {
      const keys = new Set(sortAnnualDates(periodicity.dates).map((date) => date.month * 100 + date.day));
      return (day) => keys.has((getMonth(day) + 1) * 100 + getDate(day));
    }
  }
}

/** A booking's slots in the day's order: the main one (slot 0, 'Principal'), then the revisions ('Revisão'). */
export function bookingSlots(booking: ExpandedBooking): BookingSlot[] {
  return [booking.main, ...booking.revisions].map((slot, index) => ({
    dataAgend: booking.dataAgend,
    slot: index,
    type: index === 0 ? "Principal" : "Revisão",
    horaIni: slot.horaIni,
    horaFim: slot.horaFim,
  }));
}
