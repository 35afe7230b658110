/**
 * The public room page's data (spec 001 §2.14, §4 'Room info page'; docs/room-page.md): GET /api/info/ambiente/{id}
 * without a token, today's scheduled hours paired in order with the cleanings done, as the ASG's phone records them;
 * names, photos and times only; and the avatar thumbnails its cards load.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { RoomPage } from "../../api/routes/info.ts";
import { finishSlot, recordProcedure, startSlot } from "../../api/services/execution.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { THUMB_SIZE } from "../../api/services/thumbnails.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { avatarForm, tinyPng } from "../support/files.ts";

const t = useTestApi();

const TODAY = businessToday();
/** A time of today in Fortaleza (UTC-3, no daylight saving). */
const at = (hhmm: string) => new Date(`${TODAY}T${hhmm}:00-03:00`);

let admin = "";
let asgToken = "";
let asg = { id: 0, nome: "", cpf: "", email: "", telefone: "" };
let environment = { id: 0, name: "", procedure: 0 };
const slots: number[] = []; // the agenda's bookings of today: 08:00, 13:00, 16:00

const room = async (id: number | string = environment.id) => {
  const answer = await t.get(`/api/info/ambiente/${id}`);
  return { ...answer, page: answer.status === 200 ? RoomPage.parse(answer.body) : null };
};
const cards = async () =>
  (await room()).page!.cards.map((card) => [
    card.state,
    card.type,
    card.extra,
    card.scheduled && `${card.scheduled.horaIni}-${card.scheduled.horaFim}`,
    card.performed && `${card.performed.start}-${card.performed.end}`,
  ]);

beforeAll(async () => {
  const ids = await demoIds(t.db);
  admin = await t.signIn("admin@demo.com.br");
  asgToken = await t.signIn("asg@demo.com.br");
  asg = await userByEmail(t.db, "asg@demo.com.br");
  const row = await t.db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .select(["e.id", "e.name", "ep.procedure_id"])
    .where("e.branch_id", "=", ids.aldeota)
    .where("e.deleted_at", "is", null)
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  environment = { id: row.id, name: row.name, procedure: row.procedure_id };

  const saved = await t.post(
    "/api/agendas/v2/saveAgenda",
    [
      {
        Id_EmpresasFilial: ids.aldeota,
        Id_Environments: environment.id,
        Id_Users: asg.id,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: "08:00",
          hora_base_final: "09:00",
          Revisoes: [
            { HORA_INICIAL: "13:00", HORA_FINAL: "13:30" },
            { HORA_INICIAL: "16:00", HORA_FINAL: "16:30" },
          ],
        },
        revisionPhotos: false,
        vigIni: TODAY,
        vigFim: TODAY,
      },
    ],
    { token: admin },
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  const rows = await t.db
    .selectFrom("bookings")
    .select("id")
    .where("agenda_id", "=", saved.body[0].ID)
    .where("data_agend", "=", TODAY)
    .orderBy("slot")
    .execute();
  slots.push(...rows.map((booking) => booking.id));
  expect(slots).toHaveLength(3);
});

describe("GET /api/info/ambiente/{id} (public)", () => {
  test("before any cleaning: the room, today, and its three scheduled hours as upcoming, without a token", async () => {
    const answer = await room();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=60");
    expect(answer.page!.environment).toEqual({ id: environment.id, name: environment.name, empresa: "Filial Aldeota" });
    expect(answer.page!.date).toBe(TODAY);
    expect(await cards()).toEqual([
      ["upcoming", "Principal", false, "08:00-09:00", null],
      ["upcoming", "Revisão", false, "13:00-13:30", null],
      ["upcoming", "Revisão", false, "16:00-16:30", null],
    ]);
    expect(answer.page!.cards.every((card) => card.employeeName === asg.nome)).toBe(true);
  });

  test("no CPF, e-mail or phone in the answer", async () => {
    const text = JSON.stringify((await room()).body);
    expect(text).not.toContain(asg.cpf);
    expect(text).not.toContain(asg.email);
    expect(asg.telefone).toBeTruthy();
    expect(text).not.toContain(asg.telefone);
    expect(text).not.toMatch(/cpf|email|telefone/i);
  });

  test("the main cleaning done pairs with the first hour; a revision started early pairs with the next (§4: in order)", async () => {
    const deps = { db: t.db, storage: createDiskStorage(t.storageDir) };
    const executor = { userId: asg.id, companyId: (await demoIds(t.db)).hospital };
    await startSlot(t.db, executor, slots[0], at("08:05"));
    await recordProcedure(deps, executor, slots[0], { procedureId: environment.procedure }, at("08:20"));
    await finishSlot(t.db, executor, slots[0], at("08:40"));
    expect(await cards()).toEqual([
      ["done", "Principal", false, "08:00-09:00", "08:05-08:40"],
      ["upcoming", "Revisão", false, "13:00-13:30", null],
      ["upcoming", "Revisão", false, "16:00-16:30", null],
    ]);

    // The 16:00 revision started at 10:00: the spec pairs in order, so it shows against 13:00 (docs/room-page.md).
    await startSlot(t.db, executor, slots[2], at("10:00"));
    expect(await cards()).toEqual([
      ["done", "Principal", false, "08:00-09:00", "08:05-08:40"],
      ["inProgress", "Revisão", false, "13:00-13:30", "10:00-null"],
      ["upcoming", "Revisão", false, "16:00-16:30", null],
    ]);
  });

  test("cleanings beyond the day's remaining hours are EXTRA (their bookings removed afterwards)", async () => {
    for (const id of [slots[0], slots[2]])
      expect((await t.delete(`/api/agendas/Agendamentos/${id}`, { token: admin })).status).toBe(204);
    expect(await cards()).toEqual([
      ["done", "Principal", false, "13:00-13:30", "08:05-08:40"],
      ["inProgress", "Revisão", true, null, "10:00-null"],
    ]);
  });

  test("an unknown id: 404 'Ambiente não encontrado'", async () => {
    const answer = await room(999_999);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: "Ambiente não encontrado" });
  });

  test("a room removed through the API: its QR code's page answers 404 'Ambiente não encontrado'", async () => {
    // Another room of the branch than the one the other tests read, so their days stay as they are.
    const { aldeota } = await demoIds(t.db);
    const other = await t.db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", aldeota)
      .where("deleted_at", "is", null)
      .where("id", "!=", environment.id)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    expect((await room(other.id)).status).toBe(200);

    expect((await t.delete(`/api/environments/${other.id}`, { token: admin })).status).toBe(204);
    const row = await t.db
      .selectFrom("environments")
      .select("deleted_at")
      .where("id", "=", other.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();

    const answer = await room(other.id);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: "Ambiente não encontrado" });
  });

  test("a non-numeric or beyond-32-bit id: 400 naming the id, never a 500", async () => {
    for (const [id, message] of [
      ["abc", 'Entrada inválida: esperava um número, recebeu um valor "NaN"'],
      ["2147483648", "Grande demais: esperava que o número fosse <= 2147483647"],
    ]) {
      const answer = await room(id);
      expect(answer.status, id).toBe(400);
      expect(answer.body, id).toEqual({ message, fieldErrors: { id: [message] } });
    }
  });
});

describe("GET /api/files/avatars/{name}/thumb", () => {
  test("the card's photo: the avatar as a 96×96 WebP, made once, cached for a year", async () => {
    const upload = await t.call("PATCH", "/api/users/avatar", {
      token: asgToken,
      form: avatarForm({ bytes: tinyPng(400, 300), name: "foto.png", type: "image/png" }, asg.id),
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const photo = (await room()).page!.cards[0].photo!;
    expect(photo).toBe(upload.body.user.avatar);

    const first = await t.fetch("GET", `/api/files/avatars/${photo}/thumb`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/webp");
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = new Uint8Array(await first.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", THUMB_SIZE, THUMB_SIZE]);
    expect(bytes.byteLength).toBeLessThan(5_000);
    const again = new Uint8Array(await (await t.fetch("GET", `/api/files/avatars/${photo}/thumb`)).arrayBuffer());
    expect(again).toEqual(bytes);
  });

  test("no such avatar, or a name that is not a file name: 404", async () => {
    expect((await t.get("/api/files/avatars/nao-existe.png/thumb")).status).toBe(404);
    expect((await t.get("/api/files/avatars/..%2F..%2Fetc%2Fpasswd/thumb")).status).toBe(404);
  });
});
