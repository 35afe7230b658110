import {
  AgendaDetail,
  AgendaSaved,
  AgendaUpdated,
  Asg,
  Booking,
  BookingSummary,
  type BookingListParams,
  type SaveAgendaBody,
  type UpdateAgendaBody,
} from "../../api/routes/agendas";
import { EnvironmentItem } from "../../api/routes/environments";

import { callApi, type SignedInCaller } from "~/api.server";

/** The agenda calls of the REST API (spec 001 §7 'agendas', docs/scheduling.md), for one signed-in user. */
export type { AgendaDetail, Asg, Booking };

/** Which bookings: the user's own scope query, or one branch (filialId) a company-wide user chose. */
export type BookingScope = { companyId: number } | { filialId: number } | { filialClientId: number };

/** What to read of the bookings: a date range, both ends included ('yyyy-MM-dd'), and the API's filters. */
export type BookingFilters = {
  dataIni: string;
  dataFim: string;
  agendaId?: number;
  /** One booking. */
  id?: number;
  /** The search, and where it looks: comma-separated fields (colaborador, email, filial, ambiente, setor, horario). */
  q?: string;
  campos?: string;
  /** One board column: aFazer (not started), Andamento, Completo, Incompleto. */
  status?: BookingListParams["status"];
};

/**
 * The bookings (one per date and slot) of a date range, in day and time order: one page of `limit` rows (the API
 * answers at most 1,000 rows at once, docs/security.md 'Limits').
 */
export function listBookingsOfRange(
  api: SignedInCaller,
  filters: BookingFilters,
  scope: BookingScope,
  page: { limit: number; page?: number },
) {
  return callApi(api, "/agendas/v2/Agendamentos/company", {
    query: { ...filters, ...scope, ...page },
    schema: Booking.array(),
  });
}

/** How many bookings per day and status (GET agendas/v2/Agendamentos/resumo: at most 31 days). */
export function summariseBookings(api: SignedInCaller, filters: Omit<BookingFilters, "agendaId">, scope: BookingScope) {
  return callApi(api, "/agendas/v2/Agendamentos/resumo", { query: { ...filters, ...scope }, schema: BookingSummary });
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
