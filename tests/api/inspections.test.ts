/**
 * Issue 29, scored inspections through the API (docs/inspections.md): checklists kept by roles 1–2 and versioned;
 * the Auditor (and roles 1–3) inspects a room of its category, with photos; the score and the pass mark written once,
 * so an edited checklist or a new pass mark leaves past results; the client reads its branch's results only; a
 * failure opens one incident (and, for a manager, a corrective cleaning); a re-inspection says what changed.
 */
import { sql } from "kysely";
import sharp from "sharp";
import { beforeAll, describe, expect, test } from "vitest";

import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

let admin = "";
let auditor = "";
/** A room of Filial Aldeota (the coordinator's and the client's branch) and one of Filial Messejana. */
let room = 0;
let otherRoom = 0;
let checklistId = 0;
let items: { id: number; chave: number; texto: string; peso: number }[] = [];
let kindId = 0;

async function roomOf(branch: number) {
  return t.db
    .selectFrom("environments")
    .select(["id", "category_id"])
    .where("branch_id", "=", branch)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
}

const CHECKLIST = [
  { texto: "Piso limpo e seco", peso: 3 },
  { texto: "Lixeiras vazias", peso: 2 },
  { texto: "Espelhos sem manchas", peso: 1 },
  { texto: "Dispensers abastecidos", peso: 4 },
];

type Reply = "conforme" | "nao_conforme" | "nao_se_aplica";

/** A submission as the form sends it: one answer per item, photos as files. */
function inspectionForm(answers: Reply[], extra: Record<string, string> = {}, photos: Record<number, number> = {}) {
  const form = new FormData();
  form.set("ambienteId", String(room));
  form.set("versao", "1");
  for (const [key, value] of Object.entries(extra)) form.set(key, value);
  items.forEach((item, index) => {
    form.set(`resposta_${item.id}`, answers[index]!);
    form.set(`observacao_${item.id}`, answers[index] === "nao_conforme" ? `Falha em ${item.texto}` : "");
    for (let n = 0; n < (photos[index] ?? 0); n++)
      form.append(
        `fotos_${item.id}`,
        new File([tinyPng(40, 30) as Uint8Array<ArrayBuffer>], "f.png", { type: "image/png" }),
      );
  });
  return form;
}

const submit = (form: FormData, token = auditor) => t.call("POST", "/api/inspecoes", { token, form });

beforeAll(async () => {
  const ids = await demoIds(t.db);
  admin = await t.signIn("admin@demo.com.br");
  auditor = await t.signIn("auditor@demo.com.br");
  const aldeota = await roomOf(ids.aldeota);
  room = aldeota.id;
  otherRoom = (await roomOf(ids.messejana)).id;
  // The demo's checklist of the room's category, if any, goes: this file writes its own.
  await t.db.deleteFrom("inspection_answers").execute();
  await t.db.deleteFrom("inspections").execute();
  await t.db.deleteFrom("checklists").execute();
  const created = await t.post(
    "/api/inspecoes/checklists",
    { categoriaId: aldeota.category_id, nome: "Banheiro padrão", itens: CHECKLIST },
    { token: admin },
  );
  expect(created.status).toBe(201);
  checklistId = created.body.id;
  items = created.body.itens;
  kindId = (
    await t.db
      .selectFrom("incident_kinds")
      .innerJoin("companies", "companies.id", "incident_kinds.company_id")
      .select("incident_kinds.id")
      .where("companies.id", "=", ids.hospital)
      .where("incident_kinds.nome", "=", "Sujeira")
      .executeTakeFirstOrThrow()
  ).id;
});

describe("checklists", () => {
  test("roles 1–2 keep them; the rules answer in Portuguese and write nothing", async () => {
    expect(items.map((item) => [item.texto, item.peso])).toEqual(CHECKLIST.map((item) => [item.texto, item.peso]));
    const category = (await t.db.selectFrom("checklists").select("category_id").executeTakeFirstOrThrow()).category_id;
    const bad = async (body: object, message: string, status = 400) => {
      const answer = await t.post(
        "/api/inspecoes/checklists",
        { categoriaId: category, nome: "X", ...body },
        { token: admin },
      );
      expect(answer.status).toBe(status);
      expect(answer.body.message).toBe(message);
    };
    await bad({ itens: CHECKLIST }, "Esta categoria já tem um checklist.", 409);
    await bad({ nome: " ", itens: CHECKLIST }, "Informe o nome do checklist.");
    await bad({ itens: [{ texto: "  ", peso: 1 }] }, "Inclua ao menos um item no checklist.");
    await bad({ itens: [{ texto: "Piso", peso: 6 }] }, "O peso de um item vai de 1 a 5.");
    expect(await t.db.selectFrom("checklists").select("id").execute()).toHaveLength(1);
    for (const email of ["auditor@demo.com.br", "coordenador@demo.com.br", "cliente@demo.com.br"]) {
      const answer = await t.get("/api/inspecoes/checklists", { token: await t.signIn(email) });
      expect(answer.status, email).toBe(403);
    }
  });

  test("the pass mark starts at 85% and takes one decimal", async () => {
    expect((await t.get("/api/inspecoes/nota-minima", { token: auditor })).body).toEqual({ notaMinima: 85 });
    const wrong = await t.put("/api/inspecoes/nota-minima", { notaMinima: 85.25 }, { token: admin });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("A nota mínima vai de 0 a 100, com no máximo uma casa decimal.");
    expect((await t.put("/api/inspecoes/nota-minima", { notaMinima: 85 }, { token: auditor })).status).toBe(403);
  });
});

describe("inspecting", () => {
  let first = 0;

  test("the auditor inspects with two failures and photos: the score and the pass mark are written", async () => {
    const form = await t.get(`/api/inspecoes/formulario/${room}`, { token: auditor });
    expect(form.status).toBe(200);
    expect(form.body.itens.map((item: { texto: string }) => item.texto)).toEqual(CHECKLIST.map((item) => item.texto));
    // 3 + 1 conforme of 3 + 2 + 1 + 4 = 10 applicable: 40%.
    const answer = await submit(
      inspectionForm(
        ["conforme", "nao_conforme", "conforme", "nao_conforme"],
        { observacao: "Visita de rotina" },
        { 1: 2, 3: 1 },
      ),
    );
    expect(answer.status).toBe(201);
    first = answer.body.id;
    expect(answer.body).toMatchObject({
      nota: 40,
      notaMinima: 85,
      aprovada: false,
      pontosConforme: 4,
      pontosAplicaveis: 10,
      observacao: "Visita de rotina",
    });
    const failed = answer.body.respostas.filter((row: { resposta: string }) => row.resposta === "nao_conforme");
    expect(failed.map((row: { fotos: string[] }) => row.fotos.length)).toEqual([2, 1]);
    const photo = await t.fetch("GET", `/api/inspecoes/${first}/fotos/${failed[0].fotos[0]}`, { token: auditor });
    expect(photo.status).toBe(200);
    expect((await sharp(Buffer.from(await photo.arrayBuffer())).metadata()).format).toBe("jpeg");
  });

  test("'Não se aplica' leaves the item out; nothing applicable and unanswered items are refused, nothing written", async () => {
    const before = await t.db.selectFrom("inspections").select("id").execute();
    // 3 conforme of 3 + 4 applicable = 42.857…% → 42.9.
    const partial = await submit(inspectionForm(["conforme", "nao_se_aplica", "nao_se_aplica", "nao_conforme"]));
    expect(partial.body.nota).toBe(42.9);
    const none = await submit(inspectionForm(["nao_se_aplica", "nao_se_aplica", "nao_se_aplica", "nao_se_aplica"]));
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(
      "Marque ao menos um item como Conforme ou Não conforme: sem itens aplicáveis não há nota.",
    );
    const missing = inspectionForm(["conforme", "conforme", "conforme", "conforme"]);
    missing.delete(`resposta_${items[2]!.id}`);
    const unanswered = await submit(missing);
    expect(unanswered.status).toBe(400);
    expect(unanswered.body.message).toBe("Marque cada item como Conforme, Não conforme ou Não se aplica.");
    const tooMany = inspectionForm(["conforme", "conforme", "conforme", "conforme"], {}, { 0: 4 });
    expect((await submit(tooMany)).body.message).toBe("Cada item aceita no máximo 3 fotos.");
    const notImage = inspectionForm(["conforme", "conforme", "conforme", "conforme"]);
    notImage.append(`fotos_${items[0]!.id}`, new File(["texto"], "f.png", { type: "image/png" }));
    expect((await submit(notImage)).status).toBe(415);
    expect(await t.db.selectFrom("inspections").select("id").execute()).toHaveLength(before.length + 1);
    await t.db.deleteFrom("inspection_answers").where("inspection_id", "=", partial.body.id).execute();
    await t.db.deleteFrom("inspections").where("id", "=", partial.body.id).execute();
  });

  test("scope: the client reads its branch's results; another branch's room is 404; ASGs and clients cannot inspect", async () => {
    const client = await t.signIn("cliente@demo.com.br");
    const listed = await t.get("/api/inspecoes", { token: client });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((row: { id: number }) => row.id)).toContain(first);
    expect((await t.get(`/api/inspecoes/${first}`, { token: client })).status).toBe(200);
    expect((await submit(inspectionForm(["conforme", "conforme", "conforme", "conforme"]), client)).status).toBe(403);
    expect((await t.get(`/api/inspecoes/formulario/${room}`, { token: client })).status).toBe(403);
    const asg = await t.signIn("asg@demo.com.br");
    expect((await t.get("/api/inspecoes", { token: asg })).status).toBe(403);
    // The coordinator inspects its own branch; a Messejana room is out of its scope.
    const coordinator = await t.signIn("coordenador@demo.com.br");
    expect((await t.get(`/api/inspecoes/formulario/${room}`, { token: coordinator })).status).toBe(200);
    expect((await t.get(`/api/inspecoes/formulario/${otherRoom}`, { token: coordinator })).status).toBe(404);
    // A room whose category has no checklist.
    const noChecklist = await t.get(`/api/inspecoes/formulario/${otherRoom}`, { token: auditor });
    expect(noChecklist.status).toBe(409);
    expect(noChecklist.body.message).toBe("A categoria deste ambiente não tem checklist de inspeção.");
  });

  test("an edited checklist is the next version; the past inspection keeps its items and score", async () => {
    const edited = await t.put(
      `/api/inspecoes/checklists/${checklistId}`,
      {
        categoriaId: (await t.db.selectFrom("checklists").select("category_id").executeTakeFirstOrThrow()).category_id,
        nome: "Banheiro padrão",
        itens: [
          { chave: items[0]!.chave, texto: "Piso limpo e seco", peso: 1 },
          { chave: items[1]!.chave, texto: "Lixeiras vazias", peso: 5 },
          { texto: "Cheiro agradável", peso: 2 },
        ],
      },
      { token: admin },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.versao).toBe(2);
    expect(edited.body.itens[0].chave).toBe(items[0]!.chave);
    const past = await t.get(`/api/inspecoes/${first}`, { token: admin });
    expect(past.body).toMatchObject({ nota: 40, versao: 1, pontosAplicaveis: 10 });
    expect(past.body.respostas.map((row: { texto: string; peso: number }) => [row.texto, row.peso])).toEqual(
      CHECKLIST.map((item) => [item.texto, item.peso]),
    );
    // Saving the same items again makes no version.
    const same = await t.put(
      `/api/inspecoes/checklists/${checklistId}`,
      {
        categoriaId: edited.body.categoria.id,
        nome: "Banheiro (renomeado)",
        itens: edited.body.itens.map((item: { chave: number; texto: string; peso: number }) => item),
      },
      { token: admin },
    );
    expect(same.body.versao).toBe(2);
  });

  test("a failure opens one incident with the item's photo; a corrective cleaning is for managers", async () => {
    const detail = (await t.get(`/api/inspecoes/${first}`, { token: auditor })).body;
    const [lixeiras, dispensers] = detail.respostas.filter(
      (row: { resposta: string }) => row.resposta === "nao_conforme",
    );
    const conforme = detail.respostas.find((row: { resposta: string }) => row.resposta === "conforme");
    const path = (itemId: number) => `/api/inspecoes/${first}/itens/${itemId}/ocorrencia`;
    expect((await t.post(path(conforme.itemId), { tipoId: kindId }, { token: auditor })).body.message).toBe(
      "Só um item 'Não conforme' pode abrir uma ocorrência.",
    );
    const asgId = (
      await t.db.selectFrom("users").select("id").where("email", "=", "asg@demo.com.br").executeTakeFirstOrThrow()
    ).id;
    const refused = await t.post(path(lixeiras.itemId), { tipoId: kindId, colaboradorId: asgId }, { token: auditor });
    expect(refused.status).toBe(403);
    const opened = await t.post(path(lixeiras.itemId), { tipoId: kindId }, { token: auditor });
    expect(opened.status).toBe(201);
    const incident = await t.get(`/api/ocorrencias/${opened.body.ocorrenciaId}`, { token: admin });
    expect(incident.body).toMatchObject({ status: "aberta", tipo: "Sujeira", ambiente: { id: room } });
    expect(incident.body.descricao).toBe(`Inspeção nº ${first}: Lixeiras vazias — Falha em Lixeiras vazias`);
    expect(incident.body.foto).not.toBeNull();
    const inspector = await t.db
      .selectFrom("users")
      .select("nome")
      .where("email", "=", "auditor@demo.com.br")
      .executeTakeFirstOrThrow();
    expect(incident.body.eventos[0].detalhe).toBe(`Aberta pela inspeção nº ${first} (${inspector.nome})`);
    expect((await t.post(path(lixeiras.itemId), { tipoId: kindId }, { token: auditor })).status).toBe(409);
    const withCleaning = await t.post(
      path(dispensers.itemId),
      { tipoId: kindId, colaboradorId: asgId },
      { token: admin },
    );
    expect(withCleaning.status).toBe(201);
    const second = await t.get(`/api/ocorrencias/${withCleaning.body.ocorrenciaId}`, { token: admin });
    expect(second.body.status).toBe("em_atendimento");
    expect(second.body.eventos.map((event: { tipo: string }) => event.tipo)).toEqual(["aberta", "corretiva"]);
    const after = (await t.get(`/api/inspecoes/${first}`, { token: auditor })).body;
    expect(after.respostas.filter((row: { ocorrencia: unknown }) => row.ocorrencia !== null)).toHaveLength(2);
  });

  test("a re-inspection links to the first and says what changed; the scores group by room, branch and week", async () => {
    const form = await t.get(`/api/inspecoes/formulario/${room}?reinspecaoDe=${first}`, { token: auditor });
    expect(form.body.anterior.id).toBe(first);
    const current = form.body.itens as { id: number; chave: number }[];
    const again = new FormData();
    again.set("ambienteId", String(room));
    again.set("versao", String(form.body.versao));
    again.set("reinspecaoDe", String(first));
    for (const item of current) again.set(`resposta_${item.id}`, "conforme");
    const answer = await submit(again);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ nota: 100, aprovada: true, reinspecaoDe: first, versao: 2 });
    expect(answer.body.anterior.mudancas).toEqual([
      { chave: items[0]!.chave, texto: "Piso limpo e seco", antes: "conforme", agora: "conforme" },
      { chave: items[1]!.chave, texto: "Lixeiras vazias", antes: "nao_conforme", agora: "conforme" },
      { chave: current[2]!.chave, texto: "Cheiro agradável", antes: null, agora: "conforme" },
      // Removed from the checklist since: the answer then, none now.
      { chave: items[2]!.chave, texto: "Espelhos sem manchas", antes: "conforme", agora: null },
      { chave: items[3]!.chave, texto: "Dispensers abastecidos", antes: "nao_conforme", agora: null },
    ]);
    const firstAgain = await t.get(`/api/inspecoes/${first}`, { token: auditor });
    expect(firstAgain.body.reinspecoes.map((row: { id: number }) => row.id)).toEqual([answer.body.id]);
    // A room without a checklist: that is all the form says (another room with one: 'the rules mutations showed').
    const elsewhere = await t.get(`/api/inspecoes/formulario/${otherRoom}?reinspecaoDe=${first}`, { token: admin });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toBe("A categoria deste ambiente não tem checklist de inspeção.");

    const byRoom = await t.get("/api/inspecoes/pontuacao?agrupar=ambiente", { token: admin });
    expect(byRoom.body.items).toEqual([
      { chave: String(room), nome: expect.any(String), inspecoes: 2, media: 70, aprovadas: 1 },
    ]);
    const byWeek = await t.get("/api/inspecoes/pontuacao?agrupar=semana", { token: admin });
    expect(byWeek.body.items.reduce((sum: number, row: { inspecoes: number }) => sum + row.inspecoes, 0)).toBe(2);
    const failedOnly = await t.get("/api/inspecoes?resultado=reprovada", { token: admin });
    expect(failedOnly.body.items.map((row: { id: number }) => row.id)).toEqual([first]);
    expect(failedOnly.body.total).toBe(1);
  });

  test("the daily roll-up the scores and totals read equals the inspections themselves", async () => {
    // The demo's six weeks come back (this file removed them at the start): written as a submission is, by insert.
    const { seedDemoInspections } = await import("../../api/db/demo-inspections.ts");
    await t.db.deleteFrom("checklists").where("id", "<>", checklistId).execute();
    await seedDemoInspections(t.db, new Date());
    const raw = await t.db
      .selectFrom("inspections")
      .select((eb) => [
        "environment_id",
        eb.fn.countAll<string>().as("n"),
        sql<string>`round(avg(nota), 1)`.as("media"),
        sql<string>`count(*) filter (where aprovada)`.as("aprovadas"),
      ])
      .where("created_at", ">=", new Date(Date.now() - 400 * 86_400_000))
      .groupBy("environment_id")
      .execute();
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    const from = new Date(Date.now() - 3 * 3_600_000 - 365 * 86_400_000).toISOString().slice(0, 10);
    const byRoom = await t.get(`/api/inspecoes/pontuacao?agrupar=ambiente&dataIni=${from}&dataFim=${today}`, {
      token: admin,
    });
    expect(byRoom.body.items.length).toBeGreaterThan(5);
    expect(
      byRoom.body.items
        .map((row: { chave: string; inspecoes: number; media: number; aprovadas: number }) => [
          Number(row.chave),
          row.inspecoes,
          row.media,
          row.aprovadas,
        ])
        .sort((a: number[], b: number[]) => a[0]! - b[0]!),
    ).toEqual(
      raw
        .filter((row) => row.environment_id !== undefined)
        .map((row) => [row.environment_id, Number(row.n), Number(row.media), Number(row.aprovadas)])
        .filter(([id]) => byRoom.body.items.some((item: { chave: string }) => Number(item.chave) === id))
        .sort((a, b) => a[0]! - b[0]!),
    );
    const all = await t.get("/api/inspecoes?size=20", { token: admin });
    const hospital = (await demoIds(t.db)).hospital;
    const count = await t.db
      .selectFrom("inspections")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("company_id", "=", hospital)
      .executeTakeFirstOrThrow();
    expect(all.body.total).toBe(Number(count.n));
    const passed = await t.get("/api/inspecoes?resultado=aprovada", { token: admin });
    const passedCount = await t.db
      .selectFrom("inspections")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("aprovada", "=", true)
      .where("company_id", "=", hospital)
      .executeTakeFirstOrThrow();
    expect(passed.body.total).toBe(Number(passedCount.n));
  });

  describe("the rules mutations showed untested", () => {
    type FormItem = { id: number; chave: number; texto: string; peso: number };
    /** The room's form as the inspector gets it now: its version and items. */
    const currentForm = async () => {
      const form = await t.get(`/api/inspecoes/formulario/${room}`, { token: auditor });
      expect(form.status).toBe(200);
      return form.body as { versao: number; checklist_id?: number; itens: FormItem[] };
    };
    /** The first item 'Conforme', every other 'Não conforme', for the version given. */
    const firstOnly = (itens: FormItem[], versao: number) => {
      const form = new FormData();
      form.set("ambienteId", String(room));
      form.set("versao", String(versao));
      itens.forEach((item, index) => {
        form.set(`resposta_${item.id}`, index === 0 ? "conforme" : "nao_conforme");
        form.set(`observacao_${item.id}`, index === 0 ? "" : "Falha");
      });
      return form;
    };
    const inspectionCount = async () =>
      Number(
        (
          await t.db
            .selectFrom("inspections")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );

    test("an edit that changes only an item's weight makes the next version, with that weight", async () => {
      const before = (await t.get(`/api/inspecoes/checklists/${checklistId}`, { token: admin })).body;
      const itens = before.itens.map((item: FormItem, index: number) => ({
        chave: item.chave,
        texto: item.texto,
        peso: index === 0 ? (item.peso === 5 ? 4 : item.peso + 1) : item.peso,
      }));
      const edited = await t.put(
        `/api/inspecoes/checklists/${checklistId}`,
        { categoriaId: before.categoria.id, nome: before.nome, itens },
        { token: admin },
      );
      expect(edited.status).toBe(200);
      expect([edited.body.versao, edited.body.itens[0].peso]).toEqual([before.versao + 1, itens[0].peso]);
    });

    test("a form drawn with the previous version is refused with 409, nothing written", async () => {
      const form = await currentForm();
      const count = await inspectionCount();
      const stale = await submit(firstOnly(form.itens, form.versao - 1));
      expect([stale.status, stale.body.message]).toEqual([
        409,
        "O checklist deste ambiente mudou enquanto a inspeção era feita: abra o formulário de novo.",
      ]);
      expect(await inspectionCount()).toBe(count);
    });

    test("the company's own pass mark decides, not the default 85%", async () => {
      const form = await currentForm();
      const total = form.itens.reduce((sum, item) => sum + item.peso, 0);
      // At most 5 of 5 + 1 + 1: a score under the default mark, which the company's own mark lets pass.
      const nota = Math.round((1000 * form.itens[0]!.peso) / total) / 10;
      expect((await t.put("/api/inspecoes/nota-minima", { notaMinima: nota }, { token: admin })).status).toBe(200);
      try {
        const answer = await submit(firstOnly(form.itens, form.versao));
        expect(answer.body).toMatchObject({ nota, notaMinima: nota, aprovada: true });
      } finally {
        await t.put("/api/inspecoes/nota-minima", { notaMinima: 85 }, { token: admin });
      }
    });

    test("the client lists its branch's inspections only; another branch's is 404 to it", async () => {
      const ids = await demoIds(t.db);
      const client = await t.signIn("cliente@demo.com.br");
      // The demo's six weeks (written above) hold inspections of every branch.
      const elsewhere = await t.db
        .selectFrom("inspections")
        .select("id")
        .where("branch_id", "=", ids.messejana)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      const listed = await t.get("/api/inspecoes?size=160", { token: client });
      const branches = new Set(listed.body.items.map((row: { filial: { id: number } }) => row.filial.id));
      const detail = await t.get(`/api/inspecoes/${elsewhere.id}`, { token: client });
      expect([listed.body.total > 0, [...branches], detail.status]).toEqual([true, [ids.aldeota], 404]);
    });

    test("a re-inspection of another room that has a checklist is refused with 400, nothing written", async () => {
      const first = (
        await t.db
          .selectFrom("inspections")
          .select("id")
          .where("environment_id", "=", room)
          .orderBy("id")
          .executeTakeFirstOrThrow()
      ).id;
      // A room of the same company, not the inspection's, whose category has a checklist (the demo's 'Banheiro').
      const elsewhere = await t.db
        .selectFrom("environments as e")
        .innerJoin("checklists as c", "c.category_id", "e.category_id")
        .select(["e.id"])
        .where("e.id", "<>", room)
        .where("e.deleted_at", "is", null)
        .where("e.company_id", "=", (await demoIds(t.db)).hospital)
        .orderBy("e.id")
        .executeTakeFirstOrThrow();
      const count = await inspectionCount();
      const form = new FormData();
      form.set("ambienteId", String(elsewhere.id));
      form.set("reinspecaoDe", String(first));
      const drawn = await t.get(`/api/inspecoes/formulario/${elsewhere.id}`, { token: auditor });
      form.set("versao", String(drawn.body.versao));
      for (const item of drawn.body.itens as FormItem[]) form.set(`resposta_${item.id}`, "conforme");
      const refused = await submit(form);
      expect([refused.status, refused.body.message]).toEqual([
        400,
        "A reinspeção deve ser do mesmo ambiente da inspeção original.",
      ]);
      expect(await inspectionCount()).toBe(count);
    });
  });
});
