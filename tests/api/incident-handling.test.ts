/**
 * Issue 28 §3–4, the managers' side (docs/incidents.md): GET /api/ocorrencias and /api/ocorrencias/{id} scoped like
 * every read (tenant, own branch, client branch; field staff refused), and POST /api/ocorrencias/{id}/eventos for
 * roles 1–3 and no role only: take on, assign, move the deadline, discard with a reason; each change on the timeline,
 * a closed incident refused.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { useTestApi } from "../support/api.ts";
import { branchId, demoIds } from "../support/demo.ts";

const t = useTestApi();

let admin = "";
let incidentId = 0;
let messejanaIncident = 0;
/** The room of `incidentId`. */
let incidentRoom = 0;

/** An open incident of a room of the branch, written as a visitor's report is (incident + 'aberta' event). */
async function openIncident(branch: number, minutesAgo = 10) {
  const room = await t.db
    .selectFrom("environments")
    .select(["id", "company_id"])
    .where("branch_id", "=", branch)
    .where("deleted_at", "is", null)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const kind = await t.db
    .selectFrom("incident_kinds")
    .select("id")
    .where("company_id", "=", room.company_id)
    .where("nome", "=", "Sujeira")
    .executeTakeFirstOrThrow();
  const reported = new Date(Date.now() - minutesAgo * 60_000);
  const { id } = await t.db
    .insertInto("incidents")
    .values({
      company_id: room.company_id,
      branch_id: branch,
      environment_id: room.id,
      kind_id: kind.id,
      status: "aberta",
      descricao: "Piso sujo",
      prazo_at: new Date(reported.getTime() + 120 * 60_000),
      created_at: reported,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await t.db.insertInto("incident_events").values({ incident_id: id, tipo: "aberta", created_at: reported }).execute();
  return id;
}

const change = (id: number, body: object, token = admin) => t.post(`/api/ocorrencias/${id}/eventos`, body, { token });

beforeAll(async () => {
  const ids = await demoIds(t.db);
  admin = await t.signIn("admin@demo.com.br");
  incidentId = await openIncident(ids.aldeota);
  messejanaIncident = await openIncident(await branchId(t.db, "Filial Messejana"));
  incidentRoom = (
    await t.db.selectFrom("incidents").select("environment_id").where("id", "=", incidentId).executeTakeFirstOrThrow()
  ).environment_id;
});

describe("reading", () => {
  test("each role reads its scope: the branch's own for the coordinator and the client; field staff are refused", async () => {
    const listed = async (email: string) => {
      const answer = await t.get("/api/ocorrencias?size=160", { token: await t.signIn(email) });
      return {
        status: answer.status,
        ids: answer.status === 200 ? answer.body.items.map((row: { id: number }) => row.id) : [],
      };
    };
    for (const email of ["admin@demo.com.br", "auditor@demo.com.br"]) {
      const { ids } = await listed(email);
      expect(ids, email).toEqual(expect.arrayContaining([incidentId, messejanaIncident]));
    }
    for (const email of ["coordenador@demo.com.br", "cliente@demo.com.br", "semnivel@demo.com.br"]) {
      const { ids } = await listed(email);
      expect(ids, email).toContain(incidentId);
      expect(ids, email).not.toContain(messejanaIncident);
      const other = await t.get(`/api/ocorrencias/${messejanaIncident}`, { token: await t.signIn(email) });
      expect(other.status, email).toBe(404);
    }
    expect((await listed("outra@demo.com.br")).ids).not.toContain(incidentId);
    const foreign = await t.get(`/api/ocorrencias/${incidentId}`, { token: await t.signIn("outra@demo.com.br") });
    expect(foreign.status).toBe(404);
    expect((await listed("asg@demo.com.br")).status).toBe(403);
  });

  test("the detail: facts, the timeline, who it may be assigned to; the client and the auditor may not change it", async () => {
    const detail = await t.get(`/api/ocorrencias/${incidentId}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: incidentId,
      status: "aberta",
      tipo: "Sujeira",
      prova: "foto",
      descricao: "Piso sujo",
      filial: { nome: "Filial Aldeota" },
      responsavel: null,
      podeAlterar: true,
      eventos: [{ tipo: "aberta", autor: null }],
    });
    expect(detail.body.responsaveis.map((person: { nome: string }) => person.nome)).toContain("Carla Coordenadora");
    for (const email of ["cliente@demo.com.br", "auditor@demo.com.br"]) {
      const token = await t.signIn(email);
      expect((await t.get(`/api/ocorrencias/${incidentId}`, { token })).body.podeAlterar).toBe(false);
      const refused = await change(incidentId, { tipo: "em_atendimento" }, token);
      expect(refused.status, email).toBe(403);
      expect(refused.body.message).toBe("Você pode consultar as ocorrências, mas não alterá-las.");
    }
  });
});

describe("changing", () => {
  test("take on, assign, move the deadline, discard: each on the timeline; then the incident is closed", async () => {
    const coordinator = await t.signIn("coordenador@demo.com.br");
    const taken = await change(incidentId, { tipo: "em_atendimento" }, coordinator);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.status).toBe("em_atendimento");
    expect((await change(incidentId, { tipo: "em_atendimento" })).body.message).toBe(
      "Esta ocorrência já está em atendimento.",
    );
    // The room page shows it is being handled.
    const room = (await t.get(`/api/ocorrencias/${incidentId}`, { token: admin })).body.ambiente.id;
    expect((await t.get(`/api/info/ambiente/${room}`)).body.openIncident.status).toBe("em_atendimento");

    const carla = taken.body.responsaveis.find((person: { nome: string }) => person.nome === "Carla Coordenadora");
    const assigned = await change(incidentId, { tipo: "atribuida", responsavelId: carla.id });
    expect(assigned.body.responsavel).toBe("Carla Coordenadora");
    const asg = await t.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "asg@demo.com.br")
      .executeTakeFirstOrThrow();
    expect((await change(incidentId, { tipo: "atribuida", responsavelId: asg.id })).status).toBe(404);

    const past = await change(incidentId, {
      tipo: "prazo_alterado",
      prazo: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe("O novo prazo deve ser depois de agora.");
    const bad = await change(incidentId, { tipo: "prazo_alterado", prazo: "amanhã" });
    expect(bad.body.message).toBe("Informe a data e a hora do novo prazo.");
    const later = new Date(Date.now() + 3 * 3_600_000);
    const moved = await change(incidentId, { tipo: "prazo_alterado", prazo: later.toISOString() });
    expect(new Date(moved.body.prazo).getTime()).toBe(later.getTime());

    const noReason = await change(incidentId, { tipo: "descartada", motivo: "   " });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe("Informe o motivo do descarte.");
    const discarded = await change(incidentId, { tipo: "descartada", motivo: "Relato repetido de outro ambiente" });
    expect(discarded.body).toMatchObject({ status: "descartada", motivoDescarte: "Relato repetido de outro ambiente" });
    expect(discarded.body.encerradaEm).not.toBeNull();
    expect(
      discarded.body.eventos.map((event: { tipo: string; autor: string | null }) => [event.tipo, event.autor]),
    ).toEqual([
      ["aberta", null],
      ["em_atendimento", "Carla Coordenadora"],
      ["atribuida", "Antônio Administrador"],
      ["prazo_alterado", "Antônio Administrador"],
      ["descartada", "Antônio Administrador"],
    ]);
    const closed = await change(incidentId, { tipo: "em_atendimento" });
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe("Esta ocorrência já foi encerrada.");
    expect((await t.get(`/api/info/ambiente/${room}`)).body.openIncident).toBeNull();
  });

  test("filters: status and overdue", async () => {
    const overdue = await openIncident((await demoIds(t.db)).aldeota, 300);
    const ids = async (query: string) =>
      (await t.get(`/api/ocorrencias?${query}`, { token: admin })).body.items.map((row: { id: number }) => row.id);
    expect(await ids("status=descartada")).toContain(incidentId);
    expect(await ids("status=aberta")).not.toContain(incidentId);
    const late = await ids("atrasadas=1");
    expect(late).toContain(overdue);
    expect(late).not.toContain(messejanaIncident);
    const row = (await t.get("/api/ocorrencias?atrasadas=1", { token: admin })).body.items.find(
      (item: { id: number }) => item.id === overdue,
    );
    expect(row.atrasada).toBe(true);
  });
});

describe("the company's kinds", () => {
  const kindsOf = async (token = admin) =>
    (await t.get("/api/ocorrencias/tipos", { token })).body.items as {
      id: number;
      nome: string;
      prazoMinutos: number;
      prova: string;
      ativo: boolean;
    }[];

  test("read by whoever reads incidents; kept by roles 1–2 only; the room page offers the active ones", async () => {
    const kinds = await kindsOf(await t.signIn("auditor@demo.com.br"));
    expect(kinds.map((kind) => kind.nome)).toEqual(
      expect.arrayContaining(["Falta de papel/sabonete", "Sujeira", "Lixo cheio", "Vazamento ou dano", "Outro"]),
    );
    const other = kinds.find((kind) => kind.nome === "Outro")!;
    const coordinator = await t.signIn("coordenador@demo.com.br");
    const body = { nome: "Outro", prazoMinutos: 60, prova: "nota", ativo: false };
    expect((await t.put(`/api/ocorrencias/tipos/${other.id}`, body, { token: coordinator })).status).toBe(403);
    expect((await t.get("/api/ocorrencias/tipos", { token: await t.signIn("asg@demo.com.br") })).status).toBe(403);

    const changed = await t.put(`/api/ocorrencias/tipos/${other.id}`, body, { token: admin });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ nome: "Outro", prazoMinutos: 60, ativo: false });
    const room = await t.db
      .selectFrom("environments")
      .select("id")
      .where("company_id", "=", (await demoIds(t.db)).hospital)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow();
    const offered = (await t.get(`/api/info/ambiente/${room.id}`)).body.kinds.map(
      (kind: { nome: string }) => kind.nome,
    );
    expect(offered).not.toContain("Outro");
    expect((await t.put(`/api/ocorrencias/tipos/${other.id}`, { ...body, ativo: true }, { token: admin })).status).toBe(
      200,
    );
  });

  test("a new kind and its rules: a free name, 15 minutes to 30 days, at least one active, at most 20", async () => {
    const created = await t.post(
      "/api/ocorrencias/tipos",
      { nome: "  Cheiro   ruim ", prazoMinutos: 90, prova: "ambos" },
      { token: admin },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ nome: "Cheiro ruim", prazoMinutos: 90, prova: "ambos", ativo: true });
    const refused = async (body: object, message: string) => {
      const answer = await t.post("/api/ocorrencias/tipos", body, { token: admin });
      expect(answer.status, message).toBe(400);
      expect(answer.body.message).toBe(message);
    };
    await refused({ nome: "cheiro RUIM", prazoMinutos: 90, prova: "foto" }, "Já existe um tipo com este nome.");
    await refused({ nome: " ", prazoMinutos: 90, prova: "foto" }, "Informe o nome do tipo.");
    await refused({ nome: "Rápido", prazoMinutos: 14, prova: "foto" }, "O prazo deve ser de 15 minutos a 30 dias.");
    await refused({ nome: "Lento", prazoMinutos: 43_201, prova: "foto" }, "O prazo deve ser de 15 minutos a 30 dias.");

    const kinds = await kindsOf();
    for (const kind of kinds.slice(0, -1))
      expect(
        (await t.put(`/api/ocorrencias/tipos/${kind.id}`, { ...kind, ativo: false }, { token: admin })).status,
      ).toBe(200);
    const last = kinds.at(-1)!;
    const lastOff = await t.put(`/api/ocorrencias/tipos/${last.id}`, { ...last, ativo: false }, { token: admin });
    expect(lastOff.body.message).toBe("Mantenha ao menos um tipo ativo: o visitante precisa ter o que escolher.");
    for (const kind of kinds)
      await t.put(`/api/ocorrencias/tipos/${kind.id}`, { ...kind, ativo: true }, { token: admin });

    for (let index = kinds.length; index < 20; index++)
      expect(
        (
          await t.post(
            "/api/ocorrencias/tipos",
            { nome: `Tipo ${index}`, prazoMinutos: 60, prova: "nota" },
            { token: admin },
          )
        ).status,
      ).toBe(201);
    await refused(
      { nome: "Tipo 21", prazoMinutos: 60, prova: "nota" },
      "A empresa pode ter no máximo 20 tipos de ocorrência.",
    );
    expect(await kindsOf()).toHaveLength(20);
  });
});

describe("the numbers for later reports", () => {
  test("per room: ratings (count, mean) and incidents (reported, open) of the period, in the caller's scope", async () => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Fortaleza" }).format(new Date());
    const from = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Fortaleza" }).format(
      new Date(Date.now() - 30 * 86_400_000),
    );
    const answer = await t.get(`/api/ocorrencias/resumo?dataIni=${from}&dataFim=${today}`, { token: admin });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = answer.body.items as {
      ambiente: { id: number };
      filial: { nome: string };
      avaliacoes: number;
      mediaAvaliacao: number | null;
      ocorrencias: number;
      abertas: number;
    }[];
    const rated = rows.find((row) => row.avaliacoes > 0)!;
    const expected = await t.db
      .selectFrom("room_ratings")
      .select((eb) => [eb.fn.countAll<string>().as("n"), eb.fn.avg<string>("nota").as("mean")])
      .where("environment_id", "=", rated.ambiente.id)
      .executeTakeFirstOrThrow();
    expect(rated.avaliacoes).toBe(Number(expected.n));
    expect(rated.mediaAvaliacao).toBeCloseTo(Number(expected.mean), 2);
    const withIncident = rows.find((row) => row.ambiente.id === incidentRoom)!;
    const incidents = await t.db
      .selectFrom("incidents")
      .select(["status"])
      .where("environment_id", "=", incidentRoom)
      .execute();
    expect(withIncident.ocorrencias).toBe(incidents.length);
    expect(withIncident.abertas).toBe(
      incidents.filter((row) => ["aberta", "em_atendimento"].includes(row.status)).length,
    );
    // Most incidents first.
    expect(rows.map((row) => row.ocorrencias)).toEqual([...rows.map((row) => row.ocorrencias)].sort((a, b) => b - a));

    const coordinator = await t.get(`/api/ocorrencias/resumo?dataIni=${from}&dataFim=${today}`, {
      token: await t.signIn("coordenador@demo.com.br"),
    });
    expect(new Set(coordinator.body.items.map((row: { filial: { nome: string } }) => row.filial.nome))).toEqual(
      new Set(["Filial Aldeota"]),
    );
    expect((await t.get(`/api/ocorrencias/resumo?dataIni=${today}&dataFim=${from}`, { token: admin })).status).toBe(
      400,
    );
    expect((await t.get("/api/ocorrencias/resumo", { token: await t.signIn("asg@demo.com.br") })).status).toBe(403);
  });
});
