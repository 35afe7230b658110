/**
 * The field app's proof through the whole process (server.ts + the built web app; docs/qr-codes.md 'Reissuing a
 * code', docs/field-app.md 'Proof flags', docs/room-page.md): 'Gerar novo QR code' asked and posted without JS, the
 * printed PNG, sheet and bulk PDF decoded to the new URL; the room page's 'Sou da equipe de limpeza'; the flags on
 * 'Detalhes do Histórico', in the collaborator's Excel and on the board's detail. Needs `npm run build` first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import ExcelJS from "exceljs";
import jsQR from "jsqr";
import { sql } from "kysely";
import { PNG } from "pngjs";
import { getDocumentProxy, renderPageAsImage } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { startServer } from "../../server.ts";
import { demoIds } from "../support/demo.ts";
import { signInOverHttp } from "../support/e2e-global-setup.ts";
import { testServerConfig } from "../support/server-config.ts";

let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;
let cookie = "";
let ids: Awaited<ReturnType<typeof demoIds>>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "field-proof-web-"));
  // A long export wait: the Excel file is the answer itself, not a progress page (docs/exports.md).
  server = await startServer(testServerConfig(dataDir, { EXPORT_WAIT_MS: "60000" }));
  cookie = `sessao=${await signInOverHttp(server.url, "principal@demo.com.br", DEMO_PASSWORD)}`;
  ids = await demoIds(server.database.db);
}, 240_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const db = () => server.database.db;
const get = (pathAndQuery: string, headers: Record<string, string> = { cookie }) =>
  fetch(`${server.url}${pathAndQuery}`, { redirect: "manual", headers });
const post = (pathAndQuery: string, form: URLSearchParams) =>
  fetch(`${server.url}${pathAndQuery}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });

const decodePng = (bytes: ArrayBuffer | Uint8Array) => {
  const png = PNG.sync.read(Buffer.from(bytes as ArrayBuffer));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
};
/** The QR code drawn on a PDF's page, read back: the page rendered by pdf.js on @napi-rs/canvas, then jsQR. */
async function decodePdfPage(bytes: ArrayBuffer, page = 1) {
  // A copy: pdf.js takes the buffer it is given (detaches it), and a test reads several pages of one file.
  const pdf = await getDocumentProxy(new Uint8Array(bytes.slice(0)));
  const image = await renderPageAsImage(pdf, page, { canvasImport: () => import("@napi-rs/canvas"), scale: 1.5 });
  return decodePng(new Uint8Array(image));
}

const qrOf = async (id: number) =>
  db()
    .selectFrom("environments")
    .select(["qr_codigo", "qr_codigo_anterior"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("'Gerar novo QR code' and the printed codes", () => {
  let room = 0;
  let before = "";
  let answer: Response;

  beforeAll(async () => {
    const found = await db()
      .selectFrom("environments")
      .select(["id", "qr_codigo"])
      .where("branch_id", "=", ids.messejana)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    room = found.id;
    before = found.qr_codigo;
    answer = await post(`/ambientes/${room}/qrcode`, new URLSearchParams({ redirectTo: "/ambientes" }));
  }, 60_000);

  test("the confirmation step says the printed code stops proving presence, with the form's button", async () => {
    const html = await (await get(`/ambientes/${room}/qrcode?etapa=reemitir`)).text();
    expect([
      html.includes("O QR code impresso deixará de valer como leitura no local: imprima o novo."),
      /<form method="post"[^>]*>[\s\S]*<button type="submit"[^>]*>Gerar novo QR code<\/button>/.test(html),
    ]).toEqual([true, true]);
  });

  test("the form's post: back to the QR page, the value changed and the one before kept", async () => {
    expect([answer.status, answer.headers.get("location")]).toEqual([
      302,
      `/ambientes/${room}/qrcode?redirectTo=%2Fambientes`,
    ]);
    const after = await qrOf(room);
    expect([after.qr_codigo !== before, after.qr_codigo_anterior]).toEqual([true, before]);
  });

  test("the PNG decodes to the room page's URL with the new value", async () => {
    const { qr_codigo } = await qrOf(room);
    const png = await get(`/ambientes/${room}/qrcode/png`);
    expect(decodePng(await png.arrayBuffer())).toBe(`${server.url}/info/ambiente/${room}?qr=${qr_codigo}`);
  });

  test("the room's sheet (PDF) decodes to the new URL", async () => {
    const { qr_codigo } = await qrOf(room);
    const pdf = await get(`/ambientes/${room}/qrcode/pdf`);
    expect(await decodePdfPage(await pdf.arrayBuffer())).toBe(`${server.url}/info/ambiente/${room}?qr=${qr_codigo}`);
  }, 60_000);

  test("the ticked rows' PDF holds each room's own value, in order", async () => {
    const other = await db()
      .selectFrom("environments")
      .select(["id", "qr_codigo"])
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const { qr_codigo } = await qrOf(room);
    const form = new URLSearchParams([
      ["ids", String(room)],
      ["ids", String(other.id)],
      ["redirectTo", "/ambientes"],
    ]);
    const bytes = await (await post("/ambientes/qrcodes.pdf", form)).arrayBuffer();
    expect([await decodePdfPage(bytes, 1), await decodePdfPage(bytes, 2)]).toEqual([
      `${server.url}/info/ambiente/${room}?qr=${qr_codigo}`,
      `${server.url}/info/ambiente/${other.id}?qr=${other.qr_codigo}`,
    ]);
  }, 90_000);
});

describe("the room page's 'Sou da equipe de limpeza'", () => {
  let room: { id: number; qr_codigo: string };
  beforeAll(async () => {
    room = await db()
      .selectFrom("environments")
      .select(["id", "qr_codigo"])
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
  });
  const visit = async (query: string) => (await get(`/info/ambiente/${room.id}${query}`, {})).text();

  test("opened from the code: the link carries the value it was opened with", async () => {
    const html = await visit(`?qr=${room.qr_codigo}`);
    expect(html).toContain(`href="/campo/ambiente/${room.id}?qr=${room.qr_codigo}">Sou da equipe de limpeza</a>`);
  });

  test("the value shows nowhere else than in links, and the page still has no script", async () => {
    const html = await visit(`?qr=${room.qr_codigo}`);
    const outsideLinks = html.replace(/href="[^"]*"/g, "");
    expect([outsideLinks.includes(room.qr_codigo), /<script/i.test(html)]).toEqual([false, false]);
  });

  test("opened by a typed address: the link has no value (not the room's current one)", async () => {
    const html = await visit("");
    expect([html.includes(`href="/campo/ambiente/${room.id}"`), html.includes(room.qr_codigo)]).toEqual([true, false]);
  });

  test("a value that is not 16 hex digits is not passed on", async () => {
    const html = await visit("?qr=%22%3E%3Cb%3Ex");
    expect(html).toContain(`href="/campo/ambiente/${room.id}">Sou da equipe de limpeza</a>`);
  });

  test("the views' links keep the value", async () => {
    const html = await visit(`?qr=${room.qr_codigo}`);
    expect(html).toContain(`href="?ver=ultimas&amp;qr=${room.qr_codigo}"`);
  });
});

describe("the proof flags managers see", () => {
  const LATE_S = 8100;
  let booking: {
    id: number;
    agenda_id: number;
    user_id: number;
    environment_id: number;
    data_agend: string;
    hora_ini: string;
    hora_fim: string;
  };
  let start: Date;

  beforeAll(async () => {
    // A started main slot of the demo's simulated history before today, with executions, in Filial Aldeota.
    booking = await db()
      .selectFrom("bookings as b")
      .innerJoin("agendas as a", "a.id", "b.agenda_id")
      .select(["b.id", "b.agenda_id", "b.user_id", "b.environment_id", "b.data_agend", "b.hora_ini", "b.hora_fim"])
      .where("b.branch_id", "=", ids.aldeota)
      .where("b.status", "=", "Completo")
      .where("b.slot", "=", 0)
      .where("b.start_date", "is not", null)
      .where("b.data_agend", "<", businessToday())
      .where("a.ativo", "=", true)
      .where("a.deleted_at", "is", null)
      .where((eb) => eb.exists(eb.selectFrom("history as h").select("h.id").whereRef("h.booking_id", "=", "b.id")))
      .orderBy("b.data_agend", "desc")
      .orderBy("b.id")
      .executeTakeFirstOrThrow();
    const row = await db()
      .selectFrom("bookings")
      .select("start_date")
      .where("id", "=", booking.id)
      .executeTakeFirstOrThrow();
    start = row.start_date!;
    await db()
      .updateTable("bookings")
      .set({
        iniciada_via_qr: false,
        envio_atraso_s: LATE_S,
        start_received_at: new Date(start.getTime() + LATE_S * 1000),
      })
      .where("id", "=", booking.id)
      .execute();
  }, 60_000);

  const dayQuery = () => `inicio=${booking.data_agend}&fim=${booking.data_agend}`;
  /** 'dd/MM/yyyy HH:mm:ss' in Fortaleza (UTC−3 all year). */
  const fortaleza = (instant: Date) => {
    const local = new Date(instant.getTime() - 3 * 3_600_000).toISOString();
    return `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 19)}`;
  };

  test("'Detalhes do Histórico': both flags and the start's received instant", async () => {
    const html = await (
      await get(
        `/historico-colaboradores/${booking.user_id}/${booking.environment_id}/${booking.data_agend}?${dayQuery()}`,
      )
    ).text();
    expect([
      html.includes("Sem leitura do QR"),
      html.includes("Enviado com atraso (2 h 15 min após a execução)"),
      html.includes(`<dt>Início recebido</dt><dd>${fortaleza(new Date(start.getTime() + LATE_S * 1000))}</dd>`),
    ]).toEqual([true, true, true]);
  });

  test("the collaborator's Excel: the slot's rows say both flags and the received start", async () => {
    const file = await get(`/historico-colaboradores/${booking.user_id}/relatorio.xlsx?${dayQuery()}`);
    expect(file.headers.get("content-type")).toContain("spreadsheet");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await file.arrayBuffer());
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const column = (name: string) => header.indexOf(name) + 1;
    const horario = `${booking.hora_ini.slice(0, 5)} - ${booking.hora_fim.slice(0, 5)}`;
    const rows = Array.from({ length: sheet.actualRowCount - 1 }, (_, index) => sheet.getRow(index + 2)).filter(
      (row) =>
        row.getCell(column("Agenda")).value === booking.agenda_id && row.getCell(column("Horário")).value === horario,
    );
    expect(rows.length).toBeGreaterThan(0);
    const cells = new Set(
      rows.map((row) =>
        ["Leitura do QR", "Envio", "Início recebido"].map((name) => row.getCell(column(name)).value).join(" | "),
      ),
    );
    expect(cells).toEqual(
      new Set([
        `Sem leitura do QR | Enviado com atraso (2 h 15 min após a execução) | ${fortaleza(new Date(start.getTime() + LATE_S * 1000))}`,
      ]),
    );
  });

  test("the collaborators report with 'Sem leitura do QR' ticked: the box kept ticked, flagged collaborators only", async () => {
    // Who had a slot of the day started without the code (the demo's simulator flags some too), and who had none.
    const day = await db()
      .selectFrom("bookings as b")
      .innerJoin("users as u", "u.id", "b.user_id")
      .select(["u.nome", sql<boolean>`bool_or(b.iniciada_via_qr = false)`.as("flagged")])
      .where("b.company_id", "=", ids.hospital)
      .where("b.data_agend", "=", booking.data_agend)
      .where("b.active", "=", true)
      .groupBy("u.nome")
      .execute();
    const absent = day.find((row) => !row.flagged)!;
    const html = await (await get(`/historico-colaboradores?${dayQuery()}&semQr=1&tamanho=160`)).text();
    const own = day.find((row) => row.flagged && html.includes(row.nome));
    expect([
      /<input[^>]*name="semQr"[^>]*checked=""/.test(html),
      own !== undefined,
      html.includes(`>${absent.nome}</a>`),
    ]).toEqual([true, true, false]);
  });

  test("the board's detail: both flags beside the slot's performed time", async () => {
    const html = await (await get(`/dashboard/agenda/${booking.agenda_id}?dia=${booking.data_agend}`)).text();
    expect([
      html.includes('<span class="board-proof">Sem leitura do QR</span>'),
      html.includes('<span class="board-proof">Enviado com atraso (2 h 15 min após a execução)</span>'),
    ]).toEqual([true, true]);
  });
});
