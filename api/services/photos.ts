import type { Kysely } from "kysely";

import { ownWorkOf, scopeBranch, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";

import { PHOTO_FOLDER } from "./execution.ts";
import { readStrippedImage } from "./images.ts";
import type { Storage } from "./storage.ts";
import { thumbnail } from "./thumbnails.ts";

/**
 * Execution photos (history.image, the `photos` folder of the storage; docs/photos.md): served only to whoever may
 * read the history row that names them, as the history reads scope it (api/services/history.ts): the caller's main
 * company, their branch for branch-level users and clients, their own bookings for field staff. Anything else (another
 * tenant's photo, another branch's, a name no row holds, a malformed one) is the same null, which the route answers
 * 404 'Arquivo não encontrado': whether a file exists is itself out of scope.
 */

/** The names the storage gives uploads (`storage.save`: random, with the type's extension), nothing else. */
const PHOTO_NAME = /^[a-zA-Z0-9_-]{1,100}\.(jpg|png|gif|webp)$/;

/** Whether a history row the scope may read names this photo (history_image_idx, then its booking's scope). */
export async function photoInScope(db: Kysely<DB>, scope: Scope, name: string): Promise<boolean> {
  if (!PHOTO_NAME.test(name)) return false;
  const branch = scopeBranch(scope);
  const own = ownWorkOf(scope);
  const row = await db
    .selectFrom("history as h")
    .innerJoin("bookings as b", "b.id", "h.booking_id")
    .select("h.id")
    .where("h.image", "=", name)
    .where("b.company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("b.branch_id", "=", branch!))
    .$if(own !== null, (qb) => qb.where("b.user_id", "=", own!))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A photo in scope: the file as stored, without metadata (`size: "full"`), or its 320-pixel-wide WebP thumbnail (made
 * once, kept in `photo-thumbs`); null when out of scope or not in the store.
 */
export async function readPhoto(
  deps: { db: Kysely<DB>; storage: Storage },
  scope: Scope,
  name: string,
  size: "full" | "thumb",
): Promise<Uint8Array | null> {
  if (!(await photoInScope(deps.db, scope, name))) return null;
  return size === "thumb"
    ? thumbnail(deps.storage, "photo", name)
    : readStrippedImage(deps.storage, PHOTO_FOLDER, name);
}
