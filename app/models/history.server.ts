import { HistoryEntry } from "../../api/routes/history";

import { callApi, type SignedInCaller } from "~/api.server";

export type { HistoryEntry };

/** The history (executed procedures) of one agenda in a date range (GET /historic/v2/agenda, spec 001 §7). */
export function listAgendaHistory(api: SignedInCaller, query: { agendaId: number; dataIni: string; dataFim: string }) {
  return callApi(api, "/historic/v2/agenda", { query, schema: HistoryEntry.array() });
}
