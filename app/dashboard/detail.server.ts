import type { LoaderFunctionArgs } from "@remix-run/node";

import {
  BOARD_TEXTS as T,
  businessTime,
  isInProgress,
  performedSpan,
  scheduleDetailRows,
  type DetailSlot,
  type PerformedSpan,
} from "../../api/domain/board";
import { receivedIfDiffers } from "../../api/domain/field-proof";
import { INT32_MAX } from "../../api/domain/fields";
import { ALTERNATE_DAYS_TEXT, businessToday, parseBusinessDate } from "../../api/domain/schedule-expansion";
import { MAX_CLEANINGS } from "../../api/domain/schedule-rules";
import { SCHEDULE_TEXTS } from "../../api/domain/schedule-texts";

import type { SignedInCaller } from "~/api.server";
import { avatarThumbUrl } from "~/lib/avatars";
import { businessDateTime, weekdayDateBR } from "~/lib/business-time.server";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { listBookingsOfRange } from "~/models/agendas.server";
import { listAgendaHistory, type HistoryEntry } from "~/models/history.server";
import { scopeQuery } from "~/models/scope.server";
import { requirePage } from "~/session.server";

import { DASHBOARD_PATH, isBoardHref } from "./board.server";

/**
 * /dashboard/agenda/:agendaId?dia=&aba=&voltar= : the schedule detail (spec 001 §2.7) and, as its second tab, the
 * schedule history (§2.8) of one agenda on one day. Two API calls: the agenda's bookings of the day (its planned slots)
 * and the agenda's history of the day (what was done, including in slots no longer planned: 'Fez a mais').
 */
export async function detailLoader({ request, context, params }: LoaderFunctionArgs) {
  const auth = await requirePage(request, context, DASHBOARD_PATH);
  const api: SignedInCaller = { context, request, auth };
  const url = new URL(request.url);
  const agendaId = /^\d{1,10}$/.test(params.agendaId ?? "") ? Number(params.agendaId) : 0;
  invariantResponse(agendaId > 0 && agendaId <= INT32_MAX, SCHEDULE_TEXTS.agendaNotFound, { status: 404 });
  const dia = parseBusinessDate(url.searchParams.get("dia") ?? "") ?? businessToday();
  const voltarParam = url.searchParams.get("voltar") ?? "";
  const voltar = isBoardHref(voltarParam) ? voltarParam : DASHBOARD_PATH;
  const aba = url.searchParams.get("aba") === "historico" ? "historico" : "detalhes";

  const range = { dataIni: dia, dataFim: dia };
  const [bookings, history] = await Promise.all([
    // One agenda's day: at most its 20 slots.
    listBookingsOfRange(api, { ...range, agendaId }, scopeQuery(auth), { limit: MAX_CLEANINGS }),
    listAgendaHistory(api, { ...range, agendaId }),
  ]);
  if (!bookings.ok) return failLoad(api, bookings, `${T.loadFailedTitle}: ${T.loadFailed}`);
  if (!history.ok) return failLoad(api, history, `${T.loadFailedTitle}: ${T.loadFailed}`);
  const first = bookings.data[0];
  const entry = history.data[0];
  invariantResponse(first || entry, SCHEDULE_TEXTS.bookingNotFound, { status: 404 });

  const planned = new Set(bookings.data.map((booking) => booking.id));
  const slots: DetailSlot[] = bookings.data.map((booking) => ({
    horaIni: booking.horaIni,
    horaFim: booking.horaFim,
    status: booking.status,
    performed: performedSpan({
      status: booking.status,
      startDate: booking.startDate,
      finishedAt: booking.finishedAt,
      history: booking.Historic,
    }),
    proof: { viaQr: booking.viaQr, envioAtrasoS: booking.envioAtrasoS },
  }));
  const extras = unplannedVisits(history.data.filter((row) => !planned.has(row.agendamentoId)));

  const avatar = first?.User.avatar;
  return {
    texts: T,
    aba,
    voltar,
    tabHrefs: {
      detalhes: `${url.pathname}?${new URLSearchParams({ dia, voltar })}`,
      historico: `${url.pathname}?${new URLSearchParams({ dia, voltar, aba: "historico" })}`,
    },
    title: first?.Agenda.Environment.name ?? entry!.Agendamento.Environment.name,
    subtitle: weekdayDateBR(dia),
    facts: first
      ? [
          [T.environment, first.Agenda.Environment.name],
          [T.sector, first.Agenda.Environment.Setor.name],
          [T.category, first.Agenda.Environment.Categoria.name],
          [
            T.weekdays,
            first.Agenda.Periodicidade.type === "12X" ? ALTERNATE_DAYS_TEXT : first.Agenda.Periodicidade.DIAS_SEMANA,
          ],
        ]
      : [[T.environment, entry!.Agendamento.Environment.name]],
    who: first ? { nome: first.User.nome, avatarUrl: avatar ? avatarThumbUrl(avatar) : null } : null,
    rows: scheduleDetailRows(slots, extras),
    slots: bookings.data.map((booking) => ({
      id: booking.id,
      horario: `${booking.horaIni} - ${booking.horaFim}`,
      tipo: booking.type,
      emAndamento: isInProgress(booking.status),
      justificativa: booking.justificativa,
      // When the server received the start and the end, where a minute or more after the phone did them
      // (docs/field-app.md 'Proof flags').
      inicioRecebido: received(booking.startDate, booking.startReceivedAt),
      fimRecebido: received(booking.finishedAt, booking.finishReceivedAt),
    })),
    history: history.data.map((row) => ({
      id: row.id,
      hora: businessTime(row.createdAt),
      procedimento: row.Procedure.name,
      colaborador: row.nameUser.name,
      horario: `${row.Agendamento.horaIni} - ${row.Agendamento.horaFim}`,
      emAndamento: isInProgress(row.Agendamento.status),
      observacao: row.observacao,
      foto: row.image !== null,
      recebidoEm: received(row.createdAt, row.receivedAt),
    })),
  };
}

/** A received instant as the detail shows it ('dd/MM/yyyy HH:mm:ss'), or null when it is the done one give or take. */
function received(done: string | null, receivedAt: string | null) {
  const shown = receivedIfDiffers(done, receivedAt);
  return shown ? businessDateTime(shown) : null;
}

/** The executions of slots no longer planned (removed bookings): one visit per booking, with its times. */
function unplannedVisits(rows: HistoryEntry[]): PerformedSpan[] {
  const byBooking = new Map<number, HistoryEntry[]>();
  for (const row of rows) byBooking.set(row.agendamentoId, [...(byBooking.get(row.agendamentoId) ?? []), row]);
  return [...byBooking.values()].map((entries) =>
    performedSpan({
      status: entries[0].Agendamento.status,
      startDate: entries[0].Agendamento.startDate,
      finishedAt: entries[0].Agendamento.finishedAt,
      history: entries,
    }),
  );
}
