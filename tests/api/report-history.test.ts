/**
 * The history reports' drill-downs and rows (issue 23; docs/reports.md): a collaborator's days with the §4 day
 * status, one day's slots with their tasks, leftovers and §9 times, the environment cards and their search, the
 * export rows in keyset chunks, each call for every role and the §5 period check.
 */
import { addDays, formatISO, parseISO } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const TODAY = businessToday();
const YESTERDAY = formatISO(addDays(parseISO(TODAY), -1), { representation: "date" });
const PERIOD = `dataIni=${YESTERDAY}&dataFim=${TODAY}`;
const tokens: Record<string, string> = {};
let asg: number;
let ana: number;
/** Two rooms of Filial Aldeota with at least two procedures each, and their procedures by name. */
const rooms: { id: number; name: string; procedures: { id: number; name: string }[] }[] = [];
let foreignProcedure: { id: number; name: string };
let bookingsToday: { id: number; slot: number }[];

async function roomsWithProcedures(branch: number) {
  const found = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .where("e.branch_id", "=", branch)
    .where("e.deleted_at", "is", null)
    .where("p.deleted_at", "is", null)
    .select(["e.id", "e.name", "p.id as procedureId", "p.name as procedure", "p.name_folded"])
    .orderBy("e.id")
    .orderBy("p.name_folded")
    .execute();
  const byRoom = new Map<number, (typeof rooms)[number]>();
  for (const row of found) {
    const room = byRoom.get(row.id) ?? { id: row.id, name: row.name, procedures: [] };
    room.procedures.push({ id: row.procedureId, name: row.procedure });
    byRoom.set(row.id, room);
  }
  return [...byRoom.values()].filter((room) => room.procedures.length >= 2);
}

const agenda = (branch: number, room: number, user: number) =>
  saveDayAgenda(t, tokens.admin, {
    branch,
    environment: room,
    user,
    slots: [
      ["07:00", "07:30"],
      ["15:00", "15:30"],
    ],
  });

const record = (booking: number, procedure: number, extra: { observacao?: string; image?: string } = {}) =>
  t.db
    .insertInto("history")
    .values({ booking_id: booking, procedure_id: procedure, user_id: asg, ...extra })
    .execute();

beforeAll(async () => {
  for (const who of ["admin", "coordenador", "auditor", "cliente", "asg", "semnivel", "outra"]) {
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
  }
  const ids = await demoIds(t.db);
  asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  ana = (await userByEmail(t.db, "ana@demo.com.br")).id;
  rooms.push(...(await roomsWithProcedures(ids.aldeota)).slice(0, 2));
  expect(rooms).toHaveLength(2);
  foreignProcedure = await t.db
    .selectFrom("procedures")
    .select(["id", "name"])
    .where("company_id", "=", ids.hospital)
    .where("deleted_at", "is", null)
    .where(
      "id",
      "not in",
      rooms[1].procedures.map((procedure) => procedure.id),
    )
    .orderBy("id")
    .executeTakeFirstOrThrow();

  // Room 0 today: the main slot done in full (07:00-07:40 performed: 10 minutes over the 30 scheduled), the revision
  // with one procedure of several done, and with a photo.
  const today = await agenda(ids.aldeota, rooms[0].id, asg);
  bookingsToday = await t.db
    .selectFrom("bookings")
    .select(["id", "slot"])
    .where("agenda_id", "=", today)
    .orderBy("slot")
    .execute();
  const [main, revision] = bookingsToday;
  await t.db
    .updateTable("bookings")
    .set({
      status: "Completo",
      start_date: new Date(`${TODAY}T10:00:00Z`),
      finished_at: new Date(`${TODAY}T10:40:00Z`),
    })
    .where("id", "=", main.id)
    .execute();
  for (const procedure of rooms[0].procedures) await record(main.id, procedure.id);
  await record(revision.id, rooms[0].procedures[0].id, { image: "foto-revisao.jpg" });

  // Room 1 yesterday: the main slot never started; in the revision a procedure the room does not have ('Extra').
  const yesterday = await agenda(ids.aldeota, rooms[1].id, asg);
  await t.db.updateTable("bookings").set({ data_agend: YESTERDAY }).where("agenda_id", "=", yesterday).execute();
  const [, late] = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", yesterday)
    .orderBy("slot")
    .execute();
  await record(late.id, foreignProcedure.id, { observacao: "Feito fora da lista" });

  // Ana has a slot in room 1 today, untouched.
  await agenda(ids.aldeota, rooms[1].id, ana);
});

const get = (path: string, token = tokens.admin) => t.get(path, { token });

describe("GET /relatorios/dias (a collaborator's days)", () => {
  test("newest day first, one group per room and day, with the §4 day status", async () => {
    const answer = await get(`/api/relatorios/dias?${PERIOD}&userId=${asg}`);
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(2);
    expect(answer.body.colaborador).toBe("Sebastião ASG");
    const procedures = rooms.map((room) => room.procedures.length);
    expect(answer.body.items).toEqual([
      {
        data: TODAY,
        ambienteId: rooms[0].id,
        ambiente: rooms[0].name,
        slots: 2,
        tarefas: 2 * procedures[0],
        feitas: procedures[0] + 1,
        status: "Incompleto",
      },
      {
        data: YESTERDAY,
        ambienteId: rooms[1].id,
        ambiente: rooms[1].name,
        slots: 2,
        tarefas: 2 * procedures[1],
        feitas: 0,
        status: "Não Realizado",
      },
    ]);
  });

  test("one room, and pages", async () => {
    const one = await get(`/api/relatorios/dias?${PERIOD}&userId=${asg}&ambienteId=${rooms[1].id}`);
    expect(one.body.items.map((item: { data: string }) => item.data)).toEqual([YESTERDAY]);
    const second = await get(`/api/relatorios/dias?${PERIOD}&userId=${asg}&size=20&page=2`);
    expect(second.body).toMatchObject({ items: [], total: 2, page: 2 });
  });

  test.each([
    ["admin", 200],
    ["coordenador", 200],
    ["semnivel", 200],
    ["cliente", 200],
    ["auditor", 200],
    ["asg", 200],
    ["outra", 404],
  ])("the %s asking for the ASG's days: %i", async (who, status) => {
    const answer = await get(`/api/relatorios/dias?${PERIOD}&userId=${asg}`, tokens[who]);
    expect(answer.status).toBe(status);
    if (status === 200) expect(answer.body.total).toBe(2);
  });

  test.each(["/api/relatorios/dias", "/api/relatorios/colaboradores", "/api/relatorios/dia"])(
    "the client asking %s for another branch's collaborator: 404, no rows",
    async (path) => {
      const other = await t.db
        .selectFrom("users")
        .select("id")
        .where("branch_id", "=", (await demoIds(t.db)).messejana)
        .where("role_id", "=", 5)
        .orderBy("id")
        .executeTakeFirstOrThrow();
      const query = path.endsWith("/dia") ? `data=${TODAY}&ambienteId=${rooms[0]!.id}` : PERIOD;
      const answer = await get(`${path}?${query}&userId=${other.id}`, tokens.cliente);
      expect([answer.status, answer.body.message, "items" in answer.body]).toEqual([
        404,
        "Colaborador não encontrado",
        false,
      ]);
    },
  );

  test("field staff may read only their own days", async () => {
    expect((await get(`/api/relatorios/dias?${PERIOD}&userId=${ana}`, tokens.asg)).status).toBe(404);
  });
});

describe("GET /relatorios/dia ('Detalhes do Histórico')", () => {
  test("each slot with its tasks, its status and its three times", async () => {
    const answer = await get(`/api/relatorios/dia?data=${TODAY}&userId=${asg}&ambienteId=${rooms[0].id}`);
    expect(answer.status).toBe(200);
    const [main, revision] = answer.body.slots;
    expect(answer.body).toMatchObject({ data: TODAY, ambiente: rooms[0].name, colaborador: "Sebastião ASG" });
    expect(main).toMatchObject({
      agendamentoId: bookingsToday[0].id,
      tipo: "Principal",
      horaIni: "07:00",
      horaFim: "07:30",
      status: "Completo",
      tempos: { execucao: "00:40:00", estimado: "00:30:00", otimizado: "+ 00:10:00" },
    });
    expect(
      main.tarefas.map((task: { procedimento: string; status: string }) => [task.procedimento, task.status]),
    ).toEqual(rooms[0].procedures.map((procedure) => [procedure.name, "Completo"]));
    expect(revision).toMatchObject({
      tipo: "Revisão",
      status: "Incompleto",
      tempos: { execucao: " - ", estimado: "00:30:00", otimizado: " - " },
    });
    expect(revision.tarefas[0]).toMatchObject({ status: "Completo", execucao: { foto: "foto-revisao.jpg" } });
    // Not done yet today: the task waits ('A iniciar'), it has not failed.
    expect(revision.tarefas.slice(1).map((task: { status: string }) => task.status)).toEqual(
      rooms[0].procedures.slice(1).map(() => "A iniciar"),
    );
  });

  test("a leftover execution is an 'Extra' line, 'Completo' with its observation; the rest not done", async () => {
    const answer = await get(`/api/relatorios/dia?data=${YESTERDAY}&userId=${asg}&ambienteId=${rooms[1].id}`);
    const [main, revision] = answer.body.slots;
    expect(main.status).toBe("Não Realizado");
    expect(revision.status).toBe("Não Realizado");
    expect(revision.tarefas.at(-1)).toMatchObject({
      procedimento: foreignProcedure.name,
      tipo: "Extra",
      status: "Completo",
      execucao: { observacao: "Feito fora da lista" },
    });
  });

  test("a day without slots is empty; another tenant's collaborator or room is 404", async () => {
    const empty = await get(`/api/relatorios/dia?data=${YESTERDAY}&userId=${asg}&ambienteId=${rooms[0].id}`);
    expect(empty.status).toBe(200);
    expect(empty.body.slots).toEqual([]);
    expect(empty.body.ambiente).toBe(rooms[0].name);
    const foreign = await get(
      `/api/relatorios/dia?data=${TODAY}&userId=${asg}&ambienteId=${rooms[0].id}`,
      tokens.outra,
    );
    expect(foreign.status).toBe(404);
  });
});

describe("GET /relatorios/ambientes (the environment cards)", () => {
  test("one card per room with bookings in the period, with its names and counts", async () => {
    const answer = await get(`/api/relatorios/ambientes?${PERIOD}&filialId=${(await demoIds(t.db)).aldeota}`);
    expect(answer.status).toBe(200);
    const cards = answer.body.items.filter((item: { id: number }) => rooms.some((room) => room.id === item.id));
    expect(cards.map((card: { nome: string }) => card.nome).sort()).toEqual(rooms.map((room) => room.name).sort());
    const first = cards.find((card: { id: number }) => card.id === rooms[0].id);
    // Counted as the day's detail shows the slots (docs/reports.md 'One status for a slot'): the main slot done in
    // full, the revision with one task of several ('Incompleto', though the board never saw it closed).
    expect(first).toMatchObject({ agendamentos: 2, completos: 1, incompletos: 1, naoRealizados: 0 });
    expect(first.categoria).not.toBe("");
    const second = cards.find((card: { id: number }) => card.id === rooms[1].id);
    // Yesterday's two slots were never closed; Ana's two slots today are still open.
    expect(second).toMatchObject({ agendamentos: 4, naoRealizados: 2 });
  });

  test("the search looks in the chosen fields (Ambiente by default, Categoria, Setor, Andar)", async () => {
    const card = (await get(`/api/relatorios/ambientes?${PERIOD}`)).body.items.find(
      (item: { id: number }) => item.id === rooms[0].id,
    );
    const byName = await get(`/api/relatorios/ambientes?${PERIOD}&q=${encodeURIComponent(rooms[0].name)}`);
    expect(byName.body.items.map((item: { id: number }) => item.id)).toContain(rooms[0].id);
    const byCategoryAsName = await get(`/api/relatorios/ambientes?${PERIOD}&q=${encodeURIComponent(card.categoria)}`);
    const byCategory = await get(
      `/api/relatorios/ambientes?${PERIOD}&q=${encodeURIComponent(card.categoria)}&campos=categoria`,
    );
    expect(byCategory.body.items.map((item: { id: number }) => item.id)).toContain(rooms[0].id);
    expect(byCategory.body.items.every((item: { categoria: string }) => item.categoria === card.categoria)).toBe(true);
    if (!rooms[0].name.includes(card.categoria))
      expect(byCategoryAsName.body.items.map((item: { id: number }) => item.id)).not.toContain(rooms[0].id);
    const bad = await get(`/api/relatorios/ambientes?${PERIOD}&q=x&campos=cpf`);
    expect(bad.status).toBe(400);
  });

  test("the ASG sees only the rooms of its own work; another company sees none", async () => {
    const own = await get(`/api/relatorios/ambientes?${PERIOD}`, tokens.asg);
    expect(own.body.items.map((item: { id: number }) => item.id).sort()).toEqual(rooms.map((room) => room.id).sort());
    expect((await get(`/api/relatorios/ambientes?${PERIOD}`, tokens.outra)).body.items).toEqual([]);
  });

  test("one collaborator ('Detalhes do Colaborador'): the row with the personal data the caller may read", async () => {
    const answer = await get(`/api/relatorios/colaboradores?${PERIOD}&userId=${asg}`);
    expect(answer.body.items).toMatchObject([{ id: asg, nome: "Sebastião ASG", email: "asg@demo.com.br" }]);
    const auditor = await get(`/api/relatorios/colaboradores?${PERIOD}&userId=${asg}`, tokens.auditor);
    expect(auditor.body.items[0]).not.toHaveProperty("email");
  });

  test("the collaborators of one room (the report's first level)", async () => {
    const answer = await get(`/api/relatorios/colaboradores?${PERIOD}&ambienteId=${rooms[1].id}`);
    expect(answer.body.items.map((item: { nome: string }) => item.nome)).toEqual(["Ana Souza", "Sebastião ASG"]);
  });
});

describe("GET /relatorios/linhas (the export rows)", () => {
  type Row = { agendamentoId: number; procedimento: string; tipo: string; status: string; data: string };
  test("every task of the period's slots in day and time order, one line each (§3 'Report row')", async () => {
    const answer = await get(`/api/relatorios/linhas?${PERIOD}&userId=${asg}`);
    expect(answer.status).toBe(200);
    expect(answer.body.next).toBeNull();
    const rows: Row[] = answer.body.items;
    const [p0, p1] = rooms.map((room) => room.procedures.length);
    // Yesterday: two slots of room 1 (the revision with its Extra line); today: two slots of room 0.
    expect(rows).toHaveLength(p1 + p1 + 1 + p0 + p0);
    expect(rows[0]).toMatchObject({
      data: YESTERDAY,
      tipo: "Principal",
      status: "Não Realizado",
      ambiente: rooms[1].name,
    });
    expect(rows.filter((row) => row.tipo === "Extra")).toMatchObject([
      { procedimento: foreignProcedure.name, status: "Completo", observacao: "Feito fora da lista" },
    ]);
    expect(rows.at(-1)).toMatchObject({ data: TODAY, tipo: "Revisão", status: "A iniciar" });
    expect(rows.find((row) => row.data === TODAY)).toMatchObject({
      colaborador: "Sebastião ASG",
      horaIni: "07:00",
      horaFim: "07:30",
      tempoEstimado: "00:30:00",
      tempoExecucao: "00:40:00",
      diferenca: "+ 00:10:00",
      status: "Completo",
    });
  });

  test("keyset chunks of slots: the same rows, in the same order, chunk by chunk", async () => {
    const whole: Row[] = (await get(`/api/relatorios/linhas?${PERIOD}&userId=${asg}`)).body.items;
    const chunks: Row[] = [];
    let after = "";
    for (let round = 0; round < 10; round++) {
      const answer = await get(`/api/relatorios/linhas?${PERIOD}&userId=${asg}&size=1&after=${after}`);
      expect(answer.status).toBe(200);
      chunks.push(...answer.body.items);
      if (answer.body.next === null) break;
      after = answer.body.next;
    }
    expect(chunks).toEqual(whole);
    expect(new Set(chunks.map((row) => row.agendamentoId)).size).toBe(4);
  });

  test("a room's search, a bad cursor, a chunk too large", async () => {
    const room = await get(`/api/relatorios/linhas?${PERIOD}&q=${encodeURIComponent(rooms[0].name)}`);
    expect(room.body.items.every((row: { ambiente: string }) => row.ambiente.includes(rooms[0].name))).toBe(true);
    const cursor = await get(`/api/relatorios/linhas?${PERIOD}&after=bad!`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.message).toBe("Cursor inválido: recomece a leitura do início (after vazio).");
    const big = await get(`/api/relatorios/linhas?${PERIOD}&size=501`);
    expect(big.status).toBe(400);
    expect(big.body.message).toBe("Tamanho de bloco inválido: de 1 a 500 horários");
  });

  test.each([
    ["admin", true],
    ["coordenador", true],
    ["semnivel", true],
    ["cliente", true],
    ["auditor", true],
    ["asg", true],
    ["outra", false],
  ])("the %s reads the ASG's rows: %s", async (who, sees) => {
    const answer = await get(`/api/relatorios/linhas?${PERIOD}&ambienteId=${rooms[0].id}`, tokens[who]);
    expect(answer.status).toBe(sees ? 200 : 404);
    if (sees) expect(answer.body.items.length).toBe(2 * rooms[0].procedures.length);
  });
});

describe("every report call for every access level (1, 2, 3, 4, no role, 7, field staff)", () => {
  const calls = () => [
    `/api/relatorios/colaboradores?${PERIOD}`,
    `/api/relatorios/ambientes?${PERIOD}`,
    `/api/relatorios/dias?${PERIOD}&userId=${asg}`,
    `/api/relatorios/dia?data=${TODAY}&userId=${asg}&ambienteId=${rooms[0].id}`,
    `/api/relatorios/linhas?${PERIOD}&userId=${asg}`,
  ];
  test.each([
    ["principal", 200],
    ["admin", 200],
    ["coordenador", 200],
    ["auditor", 200],
    ["semnivel", 200],
    ["cliente", 200],
    ["asg", 200],
    ["outra", 404],
  ])("the %s: %i, and the ASG's own room in every answer it may read", async (who, status) => {
    const token = tokens[who] ?? (await t.signIn(`${who}@demo.com.br`));
    for (const path of calls()) {
      const answer = await get(path, token);
      const listsAll = path.includes("colaboradores") || path.includes("ambientes?");
      // Another company's administrator reads its own (empty) lists; the ASG's days and rows are 404 to it.
      expect(answer.status, path).toBe(listsAll && who === "outra" ? 200 : status);
      if (answer.status !== 200) continue;
      const text = JSON.stringify(answer.body);
      expect(text.includes(rooms[0].name) || text.includes("Sebastião ASG"), path).toBe(who !== "outra");
    }
  });
});

describe("the period of the drill-downs (§5)", () => {
  const tomorrow = formatISO(addDays(parseISO(TODAY), 1), { representation: "date" });
  test.each([
    `/api/relatorios/dias?dataIni=${TODAY}&dataFim=${tomorrow}&userId=`,
    `/api/relatorios/dia?data=${tomorrow}&ambienteId=1&userId=`,
    `/api/relatorios/ambientes?dataIni=${tomorrow}&dataFim=${tomorrow}&userId=`,
    `/api/relatorios/linhas?dataIni=${TODAY}&dataFim=${tomorrow}&userId=`,
  ])("%s… a date after today is 400 'Intervalo de datas inválidos, favor verificar'", async (path) => {
    const answer = await get(`${path}${asg}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("Intervalo de datas inválidos, favor verificar");
  });
});

// Last in the file: it adds slots the counts above do not expect.
describe("a collaborator's day in two rooms", () => {
  test("two groups on the same day, each with its own room's slots and status, by room name", async () => {
    const ids = await demoIds(t.db);
    // Ana: room 1 today untouched (beforeAll), room 0 today with its main slot done in full.
    const agendaId = await agenda(ids.aldeota, rooms[0].id, ana);
    const [main] = await t.db
      .selectFrom("bookings")
      .select("id")
      .where("agenda_id", "=", agendaId)
      .orderBy("slot")
      .execute();
    await t.db.updateTable("bookings").set({ status: "Completo" }).where("id", "=", main.id).execute();
    for (const procedure of rooms[0].procedures) await record(main.id, procedure.id);

    const answer = await get(`/api/relatorios/dias?dataIni=${TODAY}&dataFim=${TODAY}&userId=${ana}`);
    const byRoom = [rooms[0], rooms[1]].sort((a, b) => a.name.localeCompare(b.name, "pt-BR"));
    const expected = {
      [rooms[0].id]: { slots: 2, tarefas: 2 * rooms[0].procedures.length, feitas: rooms[0].procedures.length },
      [rooms[1].id]: { slots: 2, tarefas: 2 * rooms[1].procedures.length, feitas: 0 },
    };
    expect(answer.body.total).toBe(2);
    expect(
      answer.body.items.map((item: { ambienteId: number; slots: number; tarefas: number; feitas: number }) => ({
        ambienteId: item.ambienteId,
        slots: item.slots,
        tarefas: item.tarefas,
        feitas: item.feitas,
      })),
    ).toEqual(byRoom.map((room) => ({ ambienteId: room.id, ...expected[room.id] })));
  });
});
