import { sql, type Kysely, type Transaction } from "kysely";

import type { Database } from "../db/connection.ts";
import type { DB } from "../db/schema.ts";
import { formAgeAccepted, INCIDENT_TEXTS as T, reportFingerprint, VISITOR_LIMITS as L } from "../domain/incidents.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import type { FormTokens } from "../lib/form-token.ts";
import { assertNotKnownBlocked, rateLimit } from "../lib/rate-limit.ts";

import { reencodedUpload } from "./images.ts";
import { scheduleIncidentAlerts } from "./incident-alerts.ts";
import { writeNamingFiles } from "./orphan-files.ts";
import type { Storage } from "./storage.ts";

/**
 * What visitors send from a room's public page (issue 28, docs/incidents.md): ratings and problem reports. No account
 * and nothing personal: the address only keys the rate limits. A post that looks like a robot's (the honeypot filled,
 * a forged token, a form posted too fast or a day late) is dropped quietly: the answer is the same as an accepted one,
 * so a robot learns nothing.
 */

/** Where visitors' photos go in the storage: re-encoded JPEGs without metadata. */
export const INCIDENT_PHOTO_FOLDER = "incidents";
/** The longest side of a stored visitor photo: enough to see a leak, a few hundred KB. */
const PHOTO_MAX_SIDE = 1600;

type Deps = { database: Database; storage: Storage; tokens: FormTokens };

/** What every visitor post carries besides its content. */
export type VisitorPost = {
  environmentId: number;
  /** The signed time the page was drawn (GET /info/ambiente/{id} `formToken`). */
  formToken: string;
  /** The field people never see: anything in it means a robot. */
  honeypot: string;
  address: string;
};

export type Outcome = { outcome: "accepted" | "merged" | "dropped"; incidentId: number | null };
const DROPPED: Outcome = { outcome: "dropped", incidentId: null };

/** The live room a visitor writes about, with the company and branch the row belongs to; 404 otherwise. */
async function visitedRoom(db: Kysely<DB>, environmentId: number) {
  const room = await db
    .selectFrom("environments")
    .select(["id", "company_id", "branch_id"])
    .where("id", "=", environmentId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!room) throw notFound("Ambiente não encontrado");
  return room;
}

function looksHuman(tokens: FormTokens, post: VisitorPost, now: Date) {
  if (post.honeypot.trim() !== "") return false;
  const issuedAt = tokens.read(String(post.environmentId), post.formToken);
  return issuedAt !== null && formAgeAccepted(issuedAt, now.getTime());
}

export type VisitorWhat = "report" | "rating";
const limitKeys = (what: VisitorWhat, post: Pick<VisitorPost, "environmentId" | "address">) => ({
  address: `visitor-${what}:address:${post.address}`,
  room: `visitor-${what}:room:${post.environmentId}`,
});

/**
 * A flood's cheap refusal: 429 when this process already knows the address or the room to be over its limit, before
 * the body is read or the database asked (the route calls it first), so a flood does not slow the room page or the
 * board (bench: 'Report flood').
 */
export function refuseKnownFlood(what: VisitorWhat, post: Pick<VisitorPost, "environmentId" | "address">) {
  const keys = limitKeys(what, post);
  assertNotKnownBlocked([keys.address, keys.room]);
}

/** The limits per address and per room, shared by every instance (rate_limits); 429 past them. */
async function withinLimits(database: Database, what: VisitorWhat, post: VisitorPost) {
  const [perAddress, perRoom] =
    what === "report" ? [L.reportsPerAddress, L.reportsPerRoom] : [L.ratingsPerAddress, L.ratingsPerRoom];
  const keys = limitKeys(what, post);
  // The address first: a post it refuses does not use up the room's allowance (and is refused from memory next time).
  await rateLimit(database, keys.address, perAddress, L.windowSeconds);
  await rateLimit(database, keys.room, perRoom, L.windowSeconds);
}

/**
 * Every visitor post's gate, before anything costly (reading the kind, decoding a photo, writing): the room exists
 * (404), and the post counts against the limits per address and per room whatever becomes of it, a robot's too (429),
 * so dropping a post quietly never makes it a free retry. The room of a post that looks human; null for a robot's.
 */
async function admitted(deps: Deps, what: VisitorWhat, post: VisitorPost, now: Date) {
  const room = await visitedRoom(deps.database.db, post.environmentId);
  const human = looksHuman(deps.tokens, post, now);
  await withinLimits(deps.database, what, post);
  return human ? room : null;
}

/** 'Avaliar limpeza': one rating, 1 to 5, with its room and time. */
export async function rateRoom(deps: Deps, post: VisitorPost & { nota: number }, now: Date): Promise<Outcome> {
  const { db } = deps.database;
  const room = await admitted(deps, "rating", post, now);
  if (!room) return DROPPED;
  if (!Number.isInteger(post.nota) || post.nota < 1 || post.nota > 5)
    throw new ApiError(400, T.ratingRequired, { nota: [T.ratingRequired] });
  await db
    .insertInto("room_ratings")
    .values({
      company_id: room.company_id,
      branch_id: room.branch_id,
      environment_id: room.id,
      nota: post.nota,
      created_at: now,
    })
    .execute();
  return { outcome: "accepted", incidentId: null };
}

export type ReportInput = { kindId: number | null; descricao: string; photo: Uint8Array | null };

/** The photo as stored: the type read from its bytes, turned upright, at most 1600 px, JPEG, no EXIF (no location). */
export function reencodedPhoto(bytes: Uint8Array): Promise<Uint8Array> {
  return reencodedUpload(bytes, { maxSide: PHOTO_MAX_SIDE, field: "foto", typeMessage: T.photoType });
}

/**
 * 'Relatar problema': opens an incident of the kind with the kind's deadline, owned by the branch's coordinators, or
 * adds to an identical one (same room, kind and text) reported within the last 10 minutes and still open.
 */
export async function reportProblem(deps: Deps, post: VisitorPost & ReportInput, now: Date): Promise<Outcome> {
  const { db } = deps.database;
  const room = await admitted(deps, "report", post, now);
  if (!room) return DROPPED;
  const kind =
    post.kindId === null
      ? undefined
      : await db
          .selectFrom("incident_kinds")
          .select(["id", "prazo_minutos"])
          .where("id", "=", post.kindId)
          .where("company_id", "=", room.company_id)
          .where("ativo", "=", true)
          .executeTakeFirst();
  if (!kind) throw new ApiError(400, T.kindRequired, { tipo: [T.kindRequired] });
  const descricao = post.descricao.trim();
  if (descricao.length > L.descriptionMax)
    throw new ApiError(400, T.descriptionTooLong, { descricao: [T.descriptionTooLong] });
  if (post.photo && post.photo.byteLength > L.photoMaxBytes)
    throw new ApiError(413, T.photoTooBig, { foto: [T.photoTooBig] });
  // Decoding is the costly step: only for a post that passed the robot checks, the limits and the checks above.
  const photo = post.photo && post.photo.byteLength > 0 ? await reencodedPhoto(post.photo) : null;
  // The row never was: its photo goes too (writeNamingFiles, docs/storage.md 'Orphan files').
  return writeNamingFiles({ db, storage: deps.storage }, INCIDENT_PHOTO_FOLDER, (savePhoto) =>
    db.transaction().execute(async (trx) => {
      // One report of a room at a time, so two identical ones sent together still merge.
      await sql`select pg_advisory_xact_lock(28, ${room.id})`.execute(trx);
      const since = new Date(now.getTime() - L.mergeWindowMinutes * 60_000);
      const same = await trx
        .selectFrom("incidents")
        .select(["id", "foto"])
        .where("environment_id", "=", room.id)
        .where("kind_id", "=", kind.id)
        .where("status", "in", ["aberta", "em_atendimento"])
        .where("ultimo_relato_at", ">=", since)
        .where(sql<string>`lower(regexp_replace(trim(descricao), '\\s+', ' ', 'g'))`, "=", reportFingerprint(descricao))
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      if (same) {
        const foto = same.foto ?? (photo ? await savePhoto(photo) : null);
        await trx
          .updateTable("incidents")
          .set({ relatos: sql`relatos + 1`, ultimo_relato_at: now, foto })
          .where("id", "=", same.id)
          .execute();
        await trx
          .insertInto("incident_events")
          .values({
            incident_id: same.id,
            tipo: "relato_repetido",
            detalhe: "Relato repetido por um visitante",
            created_at: now,
          })
          .execute();
        return { outcome: "merged" as const, incidentId: same.id };
      }
      const foto = photo ? await savePhoto(photo) : null;
      const incident = await insertIncident(
        trx,
        { room, kind, descricao, foto, now },
        { userId: null, detalhe: "Relatado por um visitante" },
      );
      return { outcome: "accepted" as const, incidentId: incident.id };
    }),
  );
}

/**
 * A new incident of the kind, with the kind's deadline, its 'aberta' event and its alerts, in the caller's transaction:
 * a visitor's report and an inspection's failure open one the same way.
 */
export async function insertIncident(
  trx: Transaction<DB>,
  incident: {
    room: { id: number; company_id: number; branch_id: number };
    kind: { id: number; prazo_minutos: number };
    descricao: string;
    foto: string | null;
    now: Date;
  },
  opened: { userId: number | null; detalhe: string },
) {
  const { room, kind, now, foto } = incident;
  const prazo = new Date(now.getTime() + kind.prazo_minutos * 60_000);
  const row = await trx
    .insertInto("incidents")
    .values({
      company_id: room.company_id,
      branch_id: room.branch_id,
      environment_id: room.id,
      kind_id: kind.id,
      status: "aberta",
      descricao: incident.descricao,
      foto,
      ultimo_relato_at: now,
      prazo_at: prazo,
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("incident_events")
    .values({
      incident_id: row.id,
      tipo: "aberta",
      user_id: opened.userId,
      detalhe: opened.detalhe,
      foto,
      created_at: now,
    })
    .execute();
  await scheduleIncidentAlerts(trx, row.id, now, prazo);
  return row;
}

/** The room page's part: the company's kinds to choose from and the room's latest open incident, if any. */
export async function roomIncidentState(db: Kysely<DB>, environmentId: number) {
  // The room's company as a sub-select: the page already looked the room up, no second round trip for it.
  const [kinds, open] = await Promise.all([
    db
      .selectFrom("incident_kinds")
      .select(["id", "nome"])
      .where("company_id", "=", (eb) =>
        eb.selectFrom("environments").select("company_id").where("id", "=", environmentId),
      )
      .where("ativo", "=", true)
      .orderBy("ordem")
      .orderBy("id")
      .limit(20)
      .execute(),
    db
      .selectFrom("incidents")
      .select(["status", "created_at"])
      .where("environment_id", "=", environmentId)
      .where("status", "in", ["aberta", "em_atendimento"])
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    kinds,
    openIncident: open ? { status: open.status as "aberta" | "em_atendimento", reportedAt: open.created_at } : null,
  };
}
