import {
  AgendaDetail,
  AgendaSaved,
  AgendaUpdated,
  Asg,
  Booking,
  type SaveAgendaBody,
  type UpdateAgendaBody,
} from "../../api/routes/agendas";
import { EnvironmentItem } from "../../api/routes/environments";

import { callApi } from "~/api.server";

import type { SignedInCaller } from "./catalogues.server";

/** The agenda calls of the REST API (spec 001 §7 'agendas', docs/scheduling.md), for one signed-in user. */
export type { AgendaDetail, Asg, Booking };

/** Which bookings: the user's own scope query, or one branch (filialId) a company-wide user chose. */
export type BookingScope = { companyId: number } | { filialId: number } | { filialClientId: number };

/**
 * The bookings (one per date and slot) of a date range, both ends included ('yyyy-MM-dd'), in day and time order:
 * the 'agenda page fetch' form of §7, unpaged (the API allows up to 400 days without limit, a month is far below).
 */
export function listBookingsOfRange(
  api: SignedInCaller,
  range: { dataIni: string; dataFim: string; agendaId?: number },
  scope: BookingScope,
) {
  return callApi(api, "/agendas/v2/Agendamentos/company", {
    query: { ...range, ...scope },
    schema: Booking.array(),
  });
}

/** The collaborators an agenda may be for (GET agendas/v2/Agendamentos/listaAsg), in a scope or one branch. */
export function listSchedulableUsers(api: SignedInCaller, scope: BookingScope) {
  return callApi(api, "/agendas/v2/Agendamentos/listaAsg", { query: scope, schema: Asg.array() });
}

/** Every environment of one branch (the item modal's 'Ambiente' choices), by name. */
export function listBranchEnvironments(api: SignedInCaller, filialId: number) {
  return callApi(api, "/environments", { query: { filialId }, schema: EnvironmentItem.array() });
}

/** One agenda with its periodicity and revisions (what the edit modal starts from). */
export function getAgenda(api: SignedInCaller, id: number) {
  return callApi(api, `/agendas/${id}`, { schema: AgendaDetail });
}

/** 'Cadastrar': every item of the register tab's table in one call (the API writes them in one transaction). */
export function saveAgendas(api: SignedInCaller, items: SaveAgendaBody) {
  return callApi(api, "/agendas/v2/saveAgenda", { method: "POST", json: items, schema: AgendaSaved });
}

/** The edit modal's 'Salvar' (PUT agendas/updateAgenda). */
export function updateAgenda(api: SignedInCaller, body: UpdateAgendaBody) {
  return callApi(api, "/agendas/updateAgenda", { method: "PUT", json: body, schema: AgendaUpdated });
}

/** Removes (hides) one booking. */
export function deleteBooking(api: SignedInCaller, id: number) {
  return callApi(api, `/agendas/Agendamentos/${id}`, { method: "DELETE" });
}
