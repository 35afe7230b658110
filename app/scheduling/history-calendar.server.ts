import type { AppLoadContext } from "@remix-run/node";
import { addDays, addMonths, endOfMonth, format } from "date-fns";
import { ptBR } from "date-fns/locale";

import { MAX_BOOKING_ROWS } from "../../api/domain/limits";
import { can } from "../../api/domain/roles";
import { businessToday, dayOf, isoDay } from "../../api/domain/schedule-expansion";
import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts";

import type { SignedInCaller } from "~/api.server";
import { weekdayDateBR } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { textParam } from "~/lib/list-params";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";
import { listBookingsOfRange, summariseBookings, type Booking, type BookingScope } from "~/models/agendas.server";
import { readBranchChoice } from "~/models/branches.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";

import type { CalendarCard, CalendarData, CalendarDay, CalendarGroup } from "./calendar";

export const HISTORY_PATH = "/historico-agenda";

export type HistoryArgs = { request: Request; context: AppLoadContext };

/** The page's URL state: ?mes=yyyy-MM&dia=yyyy-MM-dd&filial=&q= (every value optional). */
export type HistoryState = { mes: string; dia: string | null; filial: number | null; q: string };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads the URL. A missing or malformed month is the current one (Fortaleza); a day outside the month is dropped, so
 * the page picks one itself. Years are kept to 2000-2100 so a hand-typed URL cannot ask date-fns for year 0 or 99999.
 */
export function readHistoryState(url: URL, today: string): HistoryState {
  const search = url.searchParams;
  const mesParam = search.get("mes") ?? "";
  const match = MONTH.exec(mesParam);
  const year = match ? Number(match[1]) : 0;
  const mes = match && year >= 2000 && year <= 2100 ? mesParam : today.slice(0, 7);
  const diaParam = search.get("dia") ?? "";
  const dia = DAY.test(diaParam) && diaParam.startsWith(`${mes}-`) && isRealDay(diaParam) ? diaParam : null;
  const filialParam = search.get("filial") ?? "";
  const filial = /^\d{1,10}$/.test(filialParam) ? Number(filialParam) : null;
  return { mes, dia, filial: filial && filial <= 2 ** 31 - 1 ? filial : null, q: textParam(search.get("q"), 100) };
}

function isRealDay(day: string) {
  const date = dayOf(day);
  return !Number.isNaN(date.getTime()) && isoDay(date) === day;
}

/** A link to the page with some state changed; empty values are left out to keep the URL short. */
export function historyHref(state: HistoryState, changes: Partial<HistoryState>, path: string = HISTORY_PATH) {
  const next = { ...state, ...changes };
  const search = new URLSearchParams();
  search.set("mes", next.mes);
  if (next.dia) search.set("dia", next.dia);
  if (next.filial) search.set("filial", String(next.filial));
  if (next.q) search.set("q", next.q);
  return `${path}?${search}`;
}

/** The search of the page (ours: the spec shows the box, not its fields): collaborator, environment, sector, times. */
const HISTORY_SEARCH_FIELDS = "colaborador,ambiente,setor,horario";

/**
 * Cards the calendar draws for one day (the spec's 'agenda page by 500'); a day with more says so and offers the
 * search (docs/agenda-calendar.md 'Loading').
 */
export const CALENDAR_DAY_LIMIT = MAX_BOOKING_ROWS;

/** The day shown: the URL's, else today in the current month, else the month's first day with bookings, else the 1st. */
function selectedDay(state: HistoryState, counts: Map<string, number>, today: string) {
  if (state.dia) return state.dia;
  if (today.startsWith(`${state.mes}-`)) return today;
  return [...counts.keys()].sort()[0] ?? `${state.mes}-01`;
}

/**
 * The calendar pages' data (this page and /agendamentos' list): the active branches a company-wide user may pick
 * (null for the others; a `filial` the caller may not read is 404, readBranchChoice), the visible
 * month's bookings per day in that scope whose `searchFields` hold the search (counted by the API, so a month of a
 * large company costs what a day costs), and the chosen day's bookings, at most CALENDAR_DAY_LIMIT.
 */
export async function loadCalendarMonth(api: SignedInCaller, state: HistoryState, searchFields: string) {
  const choice = await readBranchChoice(api, state.filial);
  if (!choice.ok) return failLoad(api, choice, T.loadFailed);
  const { branches } = choice;
  const scope: BookingScope = choice.filial ? { filialId: choice.filial } : scopeQuery(api.auth);
  state.filial = choice.filial;

  const first = dayOf(`${state.mes}-01`);
  const search = state.q.trim() ? { q: state.q.trim(), campos: searchFields } : {};
  const summary = await summariseBookings(
    api,
    { dataIni: isoDay(first), dataFim: isoDay(endOfMonth(first)), ...search },
    scope,
  );
  if (!summary.ok) return failLoad(api, summary, T.loadFailed);
  const counts = new Map<string, number>();
  for (const row of summary.data) counts.set(row.dataAgend, (counts.get(row.dataAgend) ?? 0) + row.total);
  const selected = selectedDay(state, counts, businessToday());
  const day = await listBookingsOfRange(api, { dataIni: selected, dataFim: selected, ...search }, scope, {
    limit: CALENDAR_DAY_LIMIT,
  });
  if (!day.ok) return failLoad(api, day, T.loadFailed);
  return { branches, counts, selected, bookings: day.data };
}

/** 'Mostrando 500 de 812 agendamentos deste dia …' when the day holds more than the page draws. */
function dayNotice(total: number, shown: number) {
  if (total <= shown) return null;
  const n = (value: number) => value.toLocaleString("pt-BR");
  return `Mostrando ${n(shown)} de ${n(total)} agendamentos deste dia. Use a busca para encontrar os demais.`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const monthName = (date: Date) => format(date, "MMMM 'de' yyyy", { locale: ptBR });

/**
 * The calendar of one month: `counts` are the month's bookings per day, `bookings` the chosen day's (in the API's day
 * and time order, at most CALENDAR_DAY_LIMIT); only those cards and the counts leave the server.
 */
export function buildCalendar(
  state: HistoryState,
  month: { counts: Map<string, number>; selected: string; bookings: Booking[] },
  today: string,
  options: { showBranch: boolean; path?: string },
): CalendarData {
  const href = (changes: Partial<HistoryState>) => historyHref(state, changes, options.path);
  const first = dayOf(`${state.mes}-01`);
  const { counts, selected, bookings } = month;

  // The week (Sunday to Saturday) of the chosen day: seven links that fit a phone, no strip to scroll sideways
  // (issue 27). Days of the next or previous month link to that month; their bookings are not counted here.
  const chosen = dayOf(selected);
  const sunday = addDays(chosen, -chosen.getDay());
  const dayHref = (iso: string) => href({ mes: iso.slice(0, 7), dia: iso });
  const days: CalendarDay[] = [];
  for (let offset = 0; offset < 7; offset++) {
    const date = addDays(sunday, offset);
    const iso = isoDay(date);
    const inMonth = iso.startsWith(`${state.mes}-`);
    const count = inMonth ? (counts.get(iso) ?? 0) : 0;
    const isToday = iso === today;
    const parts = [format(date, "EEEE, d 'de' MMMM", { locale: ptBR })];
    if (isToday) parts.push("hoje");
    if (inMonth)
      parts.push(count === 0 ? "sem agendamentos" : `${count} ${count === 1 ? "agendamento" : "agendamentos"}`);
    days.push({
      iso,
      day: date.getDate(),
      weekday: format(date, "EEEEEE", { locale: ptBR }),
      label: parts.join(", "),
      count,
      isToday,
      isSelected: iso === selected,
      inMonth,
      href: dayHref(iso),
    });
  }
  const saturday = addDays(sunday, 6);
  const dayMonth = (date: Date) => format(date, "d 'de' MMMM", { locale: ptBR });
  const week = {
    title: `${sunday.getMonth() === saturday.getMonth() ? sunday.getDate() : dayMonth(sunday)} a ${dayMonth(saturday)}`,
    previous: dayHref(isoDay(addDays(chosen, -7))),
    next: dayHref(isoDay(addDays(chosen, 7))),
  };

  const groups: CalendarGroup[] = [];
  for (const booking of bookings) {
    const hour = `${Number(booking.horaIni.slice(0, 2))}h`;
    const card: CalendarCard = {
      id: booking.id,
      nome: booking.User.nome,
      ambiente: booking.Agenda.Environment.name,
      horario: `${booking.horaIni} - ${booking.horaFim}`,
      tipo: booking.type,
      filial: options.showBranch ? booking.Empresa.NOME : null,
    };
    const last = groups.at(-1);
    if (last?.hour === hour) last.cards.push(card);
    else groups.push({ hour, cards: [card] });
  }

  const previous = addMonths(first, -1);
  const next = addMonths(first, 1);
  return {
    monthTitle: capitalised(monthName(first)),
    previous: { href: href({ mes: format(previous, "yyyy-MM"), dia: null }), label: monthName(previous) },
    next: { href: href({ mes: format(next, "yyyy-MM"), dia: null }), label: monthName(next) },
    today:
      today.startsWith(`${state.mes}-`) && selected === today ? null : href({ mes: today.slice(0, 7), dia: today }),
    days,
    week,
    selectedTitle: weekdayDateBR(selected),
    selected,
    groups,
    emptyText: state.q.trim() ? NO_SEARCH_RESULTS : T.calendarEmpty,
    notice: dayNotice(counts.get(selected) ?? 0, bookings.length),
  };
}

/**
 * /historico-agenda (spec 001 §2.4): any signed-in user (the route table says 'private'), within their scope. The
 * loader asks the API for the visible month only (docs/agenda-calendar.md 'Loading'); company-wide users may narrow it
 * to one active branch, branch-level users and clients see their own branch.
 */
export async function historyCalendarLoader({ request, context }: HistoryArgs) {
  const auth = await requirePage(request, context, HISTORY_PATH);
  const api: SignedInCaller = { context, request, auth };
  const today = businessToday();
  const state = readHistoryState(new URL(request.url), today);

  const { branches, ...month } = await loadCalendarMonth(api, state, HISTORY_SEARCH_FIELDS);

  return {
    canCreate: can(auth.user, "manageRegisters"),
    branches,
    state,
    calendar: buildCalendar(state, month, today, { showBranch: branches !== null && state.filial === null }),
  };
}
