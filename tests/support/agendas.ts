/**
 * Agendas for the API tests: the saveAgenda payload of one day's slots, so a test states only what it is about
 * (which room, whose, which slots) and gets the bookings the reports and the execution API read.
 */
import { expect } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";

import type { TestApi } from "./api.ts";

/** Every weekday: an agenda with it has a booking on each day of its validity. */
export const EVERY_DAY = "Domingo - Segunda - Terça - Quarta - Quinta - Sexta - Sábado";

/**
 * Saves (as `token`'s user) an agenda of one day (`day`, default today) for `user` in `environment` of `branch`: the
 * main cleaning `slots[0]`, the revisions after it. Answers the agenda's id; fails the test unless it is saved.
 */
export async function saveDayAgenda(
  t: TestApi,
  token: string,
  agenda: {
    branch: number;
    environment: number;
    user: number;
    slots: readonly (readonly [ini: string, fim: string])[];
    day?: string;
  },
) {
  const day = agenda.day ?? businessToday();
  const [[ini, fim], ...revisions] = agenda.slots;
  const answer = await t.post(
    "/api/agendas/v2/saveAgenda",
    [
      {
        Id_EmpresasFilial: agenda.branch,
        Id_Environments: agenda.environment,
        Id_Users: agenda.user,
        Periodicidade: {
          type: "sem",
          DIAS_SEMANA: EVERY_DAY,
          hora_base_inicial: ini,
          hora_base_final: fim,
          Revisoes: revisions.map(([start, end]) => ({ HORA_INICIAL: start, HORA_FINAL: end })),
        },
        revisionPhotos: false,
        vigIni: day,
        vigFim: day,
      },
    ],
    { token },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body[0].ID as number;
}
