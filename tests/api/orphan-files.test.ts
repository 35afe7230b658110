/**
 * Photos no row names (docs/security.md 'Hardening, round three', item 7; docs/storage.md 'Orphan files';
 * docs/photos.md 'Where files live'): a visitor's report, an inspection, an inspection failure's incident, an
 * incident's resolution, an execution photo or an avatar whose write fails after its file was saved removes the file; a replaced avatar is
 * removed with its thumbnail; and the sweep removes old files no row names (incident, inspection and execution photos,
 * avatars, and the thumbnails of uploads no row names), on the disk and in an S3-compatible bucket, keeping those a
 * row names (bare or under their folder), their thumbnails, and those too young to judge.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";

import { ExecutionDone } from "../../api/routes/execution.ts";
import { RoomPage } from "../../api/routes/info.ts";
import { PHOTO_FOLDER } from "../../api/services/execution.ts";
import { INCIDENT_PHOTO_FOLDER } from "../../api/services/incidents.ts";
import { INSPECTION_PHOTO_FOLDER } from "../../api/services/inspections.ts";
import { AVATAR_FOLDER, ORPHAN_MIN_AGE_MS, sweepOrphanFiles } from "../../api/services/orphan-files.ts";
import { createDiskStorage, type Storage } from "../../api/services/storage.ts";
import { thumbnail } from "../../api/services/thumbnails.ts";
import { startedSlotToday } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";
import { avatarForm, tinyPng } from "../support/files.ts";
import { startLocalS3, type LocalS3 } from "../support/s3.ts";

const t = useTestApi();
let s3: LocalS3;
const scratch: string[] = [];

beforeAll(async () => {
  s3 = await startLocalS3(["orfaos"]);
});
afterAll(async () => {
  await s3?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The files of a folder of the test API's disk storage, sorted (none when the folder was never made). */
const filesIn = (folder: string) => {
  try {
    return readdirSync(path.join(t.storageDir, folder)).sort();
  } catch {
    return [];
  }
};

const namesIn = async (storage: Storage, folder = INCIDENT_PHOTO_FOLDER) => {
  const names: string[] = [];
  for await (const file of storage.list(folder)) names.push(file.name);
  return names.sort();
};

/** Where thumbnails.ts keeps an upload's thumbnail: `{name with dots as dashes}.webp` in the kind's folder. */
const thumbOf = (name: string) => `${name.replace(/\./g, "-")}.webp`;
const AVATAR_THUMBS = "avatar-thumbs";
const PHOTO_THUMBS = "photo-thumbs";

/** A visitor's report with a photo, posted as the room page does (a form token 3 s old). */
async function visitorReport(room: number, descricao: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  const page = RoomPage.parse((await t.get(`/api/info/ambiente/${room}`)).body);
  vi.setSystemTime(new Date(Date.now() + 3_000));
  const form = new FormData();
  form.set("tipo", String(page.kinds[0]!.id));
  form.set("descricao", descricao);
  form.set("formToken", page.formToken);
  form.set("foto", new File([tinyPng(40, 30) as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" }));
  return t.call("POST", `/api/info/ambiente/${room}/relato`, {
    form,
    headers: { "x-client-address": `10.7.0.${descricao.length}` },
  });
}

describe("a visitor's report whose write fails after its photo is saved", () => {
  const FAILING = "Falha depois da foto";
  let room = 0;

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
    // The incident's insert fails after the photo step, as a constraint or a lost connection would make it.
    await sql`
      create function test_fail_report() returns trigger language plpgsql as $$
      begin
        if new.descricao = ${sql.lit(FAILING)} then raise exception 'falha injetada'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger test_fail_report before insert on incidents
      for each row execute function test_fail_report()`.execute(t.db);
  });

  const report = (descricao: string) => visitorReport(room, descricao);

  const files = () => filesIn(INCIDENT_PHOTO_FOLDER);

  test("leaves no photo file behind", async () => {
    const before = files();
    const answer = await report(FAILING);
    expect(answer.status).toBe(500);
    expect(files()).toEqual(before);
  });

  test("while a report that is written keeps its photo, named by its incident", async () => {
    const before = files();
    expect((await report("Pia entupida")).status).toBe(202);
    const added = files().filter((name) => !before.includes(name));
    const incident = await t.db
      .selectFrom("incidents")
      .select("foto")
      .where("environment_id", "=", room)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(added).toEqual([incident.foto]);
  });
});

describe("an inspection, or an incident's resolution, whose write fails after its photos are saved", () => {
  const FAILING = "Falha depois das fotos";
  let room = 0;
  let admin = "";
  let auditor = "";
  let asg = "";
  let asgId = 0;
  let items: { id: number }[] = [];

  beforeAll(async () => {
    const ids = await demoIds(t.db);
    [admin, auditor, asg] = await Promise.all(
      ["admin@demo.com.br", "auditor@demo.com.br", "asg@demo.com.br"].map((email) => t.signIn(email)),
    );
    asgId = (
      await t.db.selectFrom("users").select("id").where("email", "=", "asg@demo.com.br").executeTakeFirstOrThrow()
    ).id;
    const aldeota = await t.db
      .selectFrom("environments")
      .select(["id", "category_id"])
      .where("branch_id", "=", ids.aldeota)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    room = aldeota.id;
    // This file's own checklist for the room's category (the demo's, if any, goes).
    await t.db.deleteFrom("inspection_answers").execute();
    await t.db.deleteFrom("inspections").execute();
    await t.db.deleteFrom("checklists").execute();
    const created = await t.post(
      "/api/inspecoes/checklists",
      {
        categoriaId: aldeota.category_id,
        nome: "Banheiro",
        itens: [
          { texto: "Piso limpo", peso: 1 },
          { texto: "Espelho limpo", peso: 1 },
        ],
      },
      { token: admin },
    );
    expect(created.status).toBe(201);
    items = created.body.itens;
    // The rows naming the photos fail after the photos are saved, as a constraint or a lost connection would.
    for (const [table, column] of [
      ["inspections", "observacao"],
      ["incident_events", "detalhe"],
    ] as const) {
      await sql`
        create function ${sql.raw(`test_fail_${table}`)}() returns trigger language plpgsql as $$
        begin
          if new.${sql.raw(column)} = ${sql.lit(FAILING)} then raise exception 'falha injetada'; end if;
          return new;
        end $$`.execute(t.db);
      await sql`create trigger ${sql.raw(`test_fail_${table}`)} before insert on ${sql.table(table)}
        for each row execute function ${sql.raw(`test_fail_${table}`)}()`.execute(t.db);
    }
    // An incident opened from an inspection's failed item carries the item's note in its description.
    await sql`
      create function test_fail_failure_copy() returns trigger language plpgsql as $$
      begin
        if new.descricao like ${sql.lit(`%${FAILING}%`)} then raise exception 'falha injetada'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger test_fail_failure_copy before insert on incidents
      for each row execute function test_fail_failure_copy()`.execute(t.db);
  });

  const photo = () => new File([tinyPng(40, 30) as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" });

  function inspect(observacao: string) {
    const form = new FormData();
    form.set("ambienteId", String(room));
    form.set("versao", "1");
    form.set("observacao", observacao);
    for (const item of items) {
      form.set(`resposta_${item.id}`, "conforme");
      form.append(`fotos_${item.id}`, photo());
      form.append(`fotos_${item.id}`, photo());
    }
    return t.call("POST", "/api/inspecoes", { token: auditor, form });
  }

  test("an inspection with four photos whose write fails leaves none of them", async () => {
    const before = filesIn(INSPECTION_PHOTO_FOLDER);
    const answer = await inspect(FAILING);
    expect(answer.status).toBe(500);
    expect(filesIn(INSPECTION_PHOTO_FOLDER)).toEqual(before);
    expect(await t.db.selectFrom("inspections").select("id").where("observacao", "=", FAILING).execute()).toEqual([]);
  });

  test("while an inspection that is written keeps its four photos, named by its answers", async () => {
    const before = filesIn(INSPECTION_PHOTO_FOLDER);
    expect((await inspect("Tudo certo")).status).toBe(201);
    const added = filesIn(INSPECTION_PHOTO_FOLDER).filter((name) => !before.includes(name));
    const named = await t.db.selectFrom("inspection_answers").select("fotos").execute();
    expect(added).toHaveLength(4);
    expect(added).toEqual(named.flatMap((row) => row.fotos).sort());
  });

  test("an incident opened from an inspection's failed item whose write fails leaves no copy of its photo", async () => {
    const [failing, other] = items;
    const form = new FormData();
    form.set("ambienteId", String(room));
    form.set("versao", "1");
    form.set("observacao", "Dois itens com falha");
    for (const [item, note] of [
      [failing!, FAILING],
      [other!, "Espelho manchado"],
    ] as const) {
      form.set(`resposta_${item.id}`, "nao_conforme");
      form.set(`observacao_${item.id}`, note);
      form.append(`fotos_${item.id}`, photo());
    }
    const inspection = await t.call("POST", "/api/inspecoes", { token: auditor, form });
    expect(inspection.status).toBe(201);
    const path = (itemId: number) => `/api/inspecoes/${inspection.body.id}/itens/${itemId}/ocorrencia`;
    const kind = await t.db
      .selectFrom("incident_kinds")
      .select("id")
      .where("company_id", "=", (await demoIds(t.db)).hospital)
      .where("ativo", "=", true)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const before = filesIn(INCIDENT_PHOTO_FOLDER);

    const failed = await t.post(path(failing!.id), { tipoId: kind.id }, { token: auditor });
    expect(failed.status).toBe(500);
    expect(filesIn(INCIDENT_PHOTO_FOLDER)).toEqual(before);
    const answer = await t.db
      .selectFrom("inspection_answers")
      .select("incident_id")
      .where("inspection_id", "=", inspection.body.id)
      .where("item_id", "=", failing!.id)
      .executeTakeFirstOrThrow();
    expect(answer.incident_id).toBeNull();

    // The other item's incident is written, and keeps its copy.
    const opened = await t.post(path(other!.id), { tipoId: kind.id }, { token: auditor });
    expect(opened.status).toBe(201);
    const incident = await t.db
      .selectFrom("incidents")
      .select("foto")
      .where("id", "=", opened.body.ocorrenciaId)
      .executeTakeFirstOrThrow();
    expect(incident.foto).not.toBeNull();
    expect(filesIn(INCIDENT_PHOTO_FOLDER).filter((name) => !before.includes(name))).toEqual([incident.foto]);
  });

  test("an incident's resolution with a photo whose write fails leaves no photo, and the incident open", async () => {
    expect((await visitorReport(room, "Pia suja na resolução")).status).toBe(202);
    const incident = await t.db
      .selectFrom("incidents")
      .select(["id", "foto"])
      .where("environment_id", "=", room)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const corrective = await t.post(
      `/api/ocorrencias/${incident.id}/eventos`,
      { tipo: "corretiva", colaboradorId: asgId },
      { token: admin },
    );
    expect(corrective.status).toBe(200);
    const before = filesIn(INCIDENT_PHOTO_FOLDER);
    const form = new FormData();
    form.set("nota", FAILING);
    form.set("foto", photo());
    const answer = await t.call("POST", `/api/execution/incidents/${incident.id}/resolve`, { token: asg, form });
    expect(answer.status).toBe(500);
    expect(filesIn(INCIDENT_PHOTO_FOLDER)).toEqual(before);
    expect(
      (await t.db.selectFrom("incidents").select("status").where("id", "=", incident.id).executeTakeFirstOrThrow())
        .status,
    ).not.toBe("resolvida");
  });
});

describe("an avatar", () => {
  const FAILING_EMAIL = "semnivel@demo.com.br";

  beforeAll(async () => {
    // The users row naming a new avatar fails after the file is saved, as a lost connection would make it (once the
    // user has one, so the first upload is written).
    await sql`
      create function test_fail_avatar() returns trigger language plpgsql as $$
      begin
        if new.email = ${sql.lit(FAILING_EMAIL)} and old.avatar is not null and new.avatar is distinct from old.avatar then
          raise exception 'falha injetada';
        end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger test_fail_avatar before update on users
      for each row execute function test_fail_avatar()`.execute(t.db);
  });

  const upload = async (token: string, userId: number, rgb: [number, number, number]) =>
    t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: tinyPng(6, 6, rgb), name: "avatar.png", type: "image/png" }, userId),
    });

  test("replaced by another is removed with its thumbnail once the new one is written", async () => {
    const email = "coordenador@demo.com.br";
    const token = await t.signIn(email);
    const me = await userByEmail(t.db, email);
    const first = await upload(token, me.id, [0xd3, 0x2f, 0x2f]);
    expect(first.status).toBe(200);
    const old = first.body.user.avatar as string;
    // Its thumbnail, as the room page makes it.
    expect((await t.fetch("GET", `/api/files/avatars/${old}/thumb`)).status).toBe(200);
    expect(filesIn(AVATAR_FOLDER)).toContain(old);
    expect(filesIn(AVATAR_THUMBS)).toContain(thumbOf(old));

    const second = await upload(token, me.id, [0x38, 0x8e, 0x3c]);
    expect(second.status).toBe(200);
    const replacement = second.body.user.avatar as string;
    expect((await userByEmail(t.db, email)).avatar).toBe(replacement);
    expect(filesIn(AVATAR_FOLDER)).toContain(replacement);
    expect(filesIn(AVATAR_FOLDER)).not.toContain(old);
    expect(filesIn(AVATAR_THUMBS)).not.toContain(thumbOf(old));
    expect((await t.fetch("GET", `/api/files/avatars/${old}`)).status).toBe(404);
  });

  test("whose write fails leaves no file behind, and the previous one in place", async () => {
    const token = await t.signIn(FAILING_EMAIL);
    const me = await userByEmail(t.db, FAILING_EMAIL);
    const first = await upload(token, me.id, [0x1e, 0x88, 0xe5]);
    expect(first.status).toBe(200);
    const previous = first.body.user.avatar as string;
    const before = filesIn(AVATAR_FOLDER);
    expect(before).toContain(previous);
    expect((await upload(token, me.id, [0x8a, 0x2f, 0x5b])).status).toBe(500);
    expect(filesIn(AVATAR_FOLDER)).toEqual(before);
    expect((await userByEmail(t.db, FAILING_EMAIL)).avatar).toBe(previous);
  });
});

/** The ASG's slot of today, started once for the execution cases (a room with three procedures or more). */
let slotStarted: Promise<{ asg: string; booking: number; procedures: number[] }> | undefined;
const startedSlot = () =>
  (slotStarted ??= (async () => {
    const ids = await demoIds(t.db);
    const [admin, asg] = await Promise.all(["admin@demo.com.br", "asg@demo.com.br"].map((email) => t.signIn(email)));
    return { asg: asg!, ...(await startedSlotToday(t, { admin: admin!, asg: asg! }, ids.aldeota, 3)) };
  })());

/** One procedure recorded from the field, with a photo and a note when given. */
async function recordProcedure(procedure: number, extra: { foto?: File; observacao?: string } = {}) {
  const { asg, booking } = await startedSlot();
  const form = new FormData();
  form.set("procedureId", String(procedure));
  if (extra.foto) form.set("photo", extra.foto);
  if (extra.observacao) form.set("observacao", extra.observacao);
  return t.call("POST", `/api/execution/bookings/${booking}/procedures`, { token: asg, form });
}

/** Two history rows of the ASG's day (procedures recorded without a photo), made once for both storages. */
let historyRows: Promise<number[]> | undefined;
const twoHistoryRows = () =>
  (historyRows ??= (async () => {
    const { procedures } = await startedSlot();
    const rows: number[] = [];
    for (const procedure of procedures.slice(0, 2)) {
      const done = await recordProcedure(procedure);
      expect(done.status, JSON.stringify(done.body)).toBe(201);
      rows.push(ExecutionDone.parse(done.body).id);
    }
    return rows;
  })());

describe("an execution photo whose write fails after it is saved", () => {
  const FAILING = "Falha depois da foto do procedimento";
  const photo = () => new File([tinyPng(40, 30) as Uint8Array<ArrayBuffer>], "foto.png", { type: "image/png" });

  beforeAll(async () => {
    // The history row's insert fails after the photo is saved, as a constraint or a lost connection would make it.
    await sql`
      create function test_fail_history() returns trigger language plpgsql as $$
      begin
        if new.observacao = ${sql.lit(FAILING)} then raise exception 'falha injetada'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger test_fail_history before insert on history
      for each row execute function test_fail_history()`.execute(t.db);
  });

  test("leaves no photo file behind, and nothing recorded", async () => {
    const { procedures, booking } = await startedSlot();
    const before = filesIn(PHOTO_FOLDER);
    const answer = await recordProcedure(procedures[2]!, { foto: photo(), observacao: FAILING });
    expect(answer.status).toBe(500);
    expect(filesIn(PHOTO_FOLDER)).toEqual(before);
    expect(
      await t.db
        .selectFrom("history")
        .select("id")
        .where("booking_id", "=", booking)
        .where("procedure_id", "=", procedures[2]!)
        .execute(),
    ).toEqual([]);
  });

  test("while one that is written keeps its photo, named by its history row", async () => {
    const { procedures } = await startedSlot();
    const before = filesIn(PHOTO_FOLDER);
    const answer = await recordProcedure(procedures[2]!, { foto: photo(), observacao: "Tudo limpo" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const added = filesIn(PHOTO_FOLDER).filter((name) => !before.includes(name));
    expect(added).toEqual([ExecutionDone.parse(answer.body).image]);
  });
});

describe.each([
  [
    "disk",
    () => {
      const root = mkdtempSync(path.join(tmpdir(), "orphans-"));
      scratch.push(root);
      return createDiskStorage(root);
    },
  ],
  ["S3 bucket under a key prefix", () => s3.storage("orfaos", "instancia/")],
])("the orphan sweep: %s", (_name, make) => {
  let storage: Storage;
  const saved = { orphan: "", ofIncident: "", ofEvent: "" };
  const inspectionPhotos = { orphan: "", named: "" };
  /** Execution photos and avatars: one no row names, one named bare, one named under its folder, each with its thumbnail. */
  const photos = { orphan: "", named: "", namedUnderFolder: "", thumbless: "" };
  const avatars = { orphan: "", named: "", namedUnderFolder: "", thumbless: "" };
  let removedWhileYoung = -1;
  let removedWhenOld = -1;

  beforeAll(async () => {
    storage = make();
    const photo = tinyPng(4, 4);
    for (const key of Object.keys(saved) as (keyof typeof saved)[])
      saved[key] = await storage.save(INCIDENT_PHOTO_FOLDER, "jpg", photo);
    const incident = await t.db.selectFrom("incidents").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow();
    await t.db.updateTable("incidents").set({ foto: saved.ofIncident }).where("id", "=", incident.id).execute();
    await t.db
      .insertInto("incident_events")
      .values({ incident_id: incident.id, tipo: "resolvida", detalhe: "Foto da resolução", foto: saved.ofEvent })
      .execute();
    inspectionPhotos.orphan = await storage.save(INSPECTION_PHOTO_FOLDER, "jpg", photo);
    inspectionPhotos.named = await storage.save(INSPECTION_PHOTO_FOLDER, "jpg", photo);
    const answer = await t.db
      .selectFrom("inspection_answers")
      .select(["inspection_id", "item_id"])
      .limit(1)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable("inspection_answers")
      .set({ fotos: [inspectionPhotos.named] })
      .where("inspection_id", "=", answer.inspection_id)
      .where("item_id", "=", answer.item_id)
      .execute();
    for (const [folder, files, kind] of [
      [PHOTO_FOLDER, photos, "photo"],
      [AVATAR_FOLDER, avatars, "avatar"],
    ] as const) {
      for (const key of Object.keys(files) as (keyof typeof files)[]) {
        files[key] = await storage.save(folder, "jpg", tinyPng(8, 6));
        // Its thumbnail, as the file routes make it.
        expect(await thumbnail(storage, kind, files[key])).not.toBeNull();
      }
      // A thumbnail whose upload is already gone (removed by hand, or before the sweep knew thumbnails).
      await storage.remove(folder, files.thumbless);
    }
    const [bare, underFolder] = await twoHistoryRows();
    await t.db.updateTable("history").set({ image: photos.named }).where("id", "=", bare!).execute();
    await t.db
      .updateTable("history")
      .set({ image: `${PHOTO_FOLDER}/${photos.namedUnderFolder}` })
      .where("id", "=", underFolder!)
      .execute();
    for (const [email, avatar] of [
      ["ana@demo.com.br", avatars.named],
      ["outra@demo.com.br", `${AVATAR_FOLDER}/${avatars.namedUnderFolder}`],
    ] as const)
      await t.db.updateTable("users").set({ avatar }).where("email", "=", email).execute();
    const deps = { db: t.db, storage };
    removedWhileYoung = await sweepOrphanFiles(deps, new Date());
    removedWhenOld = await sweepOrphanFiles(deps, new Date(Date.now() + ORPHAN_MIN_AGE_MS + 60_000));
  });

  test("a file younger than an hour is kept though no row names it", () => {
    expect(removedWhileYoung).toBe(0);
  });

  test("an old file no row names is removed, an incident's and an inspection's", async () => {
    // Four uploads (an incident's, an inspection's, an execution photo, an avatar) and two thumbnails of gone uploads.
    expect(removedWhenOld).toBe(6);
    expect(await namesIn(storage)).not.toContain(saved.orphan);
    expect(await namesIn(storage, INSPECTION_PHOTO_FOLDER)).not.toContain(inspectionPhotos.orphan);
  });

  test("an old file an inspection's answer names is kept", async () => {
    expect(await namesIn(storage, INSPECTION_PHOTO_FOLDER)).toContain(inspectionPhotos.named);
  });

  test("an old file an incident names is kept", async () => {
    expect(await namesIn(storage)).toContain(saved.ofIncident);
  });

  test("an old file an incident's event names is kept", async () => {
    expect(await namesIn(storage)).toContain(saved.ofEvent);
  });

  test.each([
    ["an execution photo", PHOTO_FOLDER, PHOTO_THUMBS, photos],
    ["an avatar", AVATAR_FOLDER, AVATAR_THUMBS, avatars],
  ])("%s no row names is removed with its thumbnail", async (_kind, folder, thumbs, files) => {
    expect(await namesIn(storage, folder)).not.toContain(files.orphan);
    expect(await namesIn(storage, thumbs)).not.toContain(thumbOf(files.orphan));
  });

  test.each([
    ["an execution photo", PHOTO_FOLDER, PHOTO_THUMBS, photos],
    ["an avatar", AVATAR_FOLDER, AVATAR_THUMBS, avatars],
  ])("%s's thumbnail whose upload is gone and no row names is removed", async (_kind, _folder, thumbs, files) => {
    expect(await namesIn(storage, thumbs)).not.toContain(thumbOf(files.thumbless));
  });

  test.each([
    ["an execution photo a history row names", PHOTO_FOLDER, PHOTO_THUMBS, photos],
    ["an avatar a user names", AVATAR_FOLDER, AVATAR_THUMBS, avatars],
  ])("%s, bare or under its folder, is kept with its thumbnail", async (_kind, folder, thumbs, files) => {
    expect(await namesIn(storage, folder)).toEqual(expect.arrayContaining([files.named, files.namedUnderFolder]));
    expect(await namesIn(storage, thumbs)).toEqual(
      expect.arrayContaining([thumbOf(files.named), thumbOf(files.namedUnderFolder)]),
    );
  });
});
