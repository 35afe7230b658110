import { sql, type Kysely } from "kysely";

import type { DB } from "../db/schema.ts";

import { INCIDENT_PHOTO_FOLDER } from "./incidents.ts";
import { INSPECTION_PHOTO_FOLDER } from "./inspections.ts";
import type { Storage } from "./storage.ts";

/**
 * Files no row names (docs/storage.md 'Orphan files'): a photo is saved before the transaction that names it, so a
 * transaction that fails (a constraint, a lost connection) or a process that dies in between leaves it behind. The
 * writer removes its own on a failure it sees (writeNamingFiles); the sweep catches what a dead process could not.
 */

/** Younger files may belong to a transaction still running, here or on another instance sharing the bucket. */
export const ORPHAN_MIN_AGE_MS = 60 * 60_000;
/** How often the server sweeps (server.ts, within its minute sweep). */
export const ORPHAN_SWEEP_EVERY_MS = 60 * 60_000;
const BATCH = 500;

type Deps = { db: Kysely<DB>; storage: Storage };

/**
 * The swept folders, each with the names among `names` that a row still holds. Built when called: incidents.ts imports
 * this module too.
 */
const namedBy = (): Record<string, (db: Kysely<DB>, names: string[]) => Promise<string[]>> => ({
  [INCIDENT_PHOTO_FOLDER]: async (db, names) => {
    const rows = await db
      .selectFrom("incidents")
      .select("foto")
      .where("foto", "in", names)
      .union(db.selectFrom("incident_events").select("foto").where("foto", "in", names))
      .execute();
    return rows.map((row) => row.foto!);
  },
  [INSPECTION_PHOTO_FOLDER]: async (db, names) => {
    const rows = await db
      .selectFrom("inspection_answers")
      .select(sql<string>`unnest(fotos)`.as("foto"))
      .where(sql<boolean>`fotos && ${sql.val(names)}::text[]`)
      .execute();
    return rows.map((row) => row.foto);
  },
});

/**
 * Removes those of `names` in `folder` that no row names, answering how many. Asking first keeps a file whose
 * transaction did commit though its caller saw an error (a connection lost during COMMIT).
 */
export async function removeUnnamed(deps: Deps, folder: string, names: string[]) {
  const named = new Set(await namedBy()[folder]!(deps.db, names));
  const orphans = names.filter((name) => !named.has(name));
  for (const name of orphans) await deps.storage.remove(folder, name);
  return orphans.length;
}

/**
 * The one rule of every writer that stores files for a row (a visitor's report, an inspection, an incident's
 * resolution): `write` saves its files through `save` and then writes the rows that name them; when it fails, every
 * file it saved is removed (once all its saves have settled), unless a row names it after all, and the error is thrown
 * on. A process killed in between leaves its files to the sweep.
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

/** Every swept folder's files older than ORPHAN_MIN_AGE_MS that no row names are removed; answers how many. */
export async function sweepOrphanFiles(deps: Deps, now = new Date()) {
  let removed = 0;
  for (const folder of Object.keys(namedBy())) {
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
