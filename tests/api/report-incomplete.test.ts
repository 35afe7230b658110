/**
 * The incomplete tasks report's calls (spec 001 §2.11, issue 24 §1; docs/incomplete-tasks.md): the procedure grid,
 * one procedure's history, one room's incomplete slots; each for every role's scope, the search, the pages, the
 * personal data, the period check and the 404 outside the scope.
 */
import { addDays, formatISO, parseISO } from "date-fns";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const TODAY = businessToday();
const PERIOD = `dataIni=${TODAY}&dataFim=${TODAY}`;
const REASON = "Sala interditada pela manutenção";
const tokens: Record<string, string> = {};
let ids: Awaited<ReturnType<typeof demoIds>>;
let asg: number;
/** The Aldeota room whose main slot was closed incomplete with one procedure done, and its procedures by name. */
let room: { id: number; name: string; procedures: { id: number; name: string }[] };
/** A Messejana room closed incomplete without any procedure done. */
let messejanaRoom: { id: number; name: string; procedures: { id: number; name: string }[] };

async function roomWithProcedures(branch: number) {
  const rows = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .where("e.branch_id", "=", branch)
    .where("e.deleted_at", "is", null)
    .where("p.deleted_at", "is", null)
    .select(["e.id", "e.name", "p.id as procedureId", "p.name as procedure"])
    .orderBy("e.id")
    .orderBy("p.name_folded")
    .execute();
  const first = rows.find((row) => rows.filter((other) => other.id === row.id).length >= 2)!;
  return {
    id: first.id,
    name: first.name,
    procedures: rows.filter((row) => row.id === first.id).map((row) => ({ id: row.procedureId, name: row.procedure })),
  };
}

/** Today's main slot of a new agenda for `user` in `roomId`, closed as 'Incompleto' with `reason`. */
async function incompleteSlot(branch: number, roomId: number, user: number, reason: string) {
  const agendaId = await saveDayAgenda(t, tokens.admin, {
    branch,
    environment: roomId,
    user,
    slots: [["07:00", "07:30"]],
  });
  const booking = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", agendaId)
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable("bookings")
    .set({
      status: "Incompleto",
      justificativa: reason,
      start_date: new Date(`${TODAY}T10:00:00Z`),
      finished_at: new Date(`${TODAY}T10:20:00Z`),
    })
    .where("id", "=", booking.id)
    .execute();
  return booking.id;
}

beforeAll(async () => {
  for (const who of ["principal", "admin", "coordenador", "auditor", "cliente", "asg", "semnivel", "outra"]) {
    tokens[who] = await t.signIn(`${who}@demo.com.br`);
  }
  ids = await demoIds(t.db);
  asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  room = await roomWithProcedures(ids.aldeota);
  messejanaRoom = await roomWithProcedures(ids.messejana);
  const booking = await incompleteSlot(ids.aldeota, room.id, asg, REASON);
  // The first procedure was done before the slot was closed: it is not an incomplete task.
  await t.db
    .insertInto("history")
    .values({ booking_id: booking, procedure_id: room.procedures[0].id, user_id: asg })
    .execute();
  const other = await t.db
    .selectFrom("users")
    .select("id")
    .where("branch_id", "=", ids.messejana)
    .where("role_id", "=", 5)
    .executeTakeFirst();
  await incompleteSlot(ids.messejana, messejanaRoom.id, other?.id ?? asg, "Falta de material");
});

const grid = (who: string, query = "") =>
  t.get(`/api/relatorios/tarefas-incompletas?${PERIOD}${query}`, { token: tokens[who] });
const names = (body: { items: { nome: string }[] }) => body.items.map((item) => item.nome);

describe("GET /relatorios/tarefas-incompletas (the grid)", () => {
  test("the names of the procedures left undone, with their counts, for a company-wide user", async () => {
    const answer = await grid("admin");
    expect(answer.status).toBe(200);
    const undone = room.procedures.slice(1).map((procedure) => procedure.name);
    for (const name of [...undone, ...messejanaRoom.procedures.map((procedure) => procedure.name)])
      expect(names(answer.body)).toContain(name);
    // Done before the slot was closed: not listed (unless the Messejana room also has it, undone there).
    if (!messejanaRoom.procedures.some((procedure) => procedure.name === room.procedures[0].name))
      expect(names(answer.body)).not.toContain(room.procedures[0].name);
    expect(answer.body.total).toBe(answer.body.items.length);
  });

  test("one branch, the branch-level roles and the client see their branch only; field staff their own", async () => {
    const aldeota = room.procedures.slice(1).map((procedure) => procedure.name);
    const onlyMessejana = messejanaRoom.procedures
      .map((procedure) => procedure.name)
      .filter((name) => !aldeota.includes(name) && name !== room.procedures[0].name);
    for (const [who, query] of [
      ["admin", `&filialId=${ids.aldeota}`],
      ["coordenador", ""],
      ["semnivel", ""],
      ["cliente", ""],
      ["asg", ""],
    ] as const) {
      const answer = await grid(who, query);
      expect(answer.status, who).toBe(200);
      expect(names(answer.body).sort(), who).toEqual([...aldeota].sort());
      for (const name of onlyMessejana) expect(names(answer.body), who).not.toContain(name);
    }
  });

  test("another company's caller sees none of it", async () => {
    const answer = await grid("outra");
    expect(answer.status).toBe(200);
    expect(answer.body.items).toEqual([]);
  });

  test("the search looks in the chosen field: tarefa (default), colaborador, ambiente", async () => {
    const target = room.procedures[1].name;
    const byTask = await grid("coordenador", `&q=${encodeURIComponent(target.toUpperCase())}`);
    expect(names(byTask.body)).toContain(target);
    expect(
      byTask.body.items.every((item: { nome: string }) => item.nome.toLowerCase().includes(target.toLowerCase())),
    ).toBe(true);
    const byRoom = await grid("coordenador", `&campo=ambiente&q=${encodeURIComponent(room.name)}`);
    expect(byRoom.body.total).toBe(room.procedures.length - 1);
    // A term nothing has, in each field: a search that were ignored would list the branch's tasks.
    for (const campo of ["tarefa", "ambiente", "colaborador"]) {
      const none = await grid("coordenador", `&campo=${campo}&q=zzz-nada-com-isto`);
      expect([campo, none.body.items], campo).toEqual([campo, []]);
    }
    const bad = await grid("coordenador", "&campo=cpf&q=1");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Campos de busca inválidos");
  });

  test("pages of one name", async () => {
    const first = await grid("admin", "&size=20&page=1");
    const all = first.body.total;
    expect(all).toBeGreaterThan(1);
    const [a, b] = [await grid("admin", "&size=20&page=1"), await grid("admin", "&size=20&page=99")];
    expect(a.body.items.length).toBe(Math.min(20, all));
    expect(b.body.items).toEqual([]);
    expect(b.body.total).toBe(all);
  });

  test("the §5 period check: a date after today or a reversed period", async () => {
    const tomorrow = formatISO(addDays(parseISO(TODAY), 1), { representation: "date" });
    for (const period of [`dataIni=${TODAY}&dataFim=${tomorrow}`, `dataIni=${TODAY}&dataFim=2020-01-01`]) {
      const answer = await t.get(`/api/relatorios/tarefas-incompletas?${period}`, { token: tokens.admin });
      expect(answer.status, period).toBe(400);
      expect(answer.body.message, period).toBe("Intervalo de datas inválidos, favor verificar");
    }
  });
});

describe("GET /relatorios/tarefas-incompletas/procedimento ('Histórico do Procedimento')", () => {
  const history = (who: string, nome: string, query = "") =>
    t.get(`/api/relatorios/tarefas-incompletas/procedimento?${PERIOD}&nome=${encodeURIComponent(nome)}${query}`, {
      token: tokens[who],
    });

  test("each incomplete task of the name: the slot's times, the reason, the room and the collaborator", async () => {
    const answer = await history("admin", room.procedures[1].name, `&filialId=${ids.aldeota}`);
    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(1);
    const [task] = answer.body.items;
    expect(task).toMatchObject({
      data: TODAY,
      procedimento: room.procedures[1].name,
      inicio: `${TODAY}T10:00:00.000Z`,
      fim: `${TODAY}T10:20:00.000Z`,
      observacao: REASON,
      ambiente: { id: room.id, nome: room.name },
      colaborador: { id: asg, email: "asg@demo.com.br" },
    });
    expect(task.colaborador.cpf).toMatch(/^\d{11}$/);
  });

  test("CPF, e-mail and phone only for those who may read users", async () => {
    for (const who of ["auditor", "cliente"]) {
      const answer = await history(who, room.procedures[1].name);
      expect(answer.status, who).toBe(200);
      expect(answer.body.items.length, who).toBe(1);
      expect(answer.body.items[0].colaborador, who).not.toHaveProperty("cpf");
      expect(answer.body.items[0].colaborador, who).not.toHaveProperty("email");
    }
  });

  test("the dialog's search in the collaborator, the room and the reason", async () => {
    const name = room.procedures[1].name;
    expect((await history("admin", name, "&busca=interditada")).body.items).toHaveLength(1);
    expect((await history("admin", name, "&busca=sebastiao")).body.items.length).toBeGreaterThan(0);
    expect((await history("admin", name, "&busca=nada-disso")).body.items).toEqual([]);
  });

  test("a name out of scope answers an empty page; no name is 400", async () => {
    expect((await history("outra", room.procedures[1].name)).body.items).toEqual([]);
    const none = await t.get(`/api/relatorios/tarefas-incompletas/procedimento?${PERIOD}&nome=%20`, {
      token: tokens.admin,
    });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain("Informe o procedimento (tarefa).");
  });
});

describe("GET /relatorios/tarefas-incompletas/ambiente/{id} ('Tarefas Incompletas de {room}')", () => {
  const slots = (who: string, id: number, query = "") =>
    t.get(`/api/relatorios/tarefas-incompletas/ambiente/${id}?${PERIOD}${query}`, { token: tokens[who] });

  test("the room's incomplete slots with every procedure done or not and the reason", async () => {
    const answer = await slots("coordenador", room.id);
    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(1);
    const [slot] = answer.body.items;
    expect(slot).toMatchObject({ data: TODAY, motivo: REASON, colaborador: { id: asg } });
    expect(slot.tarefas).toEqual(
      room.procedures.map((procedure, index) => ({ nome: procedure.name, feita: index === 0 })),
    );
  });

  test("searched in the name, the date as shown and the reason", async () => {
    const shown = TODAY.split("-").reverse().join("/");
    expect((await slots("admin", room.id, `&busca=${encodeURIComponent(shown)}`)).body.items).toHaveLength(1);
    expect((await slots("admin", room.id, "&busca=MANUTENCAO")).body.items).toHaveLength(1);
    expect((await slots("admin", room.id, "&busca=material")).body.items).toHaveLength(0);
  });

  test("a room of another branch or company is 404 for those who cannot see it", async () => {
    for (const [who, id] of [
      ["coordenador", messejanaRoom.id],
      ["cliente", messejanaRoom.id],
      ["outra", room.id],
    ] as const) {
      const answer = await slots(who, id);
      expect(answer.status, who).toBe(404);
    }
    expect((await slots("admin", 2_147_483_647)).status).toBe(404);
  });
});

describe("'Mostrar dados anteriores à Agosto/2022' (anteriores=1)", () => {
  const OLD = "dataIni=2022-06-01&dataFim=2022-06-30";
  beforeAll(async () => {
    const base = {
      company_id: ids.hospital,
      branch_id: ids.aldeota,
      environment_id: room.id,
      user_id: asg,
      empresa: "Filial Aldeota",
      ambiente_nome: "Sala antiga",
      nome_usuario: "Sebastião",
    };
    await t.db
      .insertInto("legacy_history")
      .values([
        // An observation of its own: 'Incompleto' (§4 'Old-system rows').
        {
          ...base,
          legacy_id: 900_001,
          procedimento_nome: "Encerar piso (antigo)",
          inicio: new Date("2022-06-10T11:00:00Z"),
          fim: new Date("2022-06-10T11:30:00Z"),
          observacao: "Enceradeira quebrada",
        },
        // No observation: 'Completo', not an incomplete task.
        {
          ...base,
          legacy_id: 900_002,
          procedimento_nome: "Lavar cortinas (antigo)",
          inicio: new Date("2022-06-11T11:00:00Z"),
        },
        // Another branch's row: out of the coordinator's scope.
        {
          ...base,
          branch_id: ids.messejana,
          environment_id: messejanaRoom.id,
          legacy_id: 900_003,
          procedimento_nome: "Polir metais (antigo)",
          inicio: new Date("2022-06-12T11:00:00Z"),
          observacao: "Sem produto",
        },
      ])
      .execute();
  });

  test("the old rows with an observation join the grid and the history; without the toggle they do not", async () => {
    const old = (who: string, toggle: string) =>
      t.get(`/api/relatorios/tarefas-incompletas?${OLD}${toggle}`, { token: tokens[who] });
    expect(names((await old("admin", "&anteriores=1")).body).sort()).toEqual([
      "Encerar piso (antigo)",
      "Polir metais (antigo)",
    ]);
    expect(names((await old("coordenador", "&anteriores=1")).body)).toEqual(["Encerar piso (antigo)"]);
    expect(names((await old("admin", "")).body)).toEqual([]);
    expect(names((await old("outra", "&anteriores=1")).body)).toEqual([]);
    const history = await t.get(
      `/api/relatorios/tarefas-incompletas/procedimento?${OLD}&anteriores=1&nome=${encodeURIComponent("Encerar piso (antigo)")}`,
      { token: tokens.coordenador },
    );
    expect(history.body.items).toEqual([
      expect.objectContaining({
        data: "2022-06-10",
        inicio: "2022-06-10T11:00:00.000Z",
        fim: "2022-06-10T11:30:00.000Z",
        observacao: "Enceradeira quebrada",
        ambiente: { id: room.id, nome: "Sala antiga" },
        colaborador: expect.objectContaining({ id: asg }),
      }),
    ]);
  });
});

describe("a procedure removed from the catalogue", () => {
  test("leaves the grid: its name is no longer listed, the room's other undone tasks are", async () => {
    const removed = room.procedures[1]!;
    await t.db.updateTable("procedures").set({ deleted_at: new Date() }).where("id", "=", removed.id).execute();
    try {
      const answer = await grid("coordenador");
      expect(names(answer.body).sort()).toEqual(
        room.procedures
          .slice(2)
          .map((procedure) => procedure.name)
          .sort(),
      );
    } finally {
      await t.db.updateTable("procedures").set({ deleted_at: null }).where("id", "=", removed.id).execute();
    }
  });
});
