import { businessTime, instantMs, type Instant } from "./board.ts";
import { minutesOf, parseTime, type BookingSlot, type TimeSlot } from "./schedule-expansion.ts";

/**
 * The public room page, /info/ambiente/{id} (spec 001 §2.14, §4 'Room info page', §7 '/historic/v2/byEnvironment';
 * issue 13): what someone who scanned the room's QR code sees. The day's scheduled hours are paired in order with the
 * cleanings performed; scheduled hours left over are the upcoming ones; performed cleanings beyond the scheduled
 * hours are labelled EXTRA. Pure and browser-safe; the service reads one day of one room and feeds these shapes,
 * which hold no CPF, e-mail or phone (the page is public).
 */

export const ROOM_TEXTS = {
  latest: "Últimas Limpezas",
  upcoming: "Próximas Limpezas",
  all: "Todas Limpezas",
  empty: "Sem Informações",
  extra: "EXTRA",
  // ours
  scheduled: "Agendado",
  performed: "Realizado",
  inProgress: "Em andamento",
  // ours (issue 27): a scheduled hour already over with no cleaning is not 'next'
  late: "Atrasada",
  lateTitle: "Atrasadas",
  notFoundTitle: "Ambiente não encontrado",
  notFound: "Este QR code não corresponde a um ambiente ativo. Procure o responsável pela limpeza do local.",
} as const;

/** A cleaning's type on its card (spec 001 §3 'Report row', §4 'Room info page'). */
export type CleaningType = "Principal" | "Revisão" | "Extra";

/**
 * One scheduled cleaning of the room that day: a booking slot (one row of bookings: slot 0 'Principal', n 'Revisão')
 * with the collaborator it is for. Times 'HH:mm' (or 'HH:mm:ss' as a time column answers).
 */
export type RoomScheduledSlot = Pick<BookingSlot, "horaIni" | "horaFim" | "type"> & {
  employeeName: string;
  /** The collaborator's avatar file name (the page resolves it to a sized thumbnail), null without one. */
  photo: string | null;
};

/**
 * One cleaning performed in the room that day (a visit: one executed booking slot, its history entries taken together,
 * e.g. through `performedSpan`), by whoever did it.
 */
export type RoomPerformedVisit = {
  employeeName: string;
  photo: string | null;
  /** When it started (an instant: Date, or an ISO string with its offset). */
  startedAt: Instant;
  /** When it finished; null while in progress. */
  finishedAt: Instant | null;
  /** It was a revision (its history names a revision: Historic.revisionId, or a booking slot after the first). */
  revision: boolean;
  /** A corrective cleaning of an incident: 'Extra', and never the day's 'Principal'. */
  corrective?: boolean;
};

/** What a card shows. */
export type RoomCard = {
  /** 'done' and 'inProgress' were performed; 'upcoming' is a scheduled hour not yet paired with a cleaning. */
  state: "done" | "inProgress" | "upcoming";
  type: CleaningType;
  /** Performed beyond the scheduled hours: labelled EXTRA (no scheduled time on the card). */
  extra: boolean;
  /** Who did it (performed cards), or whom it is scheduled for (upcoming cards). */
  employeeName: string;
  photo: string | null;
  /** The scheduled hour, 'HH:mm'; null for an EXTRA card. */
  scheduled: TimeSlot | null;
  /** The performed times in America/Fortaleza, 'HH:mm'; `end` null while in progress; null for an upcoming card. */
  performed: { start: string | null; end: string | null } | null;
  /** Positions in the inputs, for whoever needs to find the rows again (a link, a test). */
  scheduledIndex: number | null;
  performedIndex: number | null;
};

/** One day of one room, as the three buttons choose it. */
export type RoomDay<Card extends Pick<RoomCard, "state"> = RoomCard> = {
  /** 'Últimas Limpezas': the performed cleanings, paired and EXTRA, the most recent first. */
  latest: Card[];
  /** 'Próximas Limpezas': the scheduled hours without a cleaning, in the day's order. */
  upcoming: Card[];
  /** 'Todas Limpezas': every card in the day's order (the pairs, then what is left over on either side). */
  all: Card[];
};

const clock = (time: string) => parseTime(time) ?? time;
const slotMinutes = (slot: TimeSlot) => [minutesOf(clock(slot.horaIni)), minutesOf(clock(slot.horaFim))];

/** Indexes of `items` in the order `compare` gives, ties kept in input order. */
function orderOf<T>(items: readonly T[], compare: (a: T, b: T) => number): number[] {
  return items.map((_, index) => index).sort((a, b) => compare(items[a], items[b]) || a - b);
}

/**
 * The type of each performed visit, in the order they started (spec 001 §4): 'Revisão' when it was a revision,
 * 'Principal' for the first that was not, 'Extra' for the others that were not. 'The first' is the first non-revision
 * visit, so a revision done before the main cleaning does not turn that main cleaning into an extra. An incident's
 * corrective cleaning is always 'Extra' (issue 28), whenever it was done.
 */
export function visitTypes(revisions: readonly (boolean | "corrective")[]): CleaningType[] {
  let principal = false;
  return revisions.map((revision) => {
    if (revision === "corrective") return "Extra";
    if (revision) return "Revisão";
    if (principal) return "Extra";
    principal = true;
    return "Principal";
  });
}

/**
 * The room's day (spec 001 §4 'Room info page'): the scheduled hours in the day's order (by start, then end) paired
 * one by one with the performed visits in the order they started. A pair is one card: the scheduled hour, the
 * performed times, the visit's type and who did it. Scheduled hours left unpaired are upcoming (with the slot's own
 * type and whom they are for); visits left unpaired are EXTRA. Since the two lists are zipped, a day has upcoming
 * hours or EXTRA visits, never both, and min(scheduled, performed) pairs.
 */
export function pairRoomDay(
  scheduled: readonly RoomScheduledSlot[],
  performed: readonly RoomPerformedVisit[],
): RoomDay {
  const slotOrder = orderOf(scheduled, (a, b) => {
    const [aIni, aFim] = slotMinutes(a);
    const [bIni, bFim] = slotMinutes(b);
    return aIni - bIni || aFim - bFim;
  });
  const startOf = (visit: RoomPerformedVisit) => instantMs(visit.startedAt) ?? Infinity;
  const visitOrder = orderOf(performed, (a, b) => startOf(a) - startOf(b));
  const types = visitTypes(
    visitOrder.map((index) => (performed[index].corrective ? "corrective" : performed[index].revision)),
  );

  const all: RoomCard[] = [];
  for (let position = 0; position < Math.max(slotOrder.length, visitOrder.length); position++) {
    const slotIndex = position < slotOrder.length ? slotOrder[position] : null;
    const visitIndex = position < visitOrder.length ? visitOrder[position] : null;
    const slot = slotIndex === null ? null : scheduled[slotIndex];
    const visit = visitIndex === null ? null : performed[visitIndex];
    const hour = slot ? { horaIni: clock(slot.horaIni), horaFim: clock(slot.horaFim) } : null;
    if (visit) {
      all.push({
        state: visit.finishedAt === null ? "inProgress" : "done",
        type: types[position],
        extra: slot === null,
        employeeName: visit.employeeName,
        photo: visit.photo,
        scheduled: hour,
        performed: { start: businessTime(visit.startedAt), end: businessTime(visit.finishedAt) },
        scheduledIndex: slotIndex,
        performedIndex: visitIndex,
      });
    } else if (slot) {
      all.push({
        state: "upcoming",
        type: slot.type,
        extra: false,
        employeeName: slot.employeeName,
        photo: slot.photo,
        scheduled: hour,
        performed: null,
        scheduledIndex: slotIndex,
        performedIndex: null,
      });
    }
  }
  return roomDayOf(all);
}

/**
 * The three views of a day's cards in the day's order (what `pairRoomDay` answers as `all`, and what the public API
 * sends): the performed ones most recent first, the upcoming ones, and all of them.
 */
export function roomDayOf<Card extends Pick<RoomCard, "state">>(all: Card[]): RoomDay<Card> {
  const done = all.filter((card) => card.state !== "upcoming");
  return { latest: done.reverse(), upcoming: all.filter((card) => card.state === "upcoming"), all };
}

// ---------------------------------------------------------------------------------------------------------------
// The three buttons: links that work without JS (?ver=ultimas|proximas|todas)

export const ROOM_VIEWS = ["ultimas", "proximas", "todas"] as const;
export type RoomView = (typeof ROOM_VIEWS)[number];

/** The buttons in the order drawn, with their labels. */
export const ROOM_VIEW_LABELS: Record<RoomView, string> = {
  ultimas: ROOM_TEXTS.latest,
  proximas: ROOM_TEXTS.upcoming,
  todas: ROOM_TEXTS.all,
};

/**
 * The view a query value asks for; anything else (absent included) is 'todas': whoever scans the code sees the whole
 * day, what was done and what is next, and one tap narrows it.
 */
export function parseRoomView(value: string | null | undefined): RoomView {
  const view = value?.trim().toLowerCase();
  return ROOM_VIEWS.find((known) => known === view) ?? "todas";
}

/** The cards of a view; empty means the page says 'Sem Informações'. */
export function roomCards<Card extends Pick<RoomCard, "state">>(day: RoomDay<Card>, view: RoomView): Card[] {
  return view === "ultimas" ? day.latest : view === "proximas" ? day.upcoming : day.all;
}

/**
 * The cards with `late` (issue 27): an upcoming hour of today whose end is before `now` ('HH:mm', Fortaleza) was not
 * done in its time. 'Próximas Limpezas' lists those apart as 'Atrasadas'; another day's page marks none.
 */
export function withLateHours<Card extends Pick<RoomCard, "state" | "scheduled">>(
  cards: readonly Card[],
  day: { date: string; today: string; now: string },
): (Card & { late: boolean })[] {
  const now = minutesOf(day.now);
  return cards.map((card) => ({
    ...card,
    late:
      day.date === day.today &&
      card.state === "upcoming" &&
      card.scheduled !== null &&
      minutesOf(card.scheduled.horaFim) < now,
  }));
}
