/**
 * Forms are bounded while they stream in, before any route holds them (docs/security.md 'Hardening, round three',
 * item 1): at most FORM_LIMITS.fields fields and FORM_LIMITS.files files, no more than BODY_LIMIT of text. The visitor's
 * report, the public form that let one anonymous post hold the process, is the route these tests aim at; robots'
 * posts count against the visitor limits as real ones do.
 */
import { readdirSync } from "node:fs";
import path from "node:path";

import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";

import { VISITOR_LIMITS } from "../../api/domain/incidents.ts";
import { DEFAULT_BODY_LIMITS, FORM_LIMITS, FORM_TEXTS } from "../../api/lib/body-limit.ts";
import { RoomPage } from "../../api/routes/info.ts";
import { INCIDENT_PHOTO_FOLDER } from "../../api/services/incidents.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

let room = 0;
let kind = "";
let address = 0;
/** Each test its own address, so one test's posts never count against another's limit. */
const nextAddress = () => `10.39.${Math.floor(address / 250)}.${address++ % 250}`;

const incidents = async () =>
  Number(
    (
      await t.db
        .selectFrom("incidents")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("environment_id", "=", room)
        .executeTakeFirstOrThrow()
    ).n,
  );
const limitRows = (who: string) =>
  t.db.selectFrom("rate_limits").select(["key", "hits"]).where("key", "like", `%:${who}`).execute();
const storedPhotos = () => {
  try {
    return readdirSync(path.join(t.storageDir, INCIDENT_PHOTO_FOLDER));
  } catch {
    return [];
  }
};

/** A form token drawn 3 s ago: old enough to look human. */
async function humanToken() {
  vi.useFakeTimers({ toFake: ["Date"] });
  const page = RoomPage.parse((await t.get(`/api/info/ambiente/${room}`)).body);
  vi.setSystemTime(new Date(Date.now() + 3_000));
  return page.formToken;
}

/**
 * A multipart body: the `first` fields, then `filler` small fields sent 100 to a chunk, pulled by whoever reads the
 * request: `pulled` says how many chunks the server asked for before it answered.
 */
function streamedForm(filler: number, first: Record<string, string> = {}) {
  const boundary = "limite39";
  const part = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const encoder = new TextEncoder();
  const chunks = Math.ceil(filler / 100);
  const progress = { pulled: 0, chunks };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (progress.pulled === chunks) {
        controller.enqueue(encoder.encode(`--${boundary}--\r\n`));
        controller.close();
        return;
      }
      let text =
        progress.pulled === 0
          ? Object.entries(first)
              .map(([name, value]) => part(name, value))
              .join("")
          : "";
      for (let i = progress.pulled * 100; i < Math.min(filler, (progress.pulled + 1) * 100); i++)
        text += part(`campo${i}`, "x");
      progress.pulled++;
      controller.enqueue(encoder.encode(text));
    },
  });
  return { body, progress, type: `multipart/form-data; boundary=${boundary}` };
}

async function postReport(init: { body: BodyInit; type?: string; from: string }) {
  const headers: Record<string, string> = { "x-client-address": init.from };
  if (init.type) headers["content-type"] = init.type;
  const response = await t.api.fetch(
    new Request(`http://test.local/api/info/ambiente/${room}/relato`, {
      method: "POST",
      headers,
      body: init.body,
      duplex: "half",
    } as RequestInit),
  );
  return { status: response.status, body: (await response.json()) as { message?: string } };
}

beforeAll(async () => {
  const ids = await demoIds(t.db);
  room = (
    await t.db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirstOrThrow()
  ).id;
  kind = String(RoomPage.parse((await t.get(`/api/info/ambiente/${room}`)).body).kinds[0]!.id);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a visitor's report over the form limits", () => {
  test("10,000 fields: 413 with the message, the body not read to its end", async () => {
    const form = streamedForm(10_000);
    const answer = await postReport({ body: form.body, type: form.type, from: nextAddress() });
    expect(answer).toEqual({ status: 413, body: { message: FORM_TEXTS.tooManyFields } });
    // Refused at the limit: most of the body was never asked for.
    expect(form.progress.pulled).toBeLessThanOrEqual(FORM_LIMITS.fields / 100 + 2);
    expect(form.progress.pulled).toBeLessThan(form.progress.chunks);
  });

  test("10,000 fields after a human's valid report fields write nothing: no incident, no limit counted", async () => {
    const formToken = await humanToken();
    const before = await incidents();
    const from = nextAddress();
    const form = streamedForm(10_000, { tipo: kind, descricao: "Campos demais", formToken });
    expect((await postReport({ body: form.body, type: form.type, from })).status).toBe(413);
    expect(await incidents()).toBe(before);
    expect(await limitRows(from)).toEqual([]);
  });

  test(`${FORM_LIMITS.fields.toLocaleString("en")} fields in all reach the route: the report is accepted`, async () => {
    const formToken = await humanToken();
    const before = await incidents();
    const form = streamedForm(FORM_LIMITS.fields - 3, { tipo: kind, descricao: "No limite", formToken });
    expect((await postReport({ body: form.body, type: form.type, from: nextAddress() })).status).toBe(202);
    expect(await incidents()).toBe(before + 1);
  });

  test("one field more is refused with 413, no incident", async () => {
    const formToken = await humanToken();
    const before = await incidents();
    const form = streamedForm(FORM_LIMITS.fields - 2, { tipo: kind, descricao: "Um a mais", formToken });
    const answer = await postReport({ body: form.body, type: form.type, from: nextAddress() });
    expect(answer).toEqual({ status: 413, body: { message: FORM_TEXTS.tooManyFields } });
    expect(await incidents()).toBe(before);
  });

  test("a text field over BODY_LIMIT: 413 with the text's message, no incident", async () => {
    const formToken = await humanToken();
    const before = await incidents();
    const form = new FormData();
    form.set("tipo", kind);
    form.set("formToken", formToken);
    form.set("descricao", "x".repeat(DEFAULT_BODY_LIMITS.body + 1));
    const answer = await postReport({ body: form, from: nextAddress() });
    expect(answer).toEqual({
      status: 413,
      body: { message: "O texto do formulário enviado passa do limite de 1 MB." },
    });
    expect(await incidents()).toBe(before);
  });

  test("small fields whose text passes BODY_LIMIT together: 413 with the text's message", async () => {
    const form = new FormData();
    for (let i = 0; i < 1_100; i++) form.append(`campo${i}`, "x".repeat(1_000));
    const answer = await postReport({ body: form, from: nextAddress() });
    expect(answer).toEqual({ status: 413, body: { message: FORM_TEXTS.textTooLarge(DEFAULT_BODY_LIMITS.body) } });
  });

  test(`${FORM_LIMITS.files + 1} files: 413 with the message, no incident and no photo stored`, async () => {
    const formToken = await humanToken();
    const before = await incidents();
    const form = new FormData();
    form.set("tipo", kind);
    form.set("formToken", formToken);
    for (let i = 0; i <= FORM_LIMITS.files; i++) form.append("foto", new File(["x"], `${i}.jpg`));
    const answer = await postReport({ body: form, from: nextAddress() });
    expect(answer).toEqual({ status: 413, body: { message: FORM_TEXTS.tooManyFiles } });
    expect(await incidents()).toBe(before);
    expect(storedPhotos()).toEqual([]);
  });

  test("urlencoded bodies have the same bound: 10,000 fields are 413 before the route's own 415", async () => {
    const body = new URLSearchParams(Array.from({ length: 10_000 }, (_, i) => [`campo${i}`, "x"]));
    const answer = await postReport({ body, type: "application/x-www-form-urlencoded", from: nextAddress() });
    expect(answer).toEqual({ status: 413, body: { message: FORM_TEXTS.tooManyFields } });
  });
});

describe("robots' posts count against the visitor limits", () => {
  const robotReport = (from: string) => {
    const form = new FormData();
    form.set("tipo", kind);
    form.set("descricao", "Robô");
    form.set("formToken", "1.forjado");
    form.set("site", "http://spam.example");
    return postReport({ body: form, from });
  };

  test("ten robot reports from one address: five dropped quietly (202), then 429 as real ones get", async () => {
    const from = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await robotReport(from)).status);
    const allowed = VISITOR_LIMITS.reportsPerAddress;
    expect(statuses).toEqual([...Array(allowed).fill(202), ...Array(10 - allowed).fill(429)]);
  });

  test("once an address is over its limit, its next report is refused with 429 before its body is read", async () => {
    const from = nextAddress();
    for (let i = 0; i <= VISITOR_LIMITS.reportsPerAddress; i++) await robotReport(from);
    const form = streamedForm(1_000);
    const answer = await postReport({ body: form.body, type: form.type, from });
    expect(answer).toEqual({
      status: 429,
      body: { message: "Muitas tentativas. Aguarde alguns minutos e tente novamente." },
    });
    // A stream asks for its first chunk when it is made; nobody asked for another.
    expect(form.progress.pulled).toBeLessThanOrEqual(1);
  });

  test("robot reports write no incident, only the count", async () => {
    const before = await incidents();
    const from = nextAddress();
    for (let i = 0; i < 3; i++) expect((await robotReport(from)).status).toBe(202);
    expect(await incidents()).toBe(before);
    expect(await limitRows(from)).toEqual([{ key: `visitor-report:address:${from}`, hits: 3 }]);
  });

  test("robot ratings count too: the one past the per-address limit is 429", async () => {
    const from = nextAddress();
    const rate = () =>
      t.post(
        `/api/info/ambiente/${room}/avaliacao`,
        { nota: 5, formToken: "1.forjado" },
        { headers: { "x-client-address": from } },
      );
    for (let i = 0; i < VISITOR_LIMITS.ratingsPerAddress; i++) expect((await rate()).status).toBe(202);
    expect((await rate()).status).toBe(429);
  });
});

// Last: it stores a photo, which the tests above count from none.
describe("a report within the limits", () => {
  test("a report with its photo is parsed once, by the guard: the route reads the guard's form, the request's formData() is never called", async () => {
    const formToken = await humanToken();
    const before = { incidents: await incidents(), photos: storedPhotos().length };
    const form = new FormData();
    form.set("tipo", kind);
    form.set("descricao", "Lido uma vez");
    form.set("formToken", formToken);
    form.set("foto", new File([tinyPng(40, 30) as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" }));
    const parses = vi.spyOn(Request.prototype, "formData");
    try {
      expect((await postReport({ body: form, from: nextAddress() })).status).toBe(202);
      expect(parses).not.toHaveBeenCalled();
    } finally {
      parses.mockRestore();
    }
    const incident = await t.db
      .selectFrom("incidents")
      .select(["descricao", "foto"])
      .where("environment_id", "=", room)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(await incidents()).toBe(before.incidents + 1);
    expect(incident.descricao).toBe("Lido uma vez");
    expect(storedPhotos()).toHaveLength(before.photos + 1);
    expect(storedPhotos()).toContain(incident.foto);
  });
});
