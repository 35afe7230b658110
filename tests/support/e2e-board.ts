/**
 * Today's agenda with executions, for the board and room page browser tests (tests/e2e/board.spec.ts): an environment
 * of the test's own ('{prefix} Aldeota'), an agenda for today only (Sebastião, the demo ASG of Aldeota) with a main
 * cleaning and three revisions, and the ASG's phone calls over the API (POST /api/execution/...): the main cleaning
 * done, the first revision started, the second reported incomplete, the third untouched. So each of the board's four
 * columns holds one card of this test.
 */
import type { APIRequestContext } from "@playwright/test";

import { agendaToday } from "./e2e-execution.ts";

export const TODAY_SLOTS = [
  { ini: "06:00", fim: "07:00", tipo: "Principal", column: "Feito" },
  { ini: "10:00", fim: "10:30", tipo: "Revisão", column: "Fazendo" },
  { ini: "13:00", fim: "13:30", tipo: "Revisão", column: "Intercorrência" },
  { ini: "16:00", fim: "16:30", tipo: "Revisão", column: "A fazer" },
] as const;

export const INCOMPLETE_REASON = "Faltou material de limpeza";

export async function createTodayWithExecutions(request: APIRequestContext, prefix: string) {
  const environment = `${prefix} Aldeota`;
  const phone = await agendaToday(
    request,
    { name: environment, andar: "Térreo", branch: "aldeota", category: "Banheiro", sector: "Recepção" },
    TODAY_SLOTS.map((slot) => [slot.ini, slot.fim] as const),
  );
  const slot = (index: number) => phone.slot(TODAY_SLOTS[index].ini);
  await phone.call(`${slot(0)}/start`);
  await phone.call(`${slot(0)}/procedures`, {
    multipart: { procedureId: String(phone.procedures[0].id), observacao: "Piso limpo e seco" },
  });
  await phone.call(`${slot(0)}/finish`);
  await phone.call(`${slot(1)}/start`);
  await phone.call(`${slot(2)}/incomplete`, { data: { justificativa: INCOMPLETE_REASON } });
  return { environment, environmentId: phone.environmentId, agendaId: phone.agendaId, today: phone.today };
}
