/**
 * A room of the test's own with an agenda for today and the ASG's phone (the execution API, POST
 * /api/execution/...), for the browser tests that need history: the board, the reports. No screen records executions,
 * so the tests do what the phone does.
 */
import type { APIRequestContext } from "@playwright/test";

import { businessToday } from "./e2e-agendas.ts";
import { BRANCHES } from "./e2e-catalogues.ts";
import { DEMO_PASSWORD } from "./e2e-data.ts";
import { apiToken, createEnvironments } from "./e2e-environments.ts";
import { expect } from "./e2e-fixtures.ts";

export const ASG_NAME = "Sebastião ASG";

type Environment = Parameters<typeof createEnvironments>[1][number];
type Multipart = Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;

/**
 * `environment` (created in Filial Aldeota unless it says otherwise) with an agenda for today only for `asg` (Sebastião,
 * the demo ASG of Aldeota, unless told): the main cleaning `slots[0]`, the revisions after it. Answers today's date, the agenda, and the
 * phone: `slot(ini)` is the booking of the slot starting at `ini`, `procedure(name)` the room's procedure id,
 * `call(path)` one execution call (it must succeed).
 */
export async function agendaToday(
  request: APIRequestContext,
  environment: Environment,
  slots: readonly (readonly [ini: string, fim: string])[],
  asg: { email: string; nome: string } = { email: "asg@demo.com.br", nome: ASG_NAME },
) {
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const room = { ...environment, branch: environment.branch ?? "aldeota" };
  const [environmentId] = await createEnvironments(request, [room]);
  const branch = BRANCHES[room.branch].id;
  const asgs = await request.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${branch}`, { headers: admin });
  const collaborator = ((await asgs.json()) as { id: number; nome: string }[]).find((user) => user.nome === asg.nome)!;
  const today = businessToday();
  const saved = await request.post("/api/agendas/v2/saveAgenda", {
    headers: admin,
    data: [
      {
        Id_EmpresasFilial: branch,
        Id_Environments: environmentId,
        Id_Users: collaborator.id,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: slots[0][0],
          hora_base_final: slots[0][1],
          Revisoes: slots.slice(1).map(([ini, fim]) => ({ HORA_INICIAL: ini, HORA_FINAL: fim })),
        },
        revisionPhotos: false,
        vigIni: today,
        vigFim: today,
      },
    ],
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const [{ ID: agendaId }] = (await saved.json()) as { ID: number }[];

  const session = await request.post("/api/sessions", { data: { email: asg.email, password: DEMO_PASSWORD } });
  expect(session.status()).toBe(200);
  const phone = { authorization: `Bearer ${((await session.json()) as { token: string }).token}` };
  const day = await request.get(`/api/execution/bookings?date=${today}`, { headers: phone });
  expect(day.status(), await day.text()).toBe(200);
  type Booking = {
    agendaId: number;
    procedures: { id: number; name: string }[];
    slots: { id: number; horaIni: string }[];
  };
  const mine = ((await day.json()) as { bookings: Booking[] }).bookings.find(
    (booking) => booking.agendaId === agendaId,
  )!;
  return {
    today,
    environmentId,
    agendaId,
    /** The room's procedures as the phone lists them. */
    procedures: mine.procedures,
    slot: (ini: string) => mine.slots.find((candidate) => candidate.horaIni === ini)!.id,
    procedure: (name: string) => String(mine.procedures.find((candidate) => candidate.name === name)!.id),
    /** One call of the phone (it must succeed), its answer; `multipart` for a procedure and its photo, `data` JSON. */
    call: async (path: string, options: { data?: unknown; multipart?: Multipart } = {}) => {
      const answer = await request.post(`/api/execution/bookings/${path}`, { headers: phone, ...options });
      expect(answer.status(), await answer.text()).toBeLessThan(300);
      return (await answer.json()) as unknown;
    },
  };
}
