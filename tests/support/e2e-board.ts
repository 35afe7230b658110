/**
 * Today's agenda with executions, for the board and room page browser tests (tests/e2e/board.spec.ts): an environment
 * of the test's own ('{prefix} Aldeota'), an agenda for today only (Sebastião, the demo ASG of Aldeota) with a main
 * cleaning and three revisions, and the ASG's phone calls over the API (POST /api/execution/...): the main cleaning
 * done, the first revision started, the second reported incomplete, the third untouched. So each of the board's four
 * columns holds one card of this test.
 */
import type { APIRequestContext } from "@playwright/test";

import { businessToday } from "./e2e-agendas.ts";
import { BRANCHES } from "./e2e-catalogues.ts";
import { DEMO_PASSWORD } from "./e2e-data.ts";
import { apiToken, createEnvironments } from "./e2e-environments.ts";
import { expect } from "./e2e-fixtures.ts";

export const TODAY_SLOTS = [
  { ini: "06:00", fim: "07:00", tipo: "Principal", column: "Feito" },
  { ini: "10:00", fim: "10:30", tipo: "Revisão", column: "Fazendo" },
  { ini: "13:00", fim: "13:30", tipo: "Revisão", column: "Intercorrência" },
  { ini: "16:00", fim: "16:30", tipo: "Revisão", column: "A fazer" },
] as const;

export const ASG_NAME = "Sebastião ASG";
export const INCOMPLETE_REASON = "Faltou material de limpeza";

export async function createTodayWithExecutions(request: APIRequestContext, prefix: string) {
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const environment = `${prefix} Aldeota`;
  const [environmentId] = await createEnvironments(request, [
    { name: environment, andar: "Térreo", branch: "aldeota", category: "Banheiro", sector: "Recepção" },
  ]);
  const asgs = await request.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${BRANCHES.aldeota.id}`, {
    headers: admin,
  });
  const asg = ((await asgs.json()) as { id: number; nome: string }[]).find((user) => user.nome === ASG_NAME)!;
  const today = businessToday();
  const saved = await request.post("/api/agendas/v2/saveAgenda", {
    headers: admin,
    data: [
      {
        Id_EmpresasFilial: BRANCHES.aldeota.id,
        Id_Environments: environmentId,
        Id_Users: asg.id,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: TODAY_SLOTS[0].ini,
          hora_base_final: TODAY_SLOTS[0].fim,
          Revisoes: TODAY_SLOTS.slice(1).map((slot) => ({ HORA_INICIAL: slot.ini, HORA_FINAL: slot.fim })),
        },
        revisionPhotos: false,
        vigIni: today,
        vigFim: today,
      },
    ],
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const [{ ID: agendaId }] = (await saved.json()) as { ID: number }[];

  // The ASG's phone.
  const session = await request.post("/api/sessions", { data: { email: "asg@demo.com.br", password: DEMO_PASSWORD } });
  expect(session.status()).toBe(200);
  const phone = { authorization: `Bearer ${((await session.json()) as { token: string }).token}` };
  const day = await request.get(`/api/execution/bookings?date=${today}`, { headers: phone });
  expect(day.status(), await day.text()).toBe(200);
  type Slot = { id: number; horaIni: string };
  const mine = (
    (await day.json()) as { bookings: { agendaId: number; procedures: { id: number }[]; slots: Slot[] }[] }
  ).bookings.find((booking) => booking.agendaId === agendaId)!;
  const slot = (ini: string) => mine.slots.find((candidate) => candidate.horaIni === ini)!.id;
  const call = async (path: string, options: { data?: unknown; multipart?: Record<string, string> } = {}) => {
    const answer = await request.post(`/api/execution/bookings/${path}`, { headers: phone, ...options });
    expect(answer.status(), await answer.text()).toBeLessThan(300);
  };
  await call(`${slot(TODAY_SLOTS[0].ini)}/start`);
  await call(`${slot(TODAY_SLOTS[0].ini)}/procedures`, {
    multipart: { procedureId: String(mine.procedures[0].id), observacao: "Piso limpo e seco" },
  });
  await call(`${slot(TODAY_SLOTS[0].ini)}/finish`);
  await call(`${slot(TODAY_SLOTS[1].ini)}/start`);
  await call(`${slot(TODAY_SLOTS[2].ini)}/incomplete`, { data: { justificativa: INCOMPLETE_REASON } });
  return { environment, environmentId, agendaId, today };
}
