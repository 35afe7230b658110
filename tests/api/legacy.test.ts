/**
 * The old system's data (issue 24 part 4; docs/legacy-data.md): the import (a good file, a bad row with nothing
 * written, the same file twice, Windows-1252 with ';', the CLI) and the §7 old-system calls (GET /dash/user,
 * /environments/dashboard, /info/all/environments, /observacao) for every access level, with the §4 old-system status,
 * paging, bad input, and §8's empty answer when the call fails inside.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import iconv from "iconv-lite";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import { legacyCsv, legacyDemoRows } from "../../api/db/demo-legacy.ts";
import { importLegacyFile, LegacyImportError } from "../../api/services/legacy.ts";
import { useTestApi } from "../support/api.ts";
import { countRows, demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const ids = { hospital: 0, other: 0, aldeota: 0, messejana: 0 };
const user = { asg: 0, ana: 0, bruno: 0, outra: 0, principal: 0 };
const env = { aldeota: 0, messejana: 0, other: 0 };
const tokens: Record<string, string> = {};
const ROLES = ["principal", "admin", "coordenador", "auditor", "semnivel", "cliente", "asg", "outra"] as const;
type Who = (typeof ROLES)[number];

const MARCH = "dataInicio=2022-03-01&dataFim=2022-03-31";
const encode = (text: string) => new TextEncoder().encode(text);

async function firstEnvironment(branchId: number) {
  const row = await t.db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The good file: three rows in Aldeota (one with an observation), two in Messejana, one of the other company. */
const goodFile = () =>
  [
    "ID,AMBIENTE_ID,userId,INICIO,FIM,PROCEDIMENTO_NOME,HORA_INICIAL_PRINCIPAL_AMBIENTE,HORA_FINAL_PRINCIPAL_AMBIENTE,AMBIENTE_NOME,observacao",
    `101,${env.aldeota},${user.asg},15/03/2022 08:00:00,15/03/2022 08:20:00,Limpar piso,08:00,09:00,Recepção (antiga),`,
    `102,${env.aldeota},${user.asg},15/03/2022 10:00:00,15/03/2022 10:30:00,Recolher lixo,10:00,11:00,,Sala trancada`,
    `103,${env.aldeota},${user.ana},2022-03-16 09:00:00,,Limpar vidros,,,,`,
    `104,${env.messejana},${user.bruno},2022-03-15T12:00:00.000Z,,Limpar piso,,,,`,
    `105,${env.messejana},${user.bruno},20/03/2022 14:00,,Limpar piso,,,,"Faltou material, voltar amanhã"`,
    `101,${env.other},${user.outra},15/03/2022 08:00:00,,Portaria,,,,`,
  ].join("\n");

beforeAll(async () => {
  Object.assign(ids, await demoIds(t.db));
  user.asg = (await userByEmail(t.db, "asg@demo.com.br")).id;
  user.ana = (await userByEmail(t.db, "ana@demo.com.br")).id;
  user.bruno = (await userByEmail(t.db, "bruno@demo.com.br")).id;
  user.outra = (await userByEmail(t.db, "outra@demo.com.br")).id;
  user.principal = (await userByEmail(t.db, "principal@demo.com.br")).id;
  env.aldeota = await firstEnvironment(ids.aldeota);
  env.messejana = await firstEnvironment(ids.messejana);
  env.other = (await t.db
    .selectFrom("environments")
    .select("id")
    .where("company_id", "=", ids.other)
    .orderBy("id")
    .executeTakeFirstOrThrow())!.id;
  for (const who of ROLES) tokens[who] = await t.signIn(`${who}@demo.com.br`);
});

describe("the import (npm run import:legacy)", () => {
  test("a good file: every row, names as they were or today's, an observation per row that has one", async () => {
    const result = await importLegacyFile(t.db, encode(goodFile()));
    expect(result).toEqual({ rows: 6, inserted: 6, existing: 0, observations: 2 });
    const rows = await t.db
      .selectFrom("legacy_history")
      .select(["legacy_id", "company_id", "branch_id", "ambiente_nome", "nome_usuario", "inicio", "fim"])
      .orderBy("id")
      .execute();
    expect(rows[0]).toMatchObject({
      legacy_id: 101,
      company_id: ids.hospital,
      branch_id: ids.aldeota,
      ambiente_nome: "Recepção (antiga)",
      nome_usuario: "Sebastião ASG",
      inicio: new Date("2022-03-15T11:00:00.000Z"),
      fim: new Date("2022-03-15T11:20:00.000Z"),
    });
    // A blank name is today's (the same id kept by the new system).
    const today = await t.db.selectFrom("environments").select("name").where("id", "=", env.aldeota).executeTakeFirst();
    expect(rows[1].ambiente_nome).toBe(today!.name);
    // The same old ID in two companies is two rows.
    expect(rows[5]).toMatchObject({ legacy_id: 101, company_id: ids.other });
    const notes = await t.db
      .selectFrom("legacy_observations")
      .select(["observacao", "environment_id", "user_id", "created_at"])
      .where("legacy_history_id", "is not", null)
      .orderBy("id")
      .execute();
    expect(notes).toEqual([
      {
        observacao: "Sala trancada",
        environment_id: env.aldeota,
        user_id: user.asg,
        created_at: new Date("2022-03-15T13:00:00.000Z"),
      },
      expect.objectContaining({ observacao: "Faltou material, voltar amanhã", environment_id: env.messejana }),
    ]);
  });

  test("the same file twice: nothing twice", async () => {
    const before = [await countRows(t.db, "legacy_history"), await countRows(t.db, "legacy_observations")];
    expect(await importLegacyFile(t.db, encode(goodFile()))).toEqual({
      rows: 6,
      inserted: 0,
      existing: 6,
      observations: 0,
    });
    expect([await countRows(t.db, "legacy_history"), await countRows(t.db, "legacy_observations")]).toEqual(before);
  });

  test.each([
    [
      "a room that does not exist",
      (good: string) => `${good}\n200,999999,${user.asg},2022-03-01,,,,,,`,
      "Linha 8: ambiente 999999 não existe.",
    ],
    [
      "a collaborator that does not exist",
      (good: string) => `${good}\n200,${env.aldeota},999999,2022-03-01,,,,,,`,
      "Linha 8: colaborador 999999 não existe.",
    ],
    [
      "a collaborator of another company",
      (good: string) => `${good}\n200,${env.aldeota},${user.outra},2022-03-01,,,,,,`,
      () => `Linha 8: colaborador ${user.outra} não é da empresa do ambiente ${env.aldeota}.`,
    ],
    [
      "an ID twice in one company",
      (good: string) => `${good}\n301,${env.messejana},${user.bruno},2022-03-01,,,,,,`,
      "Linha 8: ID 301 repetido (já na linha 2).",
    ],
    [
      "a row after the cutoff",
      (good: string) => `${good}\n200,${env.aldeota},${user.asg},01/08/2022 00:00,,,,,,`,
      "Linha 8: INICIO deve ser anterior a 01/08/2022 (dados do sistema anterior).",
    ],
  ])("a bad row (%s): its line named, nothing written", async (_name, file, message) => {
    // New IDs for the good rows, so they would be written if the file were taken.
    const good = goodFile().replace(/^10(\d),/gm, "30$1,");
    const before = [await countRows(t.db, "legacy_history"), await countRows(t.db, "legacy_observations")];
    const error = await importLegacyFile(t.db, encode(file(good))).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LegacyImportError);
    expect((error as LegacyImportError).errors).toEqual([typeof message === "string" ? message : message()]);
    expect([await countRows(t.db, "legacy_history"), await countRows(t.db, "legacy_observations")]).toEqual(before);
  });

  test("Windows-1252 with ';' (pt-BR Excel), names with accents kept", async () => {
    const text =
      "ID;AMBIENTE_ID;userId;INICIO;AMBIENTE_NOME;nome_users;observacao\r\n" +
      `401;${env.aldeota};${user.ana};10/02/2022 07:30:00;Recepção – térreo;Ana Souza (antiga);Sem água, pia entupida\r\n`;
    const bytes = new Uint8Array(iconv.encode(text, "win1252"));
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
    expect(await importLegacyFile(t.db, bytes)).toEqual({ rows: 1, inserted: 1, existing: 0, observations: 1 });
    const row = await t.db
      .selectFrom("legacy_history")
      .select(["ambiente_nome", "nome_usuario", "observacao"])
      .where("legacy_id", "=", 401)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      ambiente_nome: "Recepção – térreo",
      nome_usuario: "Ana Souza (antiga)",
      observacao: "Sem água, pia entupida",
    });
  });

  test("the demo's rows: a few hundred before August 2022, some with observations, and a second run adds none", async () => {
    const rooms = [{ id: env.messejana, users: [user.bruno], procedures: ["Limpar piso", "Recolher lixo"] }];
    const rows = legacyDemoRows(rooms, 300, 700_000);
    const first = await importLegacyFile(t.db, encode(legacyCsv(rows)));
    expect(first).toMatchObject({ rows: 300, inserted: 300 });
    expect(first.observations).toBeGreaterThan(10);
    expect(await importLegacyFile(t.db, encode(legacyCsv(rows)))).toMatchObject({ inserted: 0, existing: 300 });
    await t.db.deleteFrom("legacy_history").where("legacy_id", ">=", 700_000).execute();
  });
});

describe("the CLI", () => {
  test("a refused file names its line and exits 1 (a fresh PGlite under DATA_DIR)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "legacy-cli-"));
    try {
      const file = path.join(dir, "antigo.csv");
      writeFileSync(file, "ID;AMBIENTE_ID;userId;INICIO\n1;3;9;15/03/2022 08:00\n");
      const run = promisify(execFile);
      const answer = await run("npx", ["tsx", "api/db/legacy-import-cli.ts", file], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "" },
      }).catch((error: { code: number; stderr: string }) => error);
      expect("code" in answer ? answer.code : 0).toBe(1);
      expect(answer.stderr).toContain("Nada foi importado:");
      expect(answer.stderr).toContain("Linha 2: ambiente 3 não existe; colaborador 9 não existe.");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

const get = (pathname: string, who: Who) => t.get(pathname, { token: tokens[who] });
const legacyIds = (rows: { ID: number }[]) => rows.map((row) => row.ID);

describe("GET /dash/user (a collaborator's old rows and observations)", () => {
  test.each([
    ["principal", 200],
    ["admin", 200],
    ["coordenador", 200],
    ["auditor", 200],
    ["semnivel", 200],
    ["cliente", 200],
    ["asg", 200],
    ["outra", 404],
  ] as const)("Sebastião (Aldeota) for the %s: %i", async (who, status) => {
    const answer = await get(`/api/dash/user?${MARCH}&userId=${user.asg}`, who);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (status !== 200) return;
    expect(legacyIds(answer.body.data)).toEqual([101, 102]);
    // §4: 101 shares its room, collaborator and day with 102's observation; 102 has its own.
    expect(answer.body.data.map((row: { status: string }) => row.status)).toEqual(["Incompleto", "Incompleto"]);
    expect(answer.body.data[0]).toMatchObject({
      AMBIENTE_ID: env.aldeota,
      AMBIENTE_NOME: "Recepção (antiga)",
      INICIO: "2022-03-15T11:00:00.000Z",
      FIM: "2022-03-15T11:20:00.000Z",
      PROCEDIMENTO_NOME: "Limpar piso",
      HORA_INICIAL_PRINCIPAL_AMBIENTE: "08:00:00",
      HORA_FINAL_PRINCIPAL_AMBIENTE: "09:00:00",
      EMPRESA: "Filial Aldeota",
      nome_users: "Sebastião ASG",
      userId: user.asg,
      observacao: null,
    });
    expect(answer.body.obs).toEqual([
      expect.objectContaining({ observacao: "Sala trancada", environmentId: env.aldeota, userId: user.asg }),
    ]);
    expect(answer.body.more).toBe(false);
  });

  test.each([
    ["admin", 200],
    ["coordenador", 404],
    ["semnivel", 404],
    ["cliente", 404],
    ["asg", 404],
  ] as const)("Bruno (Messejana) for the %s: %i", async (who, status) => {
    const answer = await get(`/api/dash/user?${MARCH}&userId=${user.bruno}`, who);
    expect(answer.status).toBe(status);
    if (status === 200) {
      expect(legacyIds(answer.body.data)).toEqual([104, 105]);
      expect(answer.body.data.map((row: { status: string }) => row.status)).toEqual(["Completo", "Incompleto"]);
    }
  });

  test("Ana's row without an observation is 'Completo'", async () => {
    const answer = await get(`/api/dash/user?${MARCH}&userId=${user.ana}`, "admin");
    expect(answer.body.data).toMatchObject([{ ID: 103, status: "Completo" }]);
  });
});

describe("GET /environments/dashboard (the company's or a branch's old rows)", () => {
  const dashboard = (company: number, extra = "") =>
    `/api/environments/dashboard?dataI=2022-03-01&dataF=2022-03-31&idEmpresa=${company}${extra}`;
  test.each([
    ["principal", [101, 104, 102, 103, 105]],
    ["admin", [101, 104, 102, 103, 105]],
    ["auditor", [101, 104, 102, 103, 105]],
    ["coordenador", [101, 102, 103]],
    ["semnivel", [101, 102, 103]],
    ["cliente", [101, 102, 103]],
    ["asg", [101, 102]],
  ] as const)("the %s reads its scope's rows", async (who, expected) => {
    const answer = await get(dashboard(ids.hospital), who);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(legacyIds(answer.body.historico)).toEqual(expected);
  });

  test("another company: 404; its own company: its own rows", async () => {
    expect((await get(dashboard(ids.hospital), "outra")).status).toBe(404);
    expect((await get(dashboard(ids.other), "admin")).status).toBe(404);
    const own = await get(dashboard(ids.other), "outra");
    expect(own.body.historico).toMatchObject([{ ID: 101, AMBIENTE_ID: env.other }]);
  });

  test("one branch (filialId), -1 every branch; another branch is 404 to a branch-level user", async () => {
    expect(
      legacyIds((await get(dashboard(ids.hospital, `&filialId=${ids.messejana}`), "admin")).body.historico),
    ).toEqual([104, 105]);
    expect((await get(dashboard(ids.hospital, "&filialId=-1"), "admin")).body.historico).toHaveLength(5);
    expect((await get(dashboard(ids.hospital, `&filialId=${ids.messejana}`), "coordenador")).status).toBe(404);
    expect((await get(dashboard(ids.hospital, `&filialId=${ids.messejana}`), "cliente")).status).toBe(404);
  });

  test("paged: limit and page, `more` while another page holds rows", async () => {
    const first = await get(dashboard(ids.hospital, "&limit=2&page=1"), "admin");
    // In time order: 104 (09:00 in Fortaleza) comes between 101 (08:00) and 102 (10:00).
    expect(legacyIds(first.body.historico)).toEqual([101, 104]);
    expect(first.body.more).toBe(true);
    const last = await get(dashboard(ids.hospital, "&limit=2&page=3"), "admin");
    expect(legacyIds(last.body.historico)).toEqual([105]);
    expect(last.body.more).toBe(false);
  });
});

describe("GET /info/all/environments (a room's old rows)", () => {
  const room = (id: number) => `/api/info/all/environments?${MARCH}&environmentId=${id}`;
  test.each([
    ["principal", 200, [101, 102, 103]],
    ["admin", 200, [101, 102, 103]],
    ["auditor", 200, [101, 102, 103]],
    ["coordenador", 200, [101, 102, 103]],
    ["semnivel", 200, [101, 102, 103]],
    ["cliente", 200, [101, 102, 103]],
    ["asg", 200, [101, 102]],
    ["outra", 404, []],
  ] as const)("the Aldeota room for the %s: %i", async (who, status, expected) => {
    const answer = await get(room(env.aldeota), who);
    expect(answer.status).toBe(status);
    if (status !== 200) return;
    expect(legacyIds(answer.body.data)).toEqual(expected);
    expect(answer.body.obs).toMatchObject([{ observacao: "Sala trancada" }]);
    // Personal data only for those who may read users (issue 22 item 4).
    const personal = ["principal", "admin", "coordenador", "semnivel"].includes(who);
    expect(answer.body.data[0]).toMatchObject({
      id_usuario: user.asg,
      data_inicio: "2022-03-15T11:00:00.000Z",
      ambiente_nome: "Recepção (antiga)",
      procedimento: "Limpar piso",
      nome_usuario: "Sebastião ASG",
      email_usuario: personal ? "asg@demo.com.br" : null,
      cpf: personal ? expect.stringMatching(/^\d{11}$/) : null,
      status: "Incompleto",
    });
  });

  test.each(["coordenador", "semnivel", "cliente", "asg"] as const)(
    "a Messejana room is 404 to the %s",
    async (who) => {
      expect((await get(room(env.messejana), who)).status).toBe(404);
    },
  );
});

describe("GET /observacao (the company's old observations)", () => {
  const notes = (company: number, extra = "") => `/api/observacao?${MARCH}&id=${company}${extra}`;
  test.each([
    ["principal", ["Sala trancada", "Faltou material, voltar amanhã"]],
    ["admin", ["Sala trancada", "Faltou material, voltar amanhã"]],
    ["auditor", ["Sala trancada", "Faltou material, voltar amanhã"]],
    ["coordenador", ["Sala trancada"]],
    ["semnivel", ["Sala trancada"]],
    ["cliente", ["Sala trancada"]],
    ["asg", ["Sala trancada"]],
  ] as const)("the %s reads its scope's observations", async (who, expected) => {
    const answer = await get(notes(ids.hospital), who);
    expect(answer.status).toBe(200);
    expect(answer.body.objetoFodaResponse.map((note: { observacao: string }) => note.observacao)).toEqual(expected);
  });

  test("another company's id is 404; a branch narrows", async () => {
    expect((await get(notes(ids.hospital), "outra")).status).toBe(404);
    expect((await get(notes(ids.other), "admin")).status).toBe(404);
    const messejana = await get(notes(ids.hospital, `&filialId=${ids.messejana}`), "admin");
    expect(messejana.body.objetoFodaResponse).toMatchObject([{ observacao: "Faltou material, voltar amanhã" }]);
  });
});

describe("the collaborator report's days with 'Mostrar dados anteriores à Agosto/2022' (anteriores=1)", () => {
  const days = (userId: number, extra = "") =>
    `/api/relatorios/dias?dataIni=2022-03-01&dataFim=2022-03-31&userId=${userId}${extra}`;
  test.each(["principal", "admin", "coordenador", "semnivel", "cliente", "asg"] as const)(
    "the %s sees Sebastião's old day, with the old-system status, only when asked",
    async (who) => {
      const without = await get(days(user.asg), who);
      expect(without.status, JSON.stringify(without.body)).toBe(200);
      expect(without.body.items).toEqual([]);
      const answer = await get(days(user.asg, "&anteriores=1"), who);
      expect(answer.body).toMatchObject({
        colaborador: "Sebastião ASG",
        total: 1,
        items: [
          { data: "2022-03-15", ambienteId: env.aldeota, tarefas: 2, feitas: 2, status: "Incompleto", anterior: true },
        ],
      });
    },
  );

  test("newest first, paged with the other days; 'Completo' without an observation", async () => {
    const answer = await get(days(user.bruno, "&anteriores=1&size=20"), "admin");
    expect(answer.body.items).toMatchObject([
      { data: "2022-03-20", status: "Incompleto", anterior: true },
      { data: "2022-03-15", status: "Completo", anterior: true },
    ]);
    const second = await get(days(user.bruno, "&anteriores=1&size=20&page=2"), "admin");
    expect(second.body).toMatchObject({ items: [], total: 2 });
  });

  test("the collaborators list counts the old rows per collaborator (the SQL rule agrees with legacyStatus)", async () => {
    const list = (who: Who, extra = "") =>
      get(`/api/relatorios/colaboradores?dataIni=2022-03-01&dataFim=2022-03-31${extra}`, who);
    expect((await list("admin")).body.items).toEqual([]);
    const answer = await list("admin", "&anteriores=1");
    const counts = Object.fromEntries(
      answer.body.items.map((item: { id: number; agendamentos: number; completos: number; incompletos: number }) => [
        item.id,
        [item.agendamentos, item.completos, item.incompletos],
      ]),
    );
    expect(counts).toEqual({ [user.asg]: [2, 0, 2], [user.ana]: [1, 1, 0], [user.bruno]: [2, 1, 1] });
    // The branch-level user: their branch's collaborators only.
    const branch = await list("coordenador", "&anteriores=1");
    expect(branch.body.items.map((item: { id: number }) => item.id).sort()).toEqual([user.asg, user.ana].sort());
  });

  test("out of scope: 404", async () => {
    expect((await get(days(user.bruno, "&anteriores=1"), "coordenador")).status).toBe(404);
    expect((await get(days(user.asg, "&anteriores=1"), "outra")).status).toBe(404);
  });
});

describe("the environments report with 'Mostrar dados anteriores à Agosto/2022' (anteriores=1)", () => {
  const MARCH_REPORT = "dataIni=2022-03-01&dataFim=2022-03-31";
  type Card = { id: number; agendamentos: number; completos: number; incompletos: number; naoRealizados: number };
  const cards = async (who: Who, extra = "") => {
    const answer = await get(`/api/relatorios/ambientes?${MARCH_REPORT}${extra}`, who);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as { items: Card[]; total: number };
  };
  const countsOf = (items: Card[]) =>
    Object.fromEntries(
      items.map((item) => [item.id, [item.agendamentos, item.completos, item.incompletos, item.naoRealizados]]),
    );

  test("the cards count the old rows per room only when asked (a room with old rows only appears)", async () => {
    expect(await cards("admin")).toMatchObject({ items: [], total: 0 });
    const answer = await cards("admin", "&anteriores=1");
    // Aldeota: Sebastião's two rows (one with its own observation, the other matched by it) and Ana's clean one.
    expect(countsOf(answer.items)).toEqual({ [env.aldeota]: [3, 1, 2, 0], [env.messejana]: [2, 1, 1, 0] });
    expect(answer.total).toBe(2);
    const sorted = await cards("admin", "&anteriores=1&sort=agendamentos&dir=desc");
    expect(sorted.items.map((item) => item.id)).toEqual([env.aldeota, env.messejana]);
  });

  test("searched like the bookings' rooms", async () => {
    const room = await t.db
      .selectFrom("environments")
      .select("name")
      .where("id", "=", env.messejana)
      .executeTakeFirst();
    const found = await cards("admin", `&anteriores=1&q=${encodeURIComponent(room!.name)}&campos=ambiente`);
    // Both branches' first rooms may share a name: every card found bears it, and Messejana's is among them.
    expect(found.items.map((item) => item.id)).toContain(env.messejana);
    expect(new Set(found.items.map((item) => (item as unknown as { nome: string }).nome))).toEqual(
      new Set([room!.name]),
    );
    expect((await cards("admin", "&anteriores=1&q=nenhuma-sala-assim")).items).toEqual([]);
  });

  test("scoped: the branch's rooms, the field staff's own rows, another company's none", async () => {
    expect(countsOf((await cards("coordenador", "&anteriores=1")).items)).toEqual({ [env.aldeota]: [3, 1, 2, 0] });
    expect(countsOf((await cards("asg", "&anteriores=1")).items)).toEqual({ [env.aldeota]: [2, 0, 2, 0] });
    expect(countsOf((await cards("outra", "&anteriores=1")).items)).toEqual({ [env.other]: [1, 1, 0, 0] });
    expect(countsOf((await cards("admin", `&anteriores=1&filialId=${ids.messejana}`)).items)).toEqual({
      [env.messejana]: [2, 1, 1, 0],
    });
  });

  test("the room's collaborators and a collaborator's days in the room hold its old rows", async () => {
    const collaborators = (room: number, who: Who, extra = "") =>
      get(`/api/relatorios/colaboradores?${MARCH_REPORT}&ambienteId=${room}${extra}`, who);
    expect((await collaborators(env.aldeota, "admin")).body.items).toEqual([]);
    const list = await collaborators(env.aldeota, "admin", "&anteriores=1");
    expect(
      Object.fromEntries(
        list.body.items.map((item: Card) => [item.id, [item.agendamentos, item.completos, item.incompletos]]),
      ),
    ).toEqual({ [user.asg]: [2, 0, 2], [user.ana]: [1, 1, 0] });
    expect((await collaborators(env.messejana, "coordenador", "&anteriores=1")).status).toBe(404);
    expect((await collaborators(env.aldeota, "outra", "&anteriores=1")).status).toBe(404);

    const days = (room: number, userId: number, who: Who, extra = "") =>
      get(`/api/relatorios/dias?${MARCH_REPORT}&ambienteId=${room}&userId=${userId}${extra}`, who);
    expect((await days(env.aldeota, user.asg, "coordenador")).body.items).toEqual([]);
    expect((await days(env.aldeota, user.asg, "coordenador", "&anteriores=1")).body).toMatchObject({
      total: 1,
      items: [{ data: "2022-03-15", ambienteId: env.aldeota, tarefas: 2, status: "Incompleto", anterior: true }],
    });
    // Another room of the same collaborator's old rows: none of them here.
    expect((await days(env.messejana, user.bruno, "admin", "&anteriores=1")).body.items).toHaveLength(2);
    expect((await days(env.messejana, user.asg, "admin", "&anteriores=1")).body.items).toEqual([]);
    expect((await days(env.messejana, user.bruno, "coordenador", "&anteriores=1")).status).toBe(404);
  });
});

describe("an old day's 'Detalhes do Histórico' and the reports' files with anteriores=1", () => {
  const day = (userId: number, room: number, who: Who, extra = "") =>
    get(`/api/relatorios/dia?data=2022-03-15&userId=${userId}&ambienteId=${room}${extra}`, who);

  test.each(["admin", "coordenador", "cliente", "asg"] as const)(
    "the %s reads Sebastião's old day: each row with its times and old-system status, only when asked",
    async (who) => {
      const without = await day(user.asg, env.aldeota, who);
      expect(without.status, JSON.stringify(without.body)).toBe(200);
      expect(without.body).toMatchObject({ slots: [], anteriores: [] });
      const answer = await day(user.asg, env.aldeota, who, "&anteriores=1");
      expect(answer.body.colaborador).toBe("Sebastião ASG");
      expect(answer.body.anteriores).toEqual([
        {
          id: 101,
          tipo: "Principal",
          procedimento: "Limpar piso",
          horaIni: "08:00",
          horaFim: "09:00",
          inicio: "2022-03-15T11:00:00.000Z",
          fim: "2022-03-15T11:20:00.000Z",
          tempos: { execucao: "00:20:00", estimado: "01:00:00", otimizado: "- 00:40:00" },
          observacao: null,
          // The day's observation (row 102's) matches it: §4's old-system rule.
          status: "Incompleto",
        },
        {
          id: 102,
          tipo: "Principal",
          procedimento: "Recolher lixo",
          horaIni: "10:00",
          horaFim: "11:00",
          inicio: "2022-03-15T13:00:00.000Z",
          fim: "2022-03-15T13:30:00.000Z",
          tempos: { execucao: "00:30:00", estimado: "01:00:00", otimizado: "- 00:30:00" },
          observacao: "Sala trancada",
          status: "Incompleto",
        },
      ]);
    },
  );

  test("a day without times: '-' and ' - '; 'Completo' without an observation; out of scope 404", async () => {
    const bruno = await day(user.bruno, env.messejana, "admin", "&anteriores=1");
    expect(bruno.body.anteriores).toMatchObject([
      {
        id: 104,
        horaIni: "-",
        horaFim: "-",
        fim: null,
        tempos: { execucao: " - ", estimado: " - " },
        status: "Completo",
      },
    ]);
    expect((await day(user.bruno, env.messejana, "coordenador", "&anteriores=1")).status).toBe(404);
    expect((await day(user.asg, env.aldeota, "outra", "&anteriores=1")).status).toBe(404);
  });

  type Line = { agendaId: number | null; agendamentoId: number; anterior: boolean; data: string; status: string };
  /** Every line of the files' rows call, chunk after chunk (as the Excel and PDF downloads read it). */
  async function lines(who: Who, extra: string) {
    const all: Line[] = [];
    let after = "";
    for (let chunk = 0; chunk < 20; chunk++) {
      const answer = await get(
        `/api/relatorios/linhas?dataIni=2022-03-01&dataFim=2022-03-31${extra}&after=${after}`,
        who,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      all.push(...answer.body.items);
      if (answer.body.next === null) return all;
      after = answer.body.next;
    }
    throw new Error("the chunks never ended");
  }

  test("the rows of the files hold the old rows, in time order, only when asked; keyset chunks", async () => {
    expect(await lines("admin", "")).toEqual([]);
    const all = await lines("admin", "&anteriores=1");
    expect(all.map((line) => [line.agendamentoId, line.data, line.status])).toEqual([
      [101, "2022-03-15", "Incompleto"],
      [104, "2022-03-15", "Completo"],
      [102, "2022-03-15", "Incompleto"],
      [103, "2022-03-16", "Completo"],
      [105, "2022-03-20", "Incompleto"],
    ]);
    expect(all[0]).toMatchObject({
      agendaId: null,
      anterior: true,
      ambiente: "Recepção (antiga)",
      colaborador: "Sebastião ASG",
      procedimento: "Limpar piso",
      tipo: "Principal",
      horaIni: "08:00",
      tempoExecucao: "00:20:00",
      foto: null,
    });
    // Chunks of two old rows: the same rows, none twice.
    expect(await lines("admin", "&anteriores=1&size=2")).toEqual(all);
  });

  test("narrowed and scoped as the bookings' rows: a collaborator, a room, a branch, field staff, the client", async () => {
    const of = async (who: Who, extra: string) =>
      (await lines(who, `&anteriores=1${extra}`)).map((line) => line.agendamentoId);
    expect(await of("admin", `&userId=${user.asg}`)).toEqual([101, 102]);
    expect(await of("admin", `&ambienteId=${env.messejana}`)).toEqual([104, 105]);
    expect(await of("coordenador", "")).toEqual([101, 102, 103]);
    expect(await of("cliente", "")).toEqual([101, 102, 103]);
    expect(await of("asg", "")).toEqual([101, 102]);
    expect(await of("outra", "")).toEqual([101]);
    expect(
      (
        await get(
          `/api/relatorios/linhas?dataIni=2022-03-01&dataFim=2022-03-31&anteriores=1&userId=${user.outra}`,
          "admin",
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await get(
          `/api/relatorios/linhas?dataIni=2022-03-01&dataFim=2022-03-31&anteriores=1&ambienteId=${env.messejana}`,
          "coordenador",
        )
      ).status,
    ).toBe(404);
    const forged = Buffer.from(JSON.stringify(["anterior|ontem", 1])).toString("base64url");
    const bad = await get(
      `/api/relatorios/linhas?dataIni=2022-03-01&dataFim=2022-03-31&anteriores=1&after=${forged}`,
      "admin",
    );
    expect(bad.status).toBe(400);
  });
});

describe("bad input and failures (§8)", () => {
  test.each([
    [`/api/dash/user?dataFim=2022-03-31&userId=1`, "Intervalo de datas inválidos, favor verificar"],
    [
      `/api/dash/user?dataInicio=2022-03-31&dataFim=2022-03-01&userId=1`,
      "Intervalo de datas inválidos, favor verificar",
    ],
    [`/api/observacao?${MARCH}&id=1&limit=0`, null],
    [`/api/info/all/environments?${MARCH}&environmentId=abc`, null],
    [`/api/environments/dashboard?dataI=2022-03-01&dataF=ontem&idEmpresa=1`, null],
  ])("%s: 400", async (pathname, message) => {
    const answer = await get(pathname, "admin");
    expect(answer.status).toBe(400);
    if (message) expect(answer.body.message).toBe(message);
    else expect(answer.body.message).toEqual(expect.any(String));
  });

  test("a call that fails inside answers its empty list, not an error", async () => {
    await sql`alter table legacy_observations rename to legacy_observations_away`.execute(t.db);
    try {
      const user_ = await get(`/api/dash/user?${MARCH}&userId=${user.asg}`, "admin");
      expect(user_.status).toBe(200);
      expect(user_.body).toEqual({ data: [], obs: [], more: false });
      const notes = await get(`/api/observacao?${MARCH}&id=${ids.hospital}`, "admin");
      expect(notes.body).toEqual({ objetoFodaResponse: [], more: false });
      // Still 404 outside the scope: the scope is read before the old rows.
      expect((await get(`/api/dash/user?${MARCH}&userId=${user.outra}`, "admin")).status).toBe(404);
    } finally {
      await sql`alter table legacy_observations_away rename to legacy_observations`.execute(t.db);
    }
    expect((await get(`/api/dash/user?${MARCH}&userId=${user.asg}`, "admin")).body.data).toHaveLength(2);
  });
});
