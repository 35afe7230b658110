/**
 * Uploaded images keep nothing of the phone (docs/photos.md 'Metadata'): an execution photo or an avatar sent with
 * EXIF and a GPS position is stored upright, as a JPEG of its own size, without any metadata, and served so to the
 * managers and the client user; files the older code stored as sent lose their metadata on their first read. A
 * picture over 40 megapixels is refused as too large on every upload path (one check, `api/services/images.ts`).
 */
import { readdir } from "node:fs/promises";
import path from "node:path";

import sharp from "sharp";
import { beforeAll, describe, expect, test, vi } from "vitest";

import { RoomPage } from "../../api/routes/info.ts";
import { InspectableRoomPage, InspectionFormAnswer } from "../../api/routes/inspections.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { startedSlotToday } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { avatarForm } from "../support/files.ts";
import { exifHasGps, overFortyMegapixels, photoWithGps } from "../support/images.ts";

const t = useTestApi();

const TOO_LARGE = "A foto é grande demais: no máximo 40 megapixels.";

const tokens: Record<string, string> = {};
let booking = 0;
let procedures: number[] = [];
let bigPicture: Buffer;

const storage = () => createDiskStorage(t.storageDir);
const photoPath = (name: string) => `/api/files/photos/${encodeURIComponent(name)}`;
const asFile = (bytes: Uint8Array, name: string, type: string) =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type });

async function read(pathname: string, token?: string) {
  const response = await t.fetch("GET", pathname, { token });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes, meta: response.status === 200 ? await sharp(bytes).metadata() : null };
}

/** Records procedure n of the ASG's slot with a photo, as the phone does. */
function recordWithPhoto(n: number, photo: Uint8Array, name = "foto.jpg", type = "image/jpeg") {
  const form = new FormData();
  form.set("procedureId", String(procedures[n]));
  form.set("photo", asFile(photo, name, type));
  return t.call("POST", `/api/execution/bookings/${booking}/procedures`, { token: tokens.asg, form });
}

const filesIn = async (folder: string) => readdir(path.join(t.storageDir, folder)).catch(() => [] as string[]);

beforeAll(async () => {
  const ids = await demoIds(t.db);
  for (const [who, email] of [
    ["admin", "admin@demo.com.br"],
    ["manager", "coordenador@demo.com.br"],
    ["client", "cliente@demo.com.br"],
    ["asg", "asg@demo.com.br"],
    ["auditor", "auditor@demo.com.br"],
  ])
    tokens[who] = await t.signIn(email);
  // The ASG's slot of today in an Aldeota room (the client's and the coordinator's branch), started.
  ({ booking, procedures } = await startedSlotToday(t, { admin: tokens.admin, asg: tokens.asg }, ids.aldeota));
  bigPicture = await overFortyMegapixels();
});

describe("execution photos and avatars are stored upright, as JPEG, without metadata", () => {
  let sent = "";

  beforeAll(async () => {
    const photo = await photoWithGps(800, 600);
    // What the phone sends does carry a position.
    expect(exifHasGps((await sharp(photo).metadata()).exif)).toBe(true);
    const done = await recordWithPhoto(0, photo);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    sent = done.body.image;
  });

  test.each([
    ["manager", "the Aldeota coordinator"],
    ["client", "the Aldeota client user (roleId 7)"],
  ])("%s (%s) reads the photo sent with GPS as an 800×600 JPEG without EXIF", async (who) => {
    const { response, meta } = await read(photoPath(sent), tokens[who]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect([meta!.format, meta!.width, meta!.height]).toEqual(["jpeg", 800, 600]);
    expect(meta!.exif).toBeUndefined();
    expect(meta!.xmp).toBeUndefined();
  });

  test("the stored file itself has no EXIF: copies of the storage (backups, a bucket) tell nothing either", async () => {
    const stored = await storage().read("photos", sent);
    const meta = await sharp(stored!).metadata();
    expect(sent).toMatch(/\.jpg$/);
    expect(meta.exif).toBeUndefined();
  });

  test("a photo taken sideways (EXIF orientation 6) is stored turned upright: 600×800, with no orientation tag", async () => {
    const sideways = await photoWithGps(800, 600, { orientation: 6 });
    const done = await recordWithPhoto(1, sideways);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const { meta } = await read(photoPath(done.body.image), tokens.manager);
    expect([meta!.format, meta!.width, meta!.height, meta!.orientation, meta!.exif]).toEqual([
      "jpeg",
      600,
      800,
      undefined,
      undefined,
    ]);
  });

  test("an avatar sent with GPS is served (publicly) as a JPEG of its size without EXIF", async () => {
    const me = await userByEmail(t.db, "coordenador@demo.com.br");
    const photo = await photoWithGps(300, 200);
    const sentAvatar = await t.call("PATCH", "/api/users/avatar", {
      token: tokens.manager,
      form: avatarForm({ bytes: photo, name: "eu.jpg", type: "image/jpeg" }, me.id),
    });
    expect(sentAvatar.status, JSON.stringify(sentAvatar.body)).toBe(200);
    const name = (await userByEmail(t.db, "coordenador@demo.com.br")).avatar!;
    const { response, meta } = await read(`/api/files/avatars/${name}`);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect([meta!.format, meta!.width, meta!.height, meta!.exif]).toEqual(["jpeg", 300, 200, undefined]);
  });
});

describe("files stored with their metadata before: stripped on their first read", () => {
  test("an execution photo the older code stored with GPS is served without EXIF, upright, and rewritten so", async () => {
    const ids = await demoIds(t.db);
    // As the older code did: the bytes as sent, in the photos folder, named by a history row of an Aldeota booking.
    const old = await storage().save("photos", "jpg", await photoWithGps(640, 480, { orientation: 6 }));
    const row = await t.db
      .selectFrom("history as h")
      .innerJoin("bookings as b", "b.id", "h.booking_id")
      .select("h.id")
      .where("b.branch_id", "=", ids.aldeota)
      .orderBy("h.id")
      .executeTakeFirstOrThrow();
    await t.db.updateTable("history").set({ image: old }).where("id", "=", row.id).execute();

    const first = await read(photoPath(old), tokens.client);
    expect(first.response.status).toBe(200);
    expect([first.meta!.format, first.meta!.width, first.meta!.height, first.meta!.exif]).toEqual([
      "jpeg",
      480,
      640,
      undefined,
    ]);
    const stored = await storage().read("photos", old);
    expect(Buffer.from(stored!)).toEqual(first.bytes);
  });

  test("an avatar PNG the older code stored with EXIF is served as a PNG without it", async () => {
    const old = await storage().save("avatars", "png", await photoWithGps(120, 90, { format: "png" }));
    expect(exifHasGps((await sharp((await storage().read("avatars", old))!).metadata()).exif)).toBe(true);
    const { response, meta } = await read(`/api/files/avatars/${old}`);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect([meta!.format, meta!.width, meta!.height, meta!.exif]).toEqual(["png", 120, 90, undefined]);
  });
});

describe("a picture over 40 megapixels is refused as too large, on every upload path", () => {
  test("the execution API: 413 with the limit, no history row and no file", async () => {
    const filesBefore = await filesIn("photos");
    const answer = await recordWithPhoto(2, bigPicture, "grande.png", "image/png");
    expect([answer.status, answer.body.message]).toEqual([413, TOO_LARGE]);
    const rows = await t.db
      .selectFrom("history")
      .select("id")
      .where("booking_id", "=", booking)
      .where("procedure_id", "=", procedures[2]!)
      .execute();
    expect(rows).toEqual([]);
    expect(await filesIn("photos")).toEqual(filesBefore);
  });

  test("the avatar: 413 with the limit, the avatar unchanged", async () => {
    const before = await userByEmail(t.db, "asg@demo.com.br");
    const answer = await t.call("PATCH", "/api/users/avatar", {
      token: tokens.asg,
      form: avatarForm({ bytes: bigPicture, name: "grande.png", type: "image/png" }, before.id),
    });
    expect([answer.status, answer.body.message]).toEqual([413, TOO_LARGE]);
    expect((await userByEmail(t.db, "asg@demo.com.br")).avatar).toBe(before.avatar);
  });

  test("a visitor's report: 413 with the limit on the photo field, no incident", async () => {
    const ids = await demoIds(t.db);
    const room = await t.db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const kind = await t.db
      .selectFrom("incident_kinds as k")
      .innerJoin("environments as e", "e.company_id", "k.company_id")
      .select("k.id")
      .where("e.id", "=", room.id)
      .where("k.ativo", "=", true)
      .orderBy("k.id")
      .executeTakeFirstOrThrow();
    const incidents = () => t.db.selectFrom("incidents").select("id").where("environment_id", "=", room.id).execute();
    const before = await incidents();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { formToken } = RoomPage.parse((await t.get(`/api/info/ambiente/${room.id}`)).body);
      // A person takes a few seconds to fill the form (a faster post is a robot's, dropped).
      vi.setSystemTime(new Date(Date.now() + 5_000));
      const form = new FormData();
      form.set("tipo", String(kind.id));
      form.set("descricao", "Foto grande");
      form.set("formToken", formToken);
      form.set("foto", asFile(bigPicture, "grande.png", "image/png"));
      const answer = await t.call("POST", `/api/info/ambiente/${room.id}/relato`, {
        form,
        headers: { "x-client-address": "10.39.9.1" },
      });
      expect([answer.status, answer.body]).toEqual([413, { message: TOO_LARGE, fieldErrors: { foto: [TOO_LARGE] } }]);
    } finally {
      vi.useRealTimers();
    }
    expect(await incidents()).toEqual(before);
  });

  test("an inspection's photo: 413 with the limit, no inspection", async () => {
    const rooms = InspectableRoomPage.parse((await t.get("/api/inspecoes/ambientes", { token: tokens.auditor })).body);
    const room = rooms.items[0]!.ambiente.id;
    const checklist = InspectionFormAnswer.parse(
      (await t.get(`/api/inspecoes/formulario/${room}`, { token: tokens.auditor })).body,
    );
    const form = new FormData();
    form.set("ambienteId", String(room));
    form.set("versao", String(checklist.versao));
    for (const item of checklist.itens) form.set(`resposta_${item.id}`, "conforme");
    form.append(`fotos_${checklist.itens[0]!.id}`, asFile(bigPicture, "grande.png", "image/png"));
    const count = async () => (await t.db.selectFrom("inspections").select("id").execute()).length;
    const before = await count();
    const answer = await t.call("POST", "/api/inspecoes", { token: tokens.auditor, form });
    expect([answer.status, answer.body.message]).toEqual([413, TOO_LARGE]);
    expect(await count()).toBe(before);
  });
});
