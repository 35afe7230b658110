import { businessToday } from "../../api/domain/schedule-expansion";

import { AGENDAMENTOS_PATH, requireAgendamentos, type AgendamentosArgs } from "./agendamentos.server";
import { buildCalendar, historyHref, loadCalendarMonth, readHistoryState } from "./history-calendar.server";

/**
 * The list tab's search (spec 001 §2.1): case-insensitive (and accent-insensitive, as every search here) on the times,
 * the user's name and e-mail, the environment and the sector.
 */
const LIST_SEARCH_FIELDS = "horario,colaborador,email,ambiente,setor";

/**
 * 'Listar agendamentos': the agenda calendar of /historico-agenda (month, day strip, the day's cards by hour) in write
 * mode, with the URL state ?mes=&dia=&filial=&q= of that page; each card gets 'Editar' (the agenda, titled with the
 * booking's date) and 'Remover' (the booking, after 'Tem certeza que deseja remover?').
 */
export async function agendamentosListLoader(args: AgendamentosArgs) {
  const { api } = await requireAgendamentos(args);
  const today = businessToday();
  const url = new URL(args.request.url);
  const state = readHistoryState(url, today);

  const { branches, ...month } = await loadCalendarMonth(api, state, LIST_SEARCH_FIELDS);
  const calendar = buildCalendar(state, month, today, {
    showBranch: branches !== null && state.filial === null,
    path: AGENDAMENTOS_PATH,
  });

  // The card actions keep the list's view (month, day, search) to come back to after the edit or the removal.
  const back = historyHref({ ...state, dia: calendar.selected }, {}, AGENDAMENTOS_PATH);
  const actions: Record<number, { edit: string; remove: string }> = {};
  for (const booking of month.bookings) {
    const query = new URLSearchParams({ dia: booking.dataAgend, redirectTo: back });
    actions[booking.id] = {
      edit: `${AGENDAMENTOS_PATH}/${booking.agendaId}/editar?${query}`,
      remove: `${AGENDAMENTOS_PATH}/${booking.id}/remover?${query}`,
    };
  }
  return { branches, state, calendar, actions };
}
