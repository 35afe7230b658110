/**
 * Execution photos served by GET /api/files/photos/{name} and /thumb (docs/photos.md): a photo the ASG recorded
 * through the execution API is served within the scope of its booking (the company, the booking's branch, the ASG's
 * own work) and is 404 'Arquivo não encontrado' to anyone else, whatever they know of its name; the thumbnail is a
 * 320-pixel-wide WebP made once; the answers say `private, max-age=31536000, immutable` and nosniff.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, test } from "vitest";

import { ExecutionDone } from "../../api/routes/execution.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { PHOTO_THUMB_WIDTH } from "../../api/services/thumbnails.ts";
import { startedSlotToday } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits } from "../support/cpf.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

const NOT_FOUND = { message: "Arquivo não encontrado" };
const SIGNED_OUT = { message: "Sessão expirada. Faça login novamente." };
const CACHE = "private, max-age=31536000, immutable";

/** The photos the ASG recorded (their file names) and the bytes sent. */
const photo = { name: "", bytes: tinyPng(800, 600, [0xd3, 0x2f, 0x2f]) };
const untouched = { name: "", bytes: tinyPng(640, 480, [0x38, 0x8e, 0x3c]) };
const small = { name: "", bytes: tinyPng(200, 100) };
const tokens: Record<string, string> = {};

const photoPath = (name: string, thumb = false) =>
  `/api/files/photos/${encodeURIComponent(name)}${thumb ? "/thumb" : ""}`;

async function fetchBytes(path: string, token?: string) {
  const response = await t.fetch("GET", path, { token });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const storage = () => createDiskStorage(t.storageDir);
const thumbNameOf = (name: string) => `${name.replace(/\./g, "-")}.webp`;

beforeAll(async () => {
  const ids = await demoIds(t.db);
  for (const email of [
    "admin@demo.com.br",
    "auditor@demo.com.br",
    "coordenador@demo.com.br",
    "cliente@demo.com.br",
    "semnivel@demo.com.br",
    "asg@demo.com.br",
    "ana@demo.com.br",
    "outra@demo.com.br",
  ]) {
    tokens[email] = await t.signIn(email);
  }
  // The demo has no coordinator of Filial Messejana: one is added, with the demo password.
  const carla = await userByEmail(t.db, "coordenador@demo.com.br");
  await t.db
    .insertInto("users")
    .values({
      email: "coordenador.messejana@fotos.test",
      nome: "Marta Coordenadora",
      cpf: cpfWithCheckDigits("773000001"),
      telefone: "85988887777",
      role_id: 3,
      coordenador: 1,
      company_id: carla.company_id,
      branch_id: ids.messejana,
      password_hash: carla.password_hash,
    })
    .execute();
  tokens.messejana = await t.signIn("coordenador.messejana@fotos.test");

  // The ASG's day: an agenda of today in an Aldeota room with three procedures or more, saved by the admin; the ASG
  // starts the slot and records three procedures, each with a photo.
  const asgToken = tokens["asg@demo.com.br"];
  const { booking, procedures } = await startedSlotToday(
    t,
    { admin: tokens["admin@demo.com.br"], asg: asgToken },
    ids.aldeota,
  );
  for (const [index, target] of [photo, untouched, small].entries()) {
    const form = new FormData();
    form.set("procedureId", String(procedures[index]));
    form.set("photo", new File([target.bytes as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" }));
    const done = await t.call("POST", `/api/execution/bookings/${booking}/procedures`, { token: asgToken, form });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    target.name = ExecutionDone.parse(done.body).image!;
  }
});

describe("in scope: the company, the booking's branch, the ASG's own work", () => {
  test.each([
    ["admin@demo.com.br", "the company's administrator"],
    ["auditor@demo.com.br", "the company's auditor"],
    ["coordenador@demo.com.br", "the coordinator of Filial Aldeota (the booking's branch)"],
    ["cliente@demo.com.br", "the client of Filial Aldeota (roleId 7)"],
    ["semnivel@demo.com.br", "a user of Filial Aldeota without a role"],
    ["asg@demo.com.br", "the ASG who recorded it"],
  ])("%s (%s) gets the photo as stored (the upload re-encoded: JPEG), private for a year, nosniff", async (email) => {
    const { response, bytes } = await fetchBytes(photoPath(photo.name), tokens[email]);
    expect(response.status).toBe(200);
    expect(bytes).toEqual(new Uint8Array((await storage().read("photos", photo.name))!));
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("cache-control")).toBe(CACHE);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test(`the thumbnail is a ${PHOTO_THUMB_WIDTH}-pixel-wide WebP, made once and kept in photo-thumbs`, async () => {
    expect(await storage().read("photo-thumbs", thumbNameOf(photo.name))).toBeNull();
    const first = await fetchBytes(photoPath(photo.name, true), tokens["coordenador@demo.com.br"]);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("content-type")).toBe("image/webp");
    expect(first.response.headers.get("cache-control")).toBe(CACHE);
    expect(first.response.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(first.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 320, 240]);
    expect(PHOTO_THUMB_WIDTH).toBe(320);
    expect(await storage().read("photo-thumbs", thumbNameOf(photo.name))).toEqual(Buffer.from(first.bytes));

    // The second request reads the stored thumbnail: the same bytes, for another caller in scope too.
    const second = await fetchBytes(photoPath(photo.name, true), tokens["asg@demo.com.br"]);
    expect(second.response.status).toBe(200);
    expect(second.bytes).toEqual(first.bytes);
  });

  test("a photo narrower than the thumbnail keeps its size (never enlarged)", async () => {
    const { response, bytes } = await fetchBytes(photoPath(small.name, true), tokens["asg@demo.com.br"]);
    expect(response.status).toBe(200);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 200, 100]);
  });
});

describe("out of scope: 404 'Arquivo não encontrado', the same as a name that does not exist", () => {
  test.each([
    ["outra@demo.com.br", "another tenant's administrator"],
    ["messejana", "the coordinator of another branch (Filial Messejana)"],
    ["ana@demo.com.br", "another ASG of the same branch"],
  ])("%s (%s): the photo and its thumbnail are 404, and no thumbnail is made", async (who) => {
    for (const thumb of [false, true]) {
      const answer = await t.get(photoPath(untouched.name, thumb), { token: tokens[who] });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND);
      expect(answer.headers.get("cache-control")).toBeNull();
    }
    expect(await storage().read("photo-thumbs", thumbNameOf(untouched.name))).toBeNull();
  });

  test("unknown, malformed and avatar names are 404 to an administrator of the company", async () => {
    const avatar = await storage().save("avatars", "png", tinyPng());
    const token = tokens["admin@demo.com.br"];
    for (const name of [
      "lzz0000-0123456789abcdef.png",
      avatar,
      `../avatars/${avatar}`,
      thumbNameOf(photo.name),
      `${photo.name}\u0000`,
      photo.name.replace(".jpg", ".JPG"),
      "x".repeat(300) + ".png",
    ]) {
      for (const thumb of [false, true]) {
        const answer = await t.get(photoPath(name, thumb), { token });
        expect(answer.status, name).toBe(404);
        expect(answer.body, name).toEqual(NOT_FOUND);
      }
    }
  });

  test("without a token, or with one that is not ours, 401 'Sessão expirada. Faça login novamente.'", async () => {
    for (const thumb of [false, true]) {
      for (const token of [undefined, "nao-e-um-token"]) {
        const answer = await t.get(photoPath(photo.name, thumb), { token });
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual(SIGNED_OUT);
      }
      // The token alone makes the difference.
      expect((await t.fetch("GET", photoPath(photo.name, thumb), { token: tokens["asg@demo.com.br"] })).status).toBe(
        200,
      );
    }
  });
});
