/**
 * The history reports' calls (issue 23; docs/reports.md): the collaborators report (spec 001 §2.9) per role and
 * scope, its counts, search and paging, and the §5 period check.
 */
import { addDays, formatISO, parseISO } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const TODAY = businessToday();
const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });
const tokens: Record<string, string> = {};
let ids: Awaited<ReturnType<typeof demoIds>>;
const people: Record<string, number> = {};

/** Two slots today for `email` in a room of `branch`. */
async function agendaToday(branch: number, email: string, skip: number) {
  const room = await t.db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", branch)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .offset(skip)
    .executeTakeFirstOrThrow();
  return saveDayAgenda(t, tokens.admin, {
    branch,
    environment: room.id,
    user: people[email],
    slots: [
      ["07:00", "07:30"],
      ["15:00", "15:30"],
    ],
  });
}

beforeAll(async () => {
  for (const who of ["admin", "coordenador", "auditor", "cliente", "asg", "semnivel", "outra"]) {
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
  }
  ids = await demoIds(t.db);
  for (const email of ["asg", "ana", "bruno"]) people[email] = (await userByEmail(t.db, `${email}@demo.com.br`)).id;
  const asgAgenda = await agendaToday(ids.aldeota, "asg", 0);
  await agendaToday(ids.aldeota, "ana", 1);
  await agendaToday(ids.messejana, "bruno", 0);
  // The ASG did every task of the main slot and one of the revision's (spec 001 §4: 'Completo', 'Incompleto').
  const [main, revision] = await t.db
    .selectFrom("bookings")
    .select(["id", "environment_id"])
    .where("agenda_id", "=", asgAgenda)
    .orderBy("slot")
    .execute();
  const tasks = await t.db
    .selectFrom("environment_procedures")
    .select("procedure_id")
    .where("environment_id", "=", main.environment_id)
    .execute();
  expect(tasks.length).toBeGreaterThanOrEqual(2);
  await t.db
    .insertInto("history")
    .values([
      ...tasks.map((task) => ({ booking_id: main.id, procedure_id: task.procedure_id, user_id: people.asg })),
      { booking_id: revision.id, procedure_id: tasks[0].procedure_id, user_id: people.asg },
    ])
    .execute();
  await t.db.updateTable("bookings").set({ status: "Completo" }).where("agenda_id", "=", asgAgenda).execute();
});

const report = (query: string, token = tokens.admin) =>
  t.get(`/api/relatorios/colaboradores?dataIni=${TODAY}&dataFim=${TODAY}&${query}`, { token });
const names = (answer: { body: { items: { nome: string }[] } }) => answer.body.items.map((item) => item.nome);

describe("GET /relatorios/colaboradores", () => {
  test("an administrator sees every collaborator of the company with bookings in the period, with the counts", async () => {
    const answer = await report("");
    expect(answer.status).toBe(200);
    expect(names(answer)).toEqual(["Ana Souza", "Bruno Lima", "Sebastião ASG"]);
    expect(answer.body.total).toBe(3);
    const asg = answer.body.items.find((item: { nome: string }) => item.nome === "Sebastião ASG");
    expect(asg).toMatchObject({
      agendamentos: 2,
      completos: 1,
      incompletos: 1,
      naoRealizados: 0,
      filial: "Filial Aldeota",
    });
    expect(asg.cpf).toMatch(/^\d{11}$/);
  });

  test.each([
    ["coordenador", ["Ana Souza", "Sebastião ASG"], true],
    ["semnivel", ["Ana Souza", "Sebastião ASG"], true],
    ["cliente", ["Ana Souza", "Sebastião ASG"], false],
    ["auditor", ["Ana Souza", "Bruno Lima", "Sebastião ASG"], false],
    ["asg", ["Sebastião ASG"], false],
  ])("the %s sees %j; personal data: %s", async (who, expected, personal) => {
    const answer = await report("", tokens[who]);
    expect(answer.status).toBe(200);
    expect(names(answer)).toEqual(expected);
    for (const item of answer.body.items) expect("cpf" in item).toBe(personal);
  });

  test("another company's user sees none of them; another company's branch is 404", async () => {
    expect(names(await report("", tokens.outra))).toEqual([]);
    expect((await report(`filialId=${ids.aldeota}`, tokens.outra)).status).toBe(404);
  });

  test("one branch, the search in the chosen fields, sort and pages", async () => {
    expect(names(await report(`filialId=${ids.messejana}`))).toEqual(["Bruno Lima"]);
    expect(names(await report("q=sebastiao"))).toEqual(["Sebastião ASG"]);
    const asg = await userByEmail(t.db, "asg@demo.com.br");
    expect(names(await report(`q=${asg.cpf.slice(2, 8)}&campos=cpf`))).toEqual(["Sebastião ASG"]);
    expect(names(await report("q=ana@demo&campos=email"))).toEqual(["Ana Souza"]);
    expect(names(await report("sort=nome&dir=desc"))).toEqual(["Sebastião ASG", "Bruno Lima", "Ana Souza"]);
    const second = await report("size=20&page=2");
    expect(second.body.items).toEqual([]);
    expect(second.body.total).toBe(3);
  });

  test("those who may not read CPFs may not search them", async () => {
    const answer = await report("q=123&campos=cpf", tokens.auditor);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("Campos de busca inválidos");
  });

  test.each([
    [
      "a date after today",
      `dataIni=${TODAY}&dataFim=${day(TODAY, 1)}`,
      "Intervalo de datas inválidos, favor verificar",
    ],
    [
      "an end before the start",
      `dataIni=${day(TODAY, -1)}&dataFim=${day(TODAY, -2)}`,
      "Intervalo de datas inválidos, favor verificar",
    ],
    [
      "more than a year",
      `dataIni=${day(TODAY, -400)}&dataFim=${TODAY}`,
      "O período de um relatório pode ter no máximo um ano.",
    ],
  ])("%s is 400 with the §5 message", async (_case, range, message) => {
    const answer = await t.get(`/api/relatorios/colaboradores?${range}`, { token: tokens.admin });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
  });
});
