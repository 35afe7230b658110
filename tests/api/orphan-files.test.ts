/**
 * Photos no row names (docs/security.md 'Hardening, round three', item 7; docs/storage.md 'Orphan files'): a visitor's
 * report whose write fails after its photo was saved removes the photo, and the sweep removes old files no row names,
 * on the disk and in an S3-compatible bucket, keeping those a row names and those too young to judge.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";

import { RoomPage } from "../../api/routes/info.ts";
import { INCIDENT_PHOTO_FOLDER } from "../../api/services/incidents.ts";
import { ORPHAN_MIN_AGE_MS, sweepOrphanFiles } from "../../api/services/orphan-files.ts";
import { createDiskStorage, type Storage } from "../../api/services/storage.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";
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

const namesIn = async (storage: Storage) => {
  const names: string[] = [];
  for await (const file of storage.list(INCIDENT_PHOTO_FOLDER)) names.push(file.name);
  return names.sort();
};

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

  async function report(descricao: string) {
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

  const files = () => {
    try {
      return readdirSync(path.join(t.storageDir, INCIDENT_PHOTO_FOLDER)).sort();
    } catch {
      return [];
    }
  };

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
    const deps = { db: t.db, storage };
    removedWhileYoung = await sweepOrphanFiles(deps, new Date());
    removedWhenOld = await sweepOrphanFiles(deps, new Date(Date.now() + ORPHAN_MIN_AGE_MS + 60_000));
  });

  test("a file younger than an hour is kept though no row names it", () => {
    expect(removedWhileYoung).toBe(0);
  });

  test("an old file no row names is removed", async () => {
    expect(removedWhenOld).toBe(1);
    expect(await namesIn(storage)).not.toContain(saved.orphan);
  });

  test("an old file an incident names is kept", async () => {
    expect(await namesIn(storage)).toContain(saved.ofIncident);
  });

  test("an old file an incident's event names is kept", async () => {
    expect(await namesIn(storage)).toContain(saved.ofEvent);
  });
});
