import { SCHEDULE_TEXTS as T } from "../../api/domain/schedule-texts";

import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { deleteBooking, listBookingsOfRange } from "~/models/agendas.server";
import { scopeQuery } from "~/models/scope.server";
import { safeRedirectTo, signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import {
  AGENDAMENTOS_PATH,
  brDate,
  dayParam,
  idOf,
  requireAgendamentos,
  type AgendamentosArgs,
} from "./agendamentos.server";

/**
 * 'Remover' (spec 001 §2.1): the booking named on the page (looked up by its id on its day ?dia=), then 'Tem certeza
 * que deseja remover?'.
 */
export async function agendamentoRemoveLoader(args: AgendamentosArgs) {
  const { api, auth } = await requireAgendamentos(args);
  const id = idOf(args.params.id, T.bookingNotFound);
  const url = new URL(args.request.url);
  const dia = dayParam(url);
  invariantResponse(dia, T.bookingNotFound, { status: 404 });
  const result = await listBookingsOfRange(api, { dataIni: dia, dataFim: dia, id }, scopeQuery(auth), { limit: 1 });
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  const booking = result.data[0];
  invariantResponse(booking, T.bookingNotFound, { status: 404 });
  return {
    booking: {
      id,
      title: `${booking.Agenda.Environment.name}, ${booking.horaIni} - ${booking.horaFim}`,
      detail: `${brDate(dia)} · ${booking.User.nome} · ${booking.type}`,
    },
    back: safeRedirectTo(url.searchParams.get("redirectTo"), AGENDAMENTOS_PATH),
  };
}

/** 'Sim': DELETE agendas/Agendamentos/{id}, back to the list with 'Agendamento deletado com sucesso' (§8). */
export async function agendamentoRemoveAction(args: AgendamentosArgs) {
  const { api } = await requireAgendamentos(args);
  const id = idOf(args.params.id, T.bookingNotFound);
  const back = safeRedirectTo((await args.request.formData()).get("redirectTo"), AGENDAMENTOS_PATH);
  const result = await deleteBooking(api, id);
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return redirectWithToast(args.context, back, { type: "error", title: T.deleteFailed });
  }
  return redirectWithToast(args.context, back, { type: "success", title: T.deleted });
}
