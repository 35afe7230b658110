import { sql, type Kysely } from "kysely";

import type { DB } from "../db/schema.ts";

import { PHOTO_FOLDER } from "./execution.ts";
import { INCIDENT_PHOTO_FOLDER } from "./incidents.ts";
import { INSPECTION_PHOTO_FOLDER } from "./inspections.ts";
import { SAFE_NAME, type Storage } from "./storage.ts";

/**
 * Files no row names (docs/storage.md 'Orphan files', docs/photos.md 'Where files live'): a photo is saved before the
 * transaction that names it, so a transaction that fails (a constraint, a lost connection) or a process that dies in
 * between leaves it behind, and a replaced avatar is named by nothing. The writer removes its own on a failure it sees
 * (writeNamingFiles), the avatar route the file it replaced (removeReplacedFile); the sweep catches the rest.
 */

/** Younger files may belong to a transaction still running, here or on another instance sharing the bucket. */
export const ORPHAN_MIN_AGE_MS = 60 * 60_000;
/** How often the server sweeps (server.ts, within its minute sweep). */
export const ORPHAN_SWEEP_EVERY_MS = 60 * 60_000;
/** Avatars (users.avatar; PATCH /users/avatar, the demo's, GET /api/files/avatars/{name}). */
export const AVATAR_FOLDER = "avatars";
const BATCH = 500;

type Deps = { db: Kysely<DB>; storage: Storage };

/**
 * The thumbnails' folders (api/services/thumbnails.ts KINDS) by their uploads' folder: a thumbnail is `{the upload's
 * name with its dot as a dash}.webp`, so `abc-123-jpg.webp` is the thumbnail of `abc-123.jpg` (a stored name has one
 * dot: SAFE_NAME). It is kept while a row names its upload, whatever the thumbnail's own age. Built when called, as
 * heldBy below.
 */
const thumbFolders = (): Record<string, string> => ({
  [AVATAR_FOLDER]: "avatar-thumbs",
  [PHOTO_FOLDER]: "photo-thumbs",
});
const THUMB_NAME = /^([a-zA-Z0-9_-]+)-([a-z0-9]+)\.webp$/;
const thumbnailName = (name: string) => `${name.replace(/\./g, "-")}.webp`;
const uploadOfThumbnail = (thumbName: string) => {
  const match = THUMB_NAME.exec(thumbName);
  return match ? `${match[1]}.${match[2]}` : null;
};

/**
 * The upload folders, each with the stored values among `values` that a row holds. Built when called: incidents.ts
 * and inspections.ts import this module too.
 */
const heldBy = (): Record<string, (db: Kysely<DB>, values: string[]) => Promise<string[]>> => ({
  [INCIDENT_PHOTO_FOLDER]: async (db, values) => {
    const rows = await db
      .selectFrom("incidents")
      .select("foto")
      .where("foto", "in", values)
      .union(db.selectFrom("incident_events").select("foto").where("foto", "in", values))
      .execute();
    return rows.map((row) => row.foto!);
  },
  [INSPECTION_PHOTO_FOLDER]: async (db, values) => {
    const rows = await db
      .selectFrom("inspection_answers")
      .select(sql<string>`unnest(fotos)`.as("foto"))
      .where(sql<boolean>`fotos && ${sql.val(values)}::text[]`)
      .execute();
    return rows.map((row) => row.foto);
  },
  // Execution photos, the demo's included (the simulator records them through the execution service).
  [PHOTO_FOLDER]: async (db, values) => {
    const rows = await db.selectFrom("history").select("image").where("image", "in", values).execute();
    return rows.map((row) => row.image!);
  },
  // Avatars, the demo's included (saved and named the same way).
  [AVATAR_FOLDER]: async (db, values) => {
    const rows = await db.selectFrom("users").select("avatar").where("avatar", "in", values).execute();
    return rows.map((row) => row.avatar!);
  },
});

/**
 * The names among `names` (files of the upload folder `folder`) that a row names, whether it holds the bare name (as
 * every writer stores it) or the name under its folder (`avatars/abc.jpg`).
 */
async function namedAmong(db: Kysely<DB>, folder: string, names: string[]) {
  if (!names.length) return new Set<string>();
  const prefix = `${folder}/`;
  const held = await heldBy()[folder]!(db, [...names, ...names.map((name) => prefix + name)]);
  return new Set(held.map((value) => (value.startsWith(prefix) ? value.slice(prefix.length) : value)));
}

/** The folders the sweep lists: the uploads' first, then the thumbnails'. */
const sweptFolders = () => [...Object.keys(heldBy()), ...Object.values(thumbFolders())];

/**
 * Removes those of `names` in `folder` that no row names, answering how many; an upload's thumbnail goes with it. In a
 * thumbnails' folder, a thumbnail is removed when no row names its upload (one whose name is not a thumbnail's is
 * kept). Asking first keeps a file whose transaction did commit though its caller saw an error (a connection lost
 * during COMMIT).
 */
export async function removeUnnamed(deps: Deps, folder: string, names: string[]) {
  const uploads = Object.entries(thumbFolders()).find(([, thumbFolder]) => thumbFolder === folder)?.[0];
  if (uploads !== undefined) {
    const judged = names.flatMap((name) => {
      const upload = uploadOfThumbnail(name);
      return upload ? [{ name, upload }] : [];
    });
    const named = await namedAmong(deps.db, uploads, [...new Set(judged.map((thumb) => thumb.upload))]);
    const orphans = judged.filter((thumb) => !named.has(thumb.upload));
    for (const { name } of orphans) await deps.storage.remove(folder, name);
    return orphans.length;
  }
  const named = await namedAmong(deps.db, folder, names);
  const orphans = names.filter((name) => !named.has(name));
  const thumbFolder = thumbFolders()[folder];
  for (const name of orphans) {
    await deps.storage.remove(folder, name);
    if (thumbFolder) await deps.storage.remove(thumbFolder, thumbnailName(name));
  }
  return orphans.length;
}

/**
 * A file a row named until the write just committed replaced it (a user's previous avatar): removed with its thumbnail
 * unless a row still names it. `stored` is the value the row held, bare or under its folder. Answers whether it went.
 */
export async function removeReplacedFile(deps: Deps, folder: string, stored: string | null) {
  if (!stored) return false;
  const name = stored.startsWith(`${folder}/`) ? stored.slice(folder.length + 1) : stored;
  if (!SAFE_NAME.test(name)) return false;
  return (await removeUnnamed(deps, folder, [name])) === 1;
}

/**
 * The one rule of every writer that stores files for a row (a visitor's report, an inspection, an inspection failure's
 * incident, an incident's resolution, an execution photo, an avatar): `write` saves its files through `save` and
 * writes the rows that name them; when it fails, every file it saved is removed (once all its saves have settled),
 * unless a row names it after all, and the error is thrown on. A process killed in between leaves its files to the
 * sweep.
 */
export async function writeNamingFiles<T>(
  deps: Deps,
  folder: string,
  write: (save: (bytes: Uint8Array) => Promise<string>) => Promise<T>,
): Promise<T> {
  const saves: Promise<string>[] = [];
  const save = (bytes: Uint8Array) => {
    const saving = deps.storage.save(folder, "jpg", bytes);
    saves.push(saving);
    return saving;
  };
  try {
    return await write(save);
  } catch (error) {
    const saved = (await Promise.allSettled(saves)).flatMap((result) =>
      result.status === "fulfilled" ? [result.value] : [],
    );
    if (saved.length) await removeUnnamed(deps, folder, saved).catch(() => undefined);
    throw error;
  }
}

/**
 * Every swept folder's files older than ORPHAN_MIN_AGE_MS that no row names are removed (the uploads' and the
 * thumbnails' of uploads no row names); answers how many it listed and removed.
 */
export async function sweepOrphanFiles(deps: Deps, now = new Date()) {
  let removed = 0;
  for (const folder of sweptFolders()) {
    let batch: string[] = [];
    for await (const file of deps.storage.list(folder)) {
      if (now.getTime() - file.modifiedAt.getTime() < ORPHAN_MIN_AGE_MS) continue;
      batch.push(file.name);
      if (batch.length === BATCH) {
        removed += await removeUnnamed(deps, folder, batch);
        batch = [];
      }
    }
    if (batch.length) removed += await removeUnnamed(deps, folder, batch);
  }
  return removed;
}
