/**
 * Issue 28, the visitor's side of the incident loop (docs/incidents.md): from a room's public page a visitor rates the
 * cleaning and reports problems, with no account. The rules: a rating 1–5; a report of one of the company's kinds,
 * text ≤ 500, photo ≤ 5 MB re-encoded without metadata; robots dropped quietly (honeypot, signed form time); limits
 * per address and per room (429); identical reports of a room within 10 minutes merged with a count.
 */
import sharp from "sharp";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";

import { VISITOR_LIMITS } from "../../api/domain/incidents.ts";
import { RoomPage } from "../../api/routes/info.ts";
import { INCIDENT_PHOTO_FOLDER } from "../../api/services/incidents.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { useTestApi } from "../support/api.ts";
import { companyId, COMPANY_B, demoIds } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

let room = 0;
let otherRoom = 0;
let kinds: { id: number; nome: string }[] = [];
let otherCompanyKind = 0;
let address = 0;

/** Each test its own address, so the per-address limit is a test of its own. */
const from = () => ({ "x-client-address": `10.28.${Math.floor(address / 250)}.${address++ % 250}` });

/** The room page's answer (its token drawn at the clock's time). */
async function page(id = room) {
  const answer = await t.get(`/api/info/ambiente/${id}`);
  expect(answer.status).toBe(200);
  return RoomPage.parse(answer.body);
}

/** Moves the clock the API reads (Date only: timers and the database's now() keep running). */
function later(ms: number) {
  vi.setSystemTime(new Date(Date.now() + ms));
}

function reportForm(fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

async function report(fields: Record<string, string | Blob>, headers = from()) {
  return t.call("POST", `/api/info/ambiente/${room}/relato`, { form: reportForm(fields), headers });
}

const kindId = (nome: string) => String(kinds.find((kind) => kind.nome === nome)!.id);
const incidentsOf = (id = room) =>
  t.db.selectFrom("incidents").selectAll().where("environment_id", "=", id).orderBy("id").execute();
const ratingsOf = (id = room) => t.db.selectFrom("room_ratings").selectAll().where("environment_id", "=", id).execute();

beforeAll(async () => {
  const ids = await demoIds(t.db);
  const rooms = await t.db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", ids.aldeota)
    .where("deleted_at", "is", null)
    // The last rooms: the demo's incidents are in each company's first ones (api/db/demo-incidents.ts).
    .orderBy("id", "desc")
    .limit(2)
    .execute();
  [room, otherRoom] = rooms.map((row) => row.id) as [number, number];
  kinds = (await page()).kinds;
  const other = await companyId(t.db, COMPANY_B);
  otherCompanyKind = (
    await t.db.selectFrom("incident_kinds").select("id").where("company_id", "=", other).executeTakeFirstOrThrow()
  ).id;
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the room page's answer", () => {
  test("a signed form token, the company's five kinds in order, no open incident", async () => {
    const answer = await page(otherRoom);
    expect(answer.formToken).toMatch(/^\d{13}\.[\w-]{27}$/);
    expect(answer.kinds.map((kind) => kind.nome)).toEqual([
      "Falta de papel/sabonete",
      "Sujeira",
      "Lixo cheio",
      "Vazamento ou dano",
      "Outro",
    ]);
    expect(answer.openIncident).toBeNull();
  });

  test("a new company starts with the same kinds", async () => {
    const other = await companyId(t.db, COMPANY_B);
    const rows = await t.db
      .selectFrom("incident_kinds")
      .select(["nome", "prazo_minutos", "prova"])
      .where("company_id", "=", other)
      .orderBy("ordem")
      .execute();
    expect(rows).toEqual([
      { nome: "Falta de papel/sabonete", prazo_minutos: 120, prova: "nota" },
      { nome: "Sujeira", prazo_minutos: 120, prova: "foto" },
      { nome: "Lixo cheio", prazo_minutos: 120, prova: "foto" },
      { nome: "Vazamento ou dano", prazo_minutos: 240, prova: "ambos" },
      { nome: "Outro", prazo_minutos: 480, prova: "nota" },
    ]);
  });
});

describe("POST /api/info/ambiente/{id}/avaliacao", () => {
  test("a rating is stored with its room, branch and time; a bad one is refused and writes nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { formToken } = await page(otherRoom);
    later(3_000);
    const before = (await ratingsOf(otherRoom)).length;
    const bad = await t.post(`/api/info/ambiente/${otherRoom}/avaliacao`, { nota: 6, formToken }, { headers: from() });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Escolha uma nota de 1 a 5.");
    const good = await t.post(`/api/info/ambiente/${otherRoom}/avaliacao`, { nota: 4, formToken }, { headers: from() });
    expect(good.status).toBe(202);
    expect(good.body).toEqual({ recebido: true });
    const rows = await ratingsOf(otherRoom);
    expect(rows).toHaveLength(before + 1);
    const ids = await demoIds(t.db);
    expect(rows.at(-1)).toMatchObject({ nota: 4, branch_id: ids.aldeota });
  });

  test("robots are dropped quietly: the honeypot, a form posted in under 2 s or after a day, a forged token", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { formToken } = await page(otherRoom);
    const before = (await ratingsOf(otherRoom)).length;
    const post = (body: object) => t.post(`/api/info/ambiente/${otherRoom}/avaliacao`, body, { headers: from() });
    later(1_000);
    expect((await post({ nota: 5, formToken })).status).toBe(202); // too fast
    later(3_000);
    expect((await post({ nota: 5, formToken, site: "http://spam" })).status).toBe(202); // honeypot
    expect((await post({ nota: 5, formToken: formToken.replace(/.$/, (c) => (c === "a" ? "b" : "a")) })).status).toBe(
      202,
    );
    expect((await post({ nota: 5, formToken: `${Date.now() - 5_000}.${formToken.split(".")[1]}` })).status).toBe(202);
    later(VISITOR_LIMITS.maxFormAgeMs);
    expect((await post({ nota: 5, formToken })).status).toBe(202); // a day late
    expect(await ratingsOf(otherRoom)).toHaveLength(before);
  });

  test("an unknown or removed room is 404", async () => {
    const { formToken } = await page(otherRoom);
    expect((await t.post("/api/info/ambiente/99999999/avaliacao", { nota: 3, formToken })).status).toBe(404);
  });
});

describe("POST /api/info/ambiente/{id}/relato", () => {
  test("a report opens an incident with the kind's deadline, the photo re-encoded without metadata, a timeline", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { formToken } = await page();
    later(3_000);
    const withLocation = await sharp(Buffer.from(tinyPng(40, 30)))
      .jpeg()
      .withExif({ IFD0: { Copyright: "Visitante", Artist: "Alguém" } })
      .toBuffer();
    expect((await sharp(withLocation).metadata()).exif).toBeDefined();
    const answer = await report({
      tipo: kindId("Vazamento ou dano"),
      descricao: "  Pia   vazando no canto  ",
      foto: new File([withLocation], "foto.jpg", { type: "image/jpeg" }),
      formToken,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const [incident] = await incidentsOf();
    expect(incident).toMatchObject({
      status: "aberta",
      descricao: "Pia   vazando no canto",
      relatos: 1,
      owner_id: null,
    });
    expect(incident!.prazo_at.getTime() - incident!.created_at.getTime()).toBe(240 * 60_000);
    const stored = await createDiskStorage(t.storageDir).read(INCIDENT_PHOTO_FOLDER, incident!.foto!);
    const meta = await sharp(stored!).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([40, 30]);
    const events = await t.db
      .selectFrom("incident_events")
      .selectAll()
      .where("incident_id", "=", incident!.id)
      .execute();
    expect(events.map((event) => [event.tipo, event.user_id, event.detalhe])).toEqual([
      ["aberta", null, "Relatado por um visitante"],
    ]);
    // The room page says so, with the time only.
    const state = (await page()).openIncident;
    expect(state?.status).toBe("aberta");
    expect(state?.reportedAt).toMatch(/^\d{2}:\d{2}$/);
  });

  test("identical reports within 10 minutes are one incident with a count; later or different ones are new", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const before = (await incidentsOf()).length;
    const { formToken } = await page();
    later(3_000);
    const kind = kindId("Lixo cheio");
    expect((await report({ tipo: kind, descricao: "Lixeira cheia", formToken })).status).toBe(202);
    later(5 * 60_000);
    expect((await report({ tipo: kind, descricao: "  lixeira   CHEIA ", formToken })).status).toBe(202);
    expect((await report({ tipo: kind, descricao: "Outra lixeira", formToken })).status).toBe(202);
    let rows = await incidentsOf();
    expect(rows).toHaveLength(before + 2);
    expect(rows[before]).toMatchObject({ descricao: "Lixeira cheia", relatos: 2 });
    const events = await t.db
      .selectFrom("incident_events")
      .select("tipo")
      .where("incident_id", "=", rows[before]!.id)
      .orderBy("id")
      .execute();
    expect(events.map((event) => event.tipo)).toEqual(["aberta", "relato_repetido"]);
    // Ten minutes after the last identical report: a new incident.
    later(11 * 60_000);
    expect((await report({ tipo: kind, descricao: "Lixeira cheia", formToken })).status).toBe(202);
    rows = await incidentsOf();
    expect(rows).toHaveLength(before + 3);
  });

  test("bad reports get a Portuguese message and write nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { formToken } = await page();
    later(3_000);
    const before = (await incidentsOf()).length;
    const refusals: [Record<string, string | Blob>, number, string][] = [
      [{ descricao: "sem tipo", formToken }, 400, "Escolha o que aconteceu."],
      [{ tipo: String(otherCompanyKind), formToken }, 400, "Escolha o que aconteceu."],
      [
        { tipo: kindId("Outro"), descricao: "x".repeat(501), formToken },
        400,
        "A descrição pode ter no máximo 500 caracteres.",
      ],
      [
        { tipo: kindId("Outro"), foto: new File(["não é imagem"], "a.jpg", { type: "image/jpeg" }), formToken },
        415,
        "A foto deve ser uma imagem JPEG, PNG, GIF ou WebP.",
      ],
      [
        {
          tipo: kindId("Outro"),
          foto: new File([new Uint8Array(VISITOR_LIMITS.photoMaxBytes + 1)], "a.jpg", { type: "image/jpeg" }),
          formToken,
        },
        413,
        "A foto pode ter no máximo 5 MB.",
      ],
    ];
    for (const [fields, status, message] of refusals) {
      const answer = await report(fields);
      expect(answer.status, message).toBe(status);
      expect(answer.body.message).toBe(message);
    }
    expect(await incidentsOf()).toHaveLength(before);
  });

  test("limits: 5 reports per address and 30 per room in 10 minutes, then 429; the count stays bounded", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { formToken } = await page(otherRoom);
    later(3_000);
    const post = (headers: Record<string, string>, n: number) =>
      t.call("POST", `/api/info/ambiente/${otherRoom}/relato`, {
        form: reportForm({ tipo: kindId("Outro"), descricao: `relato ${n}`, formToken }),
        headers,
      });
    const one = from();
    for (let n = 0; n < VISITOR_LIMITS.reportsPerAddress; n++) expect((await post(one, n)).status).toBe(202);
    const refused = await post(one, 99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    let sent = VISITOR_LIMITS.reportsPerAddress;
    let status = 202;
    while (status === 202 && sent < 100) {
      status = (await post(from(), sent)).status;
      if (status === 202) sent++;
    }
    expect(status).toBe(429);
    expect(sent).toBe(VISITOR_LIMITS.reportsPerRoom);
    expect(await incidentsOf(otherRoom)).toHaveLength(VISITOR_LIMITS.reportsPerRoom);
  });
});

describe("the merge of identical reports, as the rules say (docs/incidents.md)", () => {
  /** A third room: the limits test above spends the other two rooms' counts. */
  let thirdRoom = 0;
  beforeAll(async () => {
    const ids = await demoIds(t.db);
    thirdRoom = (
      await t.db
        .selectFrom("environments")
        .select("id")
        .where("branch_id", "=", ids.aldeota)
        .where("deleted_at", "is", null)
        .where("id", "not in", [room, otherRoom])
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow()
    ).id;
  });

  async function reportOther(descricao: string, formToken: string) {
    const form = reportForm({ tipo: kindId("Sujeira"), descricao, formToken });
    const answer = await t.call("POST", `/api/info/ambiente/${thirdRoom}/relato`, { form, headers: from() });
    expect(answer.status).toBe(202);
  }

  test("a closed incident takes no more reports: the same report again opens a new incident", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const { formToken } = await page(thirdRoom);
    later(3_000);
    await reportOther("Pia entupida no fundo", formToken);
    const [closed] = (await incidentsOf(thirdRoom)).filter((row) => row.descricao === "Pia entupida no fundo");
    const admin = await t.signIn("admin@demo.com.br");
    const discarded = await t.post(
      `/api/ocorrencias/${closed!.id}/eventos`,
      { tipo: "descartada", motivo: "Resolvido na hora" },
      { token: admin },
    );
    expect(discarded.status).toBe(200);
    later(60_000);
    await reportOther("Pia entupida no fundo", formToken);
    const rows = (await incidentsOf(thirdRoom)).filter((row) => row.descricao === "Pia entupida no fundo");
    expect(rows.map((row) => [row.status, row.relatos])).toEqual([
      ["descartada", 1],
      ["aberta", 1],
    ]);
  });

  test("the 10 minutes count from the last identical report, not the first", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const { formToken } = await page(thirdRoom);
    later(3_000);
    await reportOther("Espelho quebrado", formToken);
    later(8 * 60_000);
    await reportOther("Espelho quebrado", formToken);
    // 16 minutes after the first, 8 after the last: still the same incident.
    later(8 * 60_000);
    await reportOther("Espelho quebrado", formToken);
    const rows = (await incidentsOf(thirdRoom)).filter((row) => row.descricao === "Espelho quebrado");
    expect(rows.map((row) => row.relatos)).toEqual([3]);
  });
});
