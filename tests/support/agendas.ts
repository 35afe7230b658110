/**
 * Agendas for the API tests: the saveAgenda payload of one day's slots, so a test states only what it is about
 * (which room, whose, which slots) and gets the bookings the reports and the execution API read.
 */
import { expect } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";

import type { TestApi } from "./api.ts";
import { userByEmail } from "./demo.ts";

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

/**
 * The ASG's slot of today, started: an agenda of today (periodicity 12X, 08:00-09:00) saved by `adminToken`'s user for
 * asg@demo.com.br in the branch's first room with `minProcedures` procedures or more, and its booking started with
 * `asgToken`. Answers the booking and the room's procedures in id order (the photo tests record them one by one).
 */
export async function startedSlotToday(
  t: TestApi,
  tokens: { admin: string; asg: string },
  branch: number,
  minProcedures = 3,
) {
  const today = businessToday();
  const room = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .select("e.id")
    .where("e.branch_id", "=", branch)
    .where("e.deleted_at", "is", null)
    .groupBy("e.id")
    .having((eb) => eb.fn.countAll(), ">=", minProcedures)
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  const asg = await userByEmail(t.db, "asg@demo.com.br");
  const saved = await t.post(
    "/api/agendas/v2/saveAgenda",
    [
      {
        Id_EmpresasFilial: branch,
        Id_Environments: room.id,
        Id_Users: asg.id,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: "08:00",
          hora_base_final: "09:00",
          Revisoes: [],
        },
        revisionPhotos: false,
        vigIni: today,
        vigFim: today,
      },
    ],
    { token: tokens.admin },
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  const booking = (
    await t.db
      .selectFrom("bookings")
      .select("id")
      .where("agenda_id", "=", saved.body[0].ID)
      .where("data_agend", "=", today)
      .executeTakeFirstOrThrow()
  ).id;
  const procedures = (
    await t.db
      .selectFrom("environment_procedures")
      .select("procedure_id")
      .where("environment_id", "=", room.id)
      .orderBy("procedure_id")
      .execute()
  ).map((row) => row.procedure_id);
  const started = await t.post(`/api/execution/bookings/${booking}/start`, undefined, { token: tokens.asg });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return { booking, procedures };
}
