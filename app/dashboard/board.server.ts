import type { LoaderFunctionArgs } from "@remix-run/node";
import { differenceInCalendarDays, addDays } from "date-fns";

import {
  BOARD_COLUMNS,
  BOARD_TEXTS as T,
  boardColumn,
  boardColumnOf,
  boardPeriod,
  COLUMN_STATUS_FILTER,
  periodHeading,
  performedSpan,
  businessTime,
  type BoardColumnKey,
} from "../../api/domain/board";
import { MAX_BOOKING_ROWS, MAX_SUMMARY_DAYS } from "../../api/domain/limits";
import { can } from "../../api/domain/roles";
import { businessToday, dayOf, isoDay } from "../../api/domain/schedule-expansion";

import type { SignedInCaller } from "~/api.server";
import { openIncidentsOf } from "~/incidents/incidents.server";
import { avatarThumbUrl } from "~/lib/avatars";
import { failLoad } from "~/lib/fail-load.server";
import { formatDateBR } from "~/lib/format";
import { textParam } from "~/lib/list-params";
import { listBookingsOfRange, summariseBookings, type Booking } from "~/models/agendas.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";

import { SEARCH_FIELDS, type SearchField } from "./search-fields";

export const DASHBOARD_PATH = "/dashboard";

const FIELD_KEYS = Object.keys(SEARCH_FIELDS) as SearchField[];

/** Longest period the board shows (ours): a month of a large company is already thousands of cards. */
export const MAX_PERIOD_DAYS = MAX_SUMMARY_DAYS;
/** Cards drawn per column, and how many more 'Mostrar mais' adds (ours: a phone cannot scroll thousands). */
export const CARDS_STEP = 30;
/** The most cards a column (or the table) draws: one page of the API (docs/security.md 'Limits'). */
export const MAX_CARDS = MAX_BOOKING_ROWS;

/** A board URL of ours (a detail's way back: the link is shared by e-mail, so it must not send anyone elsewhere). */
export const isBoardHref = (href: string) => href === DASHBOARD_PATH || href.startsWith(`${DASHBOARD_PATH}?`);

/** The board a URL shows: its own query, or on a card's detail (a nested route) the board it came from. */
function boardUrl(url: URL) {
  if (url.pathname === DASHBOARD_PATH) return url;
  const voltar = url.searchParams.get("voltar") ?? "";
  return new URL(isBoardHref(voltar) ? voltar : DASHBOARD_PATH, url);
}

/** The page's URL state: ?inicio=&fim=&q=&campos=&vista=&limite= (all optional). */
export type BoardState = {
  inicio: string;
  fim: string;
  q: string;
  campos: SearchField[];
  vista: "quadro" | "tabela";
  limite: number;
};

export function readBoardState(url: URL, today: string): BoardState & { clamped: boolean } {
  const search = url.searchParams;
  const period = boardPeriod({ dataIni: search.get("inicio"), dataFim: search.get("fim") }, today);
  let fim = period.to;
  const clamped = differenceInCalendarDays(dayOf(fim), dayOf(period.from)) >= MAX_PERIOD_DAYS;
  if (clamped) fim = isoDay(addDays(dayOf(period.from), MAX_PERIOD_DAYS - 1));
  const campos = FIELD_KEYS.filter((field) => search.getAll("campos").includes(field));
  const limite = Number(search.get("limite"));
  return {
    inicio: period.from,
    fim,
    q: textParam(search.get("q"), 100),
    campos: campos.length ? campos : ["colaborador"],
    vista: search.get("vista") === "tabela" ? "tabela" : "quadro",
    limite: Number.isInteger(limite) && limite >= CARDS_STEP ? Math.min(limite, MAX_CARDS) : CARDS_STEP,
    clamped,
  };
}

/** The board's URL with some state changed; defaults are left out so links stay short. */
export function boardHref(state: BoardState, changes: Partial<BoardState> = {}, path = DASHBOARD_PATH) {
  const next = { ...state, ...changes };
  const search = new URLSearchParams({ inicio: next.inicio, fim: next.fim });
  if (next.q) search.set("q", next.q);
  if (next.campos.join() !== "colaborador") for (const field of next.campos) search.append("campos", field);
  if (next.vista !== "quadro") search.set("vista", next.vista);
  if (next.limite !== CARDS_STEP) search.set("limite", String(next.limite));
  return `${path}?${search}`;
}

/** What a card shows (and the table's row): nothing the board does not draw leaves the server. */
export type BoardCard = {
  id: number;
  agendaId: number;
  column: BoardColumnKey;
  columnTitle: string;
  /** The booking's day, dd/MM/yyyy (drawn when the period has more than one). */
  dia: string;
  horario: string;
  tipo: "Principal" | "Revisão" | "Extra";
  ambiente: string;
  setor: string;
  colaborador: string;
  avatarUrl: string | null;
  filial: string;
  /** 'Iniciado 08:05', 'Feito 08:05 - 08:52', or null when not started. */
  realizado: string | null;
  href: string;
};

function cardOf(booking: Booking, here: string, column: BoardColumnKey): BoardCard {
  const span = performedSpan({
    status: booking.status,
    startDate: booking.startDate,
    finishedAt: booking.finishedAt,
    history: booking.Historic,
  });
  const start = businessTime(span.start);
  const end = businessTime(span.end);
  return {
    id: booking.id,
    agendaId: booking.agendaId,
    column,
    columnTitle: boardColumn(column).title,
    dia: formatDateBR(booking.dataAgend),
    horario: `${booking.horaIni} - ${booking.horaFim}`,
    tipo: booking.type,
    ambiente: booking.Agenda.Environment.name,
    setor: booking.Agenda.Environment.Setor.name,
    colaborador: booking.User.nome,
    avatarUrl: booking.User.avatar ? avatarThumbUrl(booking.User.avatar) : null,
    filial: booking.Empresa.NOME,
    realizado: start === null ? null : end === null ? `${T.inProgress} desde ${start}` : `${start} - ${end}`,
    href: `${DASHBOARD_PATH}/agenda/${booking.agendaId}?${new URLSearchParams({ dia: booking.dataAgend, voltar: here })}`,
  };
}

/**
 * /dashboard (spec 001 §2.6): the bookings of the period in the user's scope (company, own branch, or client branch
 * for roleId 7: the API's own scope rule), searched in the chosen fields, in four columns by status (§4). Each column
 * draws its first `limite` cards; the table view lists the same cards.
 */
export async function boardLoader({ request, context }: LoaderFunctionArgs) {
  const auth = await requirePage(request, context, DASHBOARD_PATH);
  const api: SignedInCaller = { context, request, auth };
  const url = boardUrl(new URL(request.url));
  const { clamped, ...state } = readBoardState(url, businessToday());
  // A card's detail returns here: the board exactly as the user has it.
  const here = `${url.pathname}${url.search}`;
  const scope = scopeQuery(auth);
  const filters = {
    dataIni: state.inicio,
    dataFim: state.fim,
    ...(state.q ? { q: state.q, campos: state.campos.join(",") } : {}),
  };
  // The columns' totals are counted by the API; only the cards drawn are read (docs/dashboard.md 'Loading').
  const [summary, incidents] = await Promise.all([
    summariseBookings(api, filters, scope),
    can(auth.user, "viewIncidents") ? openIncidentsOf(api, { from: state.inicio, to: state.fim }) : null,
  ]);
  if (!summary.ok) return failLoad(api, summary, `${T.loadFailedTitle}: ${T.loadFailed}`);
  const totals: Record<BoardColumnKey, number> = { toDo: 0, inProgress: 0, done: 0, incomplete: 0 };
  for (const row of summary.data) totals[boardColumnOf(row.status)] += row.total;
  const total = Object.values(totals).reduce((sum, count) => sum + count, 0);

  const board = state.vista === "quadro";
  const pages = await Promise.all(
    board
      ? BOARD_COLUMNS.map((column) =>
          totals[column.key] === 0
            ? null
            : listBookingsOfRange(api, { ...filters, status: COLUMN_STATUS_FILTER[column.key] }, scope, {
                limit: state.limite,
              }),
        )
      : [total === 0 ? null : listBookingsOfRange(api, filters, scope, { limit: state.limite })],
  );
  const failed = pages.find((page) => page && !page.ok);
  if (failed && !failed.ok) return failLoad(api, failed, `${T.loadFailedTitle}: ${T.loadFailed}`);
  const read = pages.map((page) => (page?.ok ? page.data : []));
  const columns = BOARD_COLUMNS.map((column, index) => ({
    key: column.key,
    title: column.title,
    color: column.color,
    tooltip: column.tooltip,
    total: totals[column.key],
    cards: board ? read[index].map((booking) => cardOf(booking, here, column.key)) : [],
  }));
  // The table: the same bookings in the API's day and time order, each with its column.
  const rows = board ? [] : read[0].map((booking) => cardOf(booking, here, boardColumnOf(booking.status)));
  const more = board ? columns.some((column) => column.total > state.limite) : total > state.limite;
  const oneDay = state.inicio === state.fim;
  return {
    texts: T,
    state,
    heading: periodHeading({ from: state.inicio, to: state.fim }),
    notice:
      [
        clamped ? `O período foi limitado a ${MAX_PERIOD_DAYS} dias, até ${formatDateBR(state.fim)}.` : "",
        more && state.limite === MAX_CARDS ? T.cardsCapped : "",
      ]
        .filter(Boolean)
        .join(" ") || null,
    columns,
    rows,
    total,
    incidents: incidents?.ok ? incidents.data : null,
    showDate: !oneDay,
    showBranch: "companyId" in scope,
    moreHref:
      more && state.limite < MAX_CARDS
        ? boardHref(state, { limite: Math.min(state.limite + CARDS_STEP, MAX_CARDS) })
        : null,
    viewHref: {
      quadro: boardHref(state, { vista: "quadro" }),
      tabela: boardHref(state, { vista: "tabela" }),
    },
  };
}
