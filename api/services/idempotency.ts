import { createHash, type Hash } from "node:crypto";

import type { MiddlewareHandler } from "hono";
import { sql, type Kysely } from "kysely";

import type { ApiEnv } from "../context.ts";
import type { DB } from "../db/schema.ts";
import { ApiError } from "../lib/errors.ts";

/**
 * The Idempotency-Key request header (IETF httpapi draft 'The Idempotency-Key HTTP Header Field'; docs/field-app.md
 * 'Idempotency'): a phone that sends a queued record again, because it never saw the answer, gets the first answer
 * again and nothing is recorded twice. Any route may take it: `createRoute({ middleware: [idempotent(db)] })`.
 *
 * The first answer (status and JSON body) is kept per (company, user, key) with the request it answered (`pedido`:
 * method, path and a SHA-256 of the body). The same key and request again → that answer, with
 * `Idempotent-Replayed: true`; the same key with another request → 422; while the first is still being answered → 409
 * with Retry-After. A refusal (4xx) is kept too, so the phone stops retrying what will never pass; a 5xx and a 429
 * (the server's trouble, a limit of the moment) are not: the phone tries again with the same key.
 */

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** 1-100 characters the phone can make from a UUID and a counter (migration 019 bounds the column the same). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_\-:.]{1,100}$/;
/** How long a key answers again: longer than anything waits on a phone (docs/field-app.md 'Offline'). */
export const KEY_TTL_DAYS = 30;
/**
 * New keys per user in 24 hours. A cleaner's busiest day is ~40 slots × (start, ~8 procedures, finish) ≈ 400
 * records; 1,000 leaves room for that and bounds what one user can make the table hold (30 days × 1,000 rows).
 */
export const KEYS_PER_USER_DAY = 1000;
/**
 * A key whose first request has had no answer for this long belongs to a request that died with its process (a
 * restart, a crash): the next send with it is run instead of waiting 30 days. Longer than any request runs.
 */
export const IN_FLIGHT_STALE_MS = 2 * 60_000;
export const IN_FLIGHT_RETRY_AFTER_S = 2;

export const IDEMPOTENCY_TEXTS = {
  invalidKey:
    "O cabeçalho Idempotency-Key deve ter de 1 a 100 caracteres: letras sem acento, números e os sinais _ - : .",
  otherRequest: "Esta chave Idempotency-Key já foi usada em outro envio. Cada registro precisa de uma chave própria.",
  inFlight: "Este envio ainda está sendo processado. Tente novamente em instantes.",
  tooMany: `Envios demais nas últimas 24 horas (no máximo ${KEYS_PER_USER_DAY.toLocaleString("pt-BR")}). Tente novamente mais tarde.`,
} as const;

/** The key as sent: a bare token or the draft's sf-string form (in double quotes); null when not acceptable. */
export function parseIdempotencyKey(header: string): string | null {
  const value = header.trim();
  const key = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  return IDEMPOTENCY_KEY_PATTERN.test(key) ? key : null;
}

const lengthPrefixed = (hash: Hash, text: string) => hash.update(`${Buffer.byteLength(text)}:${text};`);

async function hashStream(hash: Hash, stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) hash.update(part.value);
}

/**
 * SHA-256 of the request's body, read as a stream. A form (multipart or urlencoded) is hashed by its fields, in order,
 * each name with its text or its file's bytes: a browser draws a new multipart boundary for every send, so the raw
 * bytes of a resent form differ while what it says does not. The form is parsed once here and the route's own
 * formData() reads the same parse (Hono caches it); the body limits (api/lib/body-limit.ts) ran before.
 */
export async function bodyDigest(request: { raw: Request; formData(): Promise<FormData> }): Promise<string> {
  const hash = createHash("sha256");
  const type = (request.raw.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded")) {
    for (const [name, value] of await request.formData()) {
      lengthPrefixed(hash, name);
      if (typeof value === "string") {
        hash.update("t");
        lengthPrefixed(hash, value);
      } else {
        hash.update(`f${value.size}:`);
        await hashStream(hash, value.stream());
      }
    }
  } else if (request.raw.body) {
    // A clone: the route still reads the body after this (its stream is teed).
    await hashStream(hash, request.raw.clone().body!);
  }
  return hash.digest("hex");
}

/** What identifies the request a key was first used for (at most 300 characters, as the column allows). */
export function requestSignature(method: string, path: string, digest: string) {
  const whole = createHash("sha256").update(`${method} ${path} ${digest}`).digest("hex");
  return `${method} ${path.slice(0, 200)} ${whole}`;
}

type Claim =
  | { kind: "run" }
  | { kind: "replay"; status: number; body: unknown }
  | { kind: "other" }
  | { kind: "inFlight" }
  | { kind: "tooMany" };

type Owner = { companyId: number; userId: number; key: string };

/**
 * Takes the key for this request (a row with no answer yet), unless it is taken: then what the row says. The cap
 * on new keys is in the same statement, so a burst of fresh keys cannot pass it between a count and an insert.
 */
export async function claimKey(db: Kysely<DB>, owner: Owner, pedido: string, now: Date): Promise<Claim> {
  const dayAgo = new Date(now.getTime() - 24 * 3_600_000);
  const inserted = await sql<{ chave: string }>`
    insert into idempotency_keys (company_id, user_id, chave, pedido, created_at)
    select ${owner.companyId}::integer, ${owner.userId}::integer, ${owner.key}::text, ${pedido}::text,
      ${now}::timestamptz
    where (select count(*) from (
      select 1 from idempotency_keys
      where company_id = ${owner.companyId}::integer and user_id = ${owner.userId}::integer
        and created_at > ${dayAgo}::timestamptz
      limit ${KEYS_PER_USER_DAY}) recent) < ${KEYS_PER_USER_DAY}
    on conflict do nothing
    returning chave`.execute(db);
  if (inserted.rows.length) return { kind: "run" };
  const row = await db
    .selectFrom("idempotency_keys")
    .select(["pedido", "status", "resposta", "created_at"])
    .where("company_id", "=", owner.companyId)
    .where("user_id", "=", owner.userId)
    .where("chave", "=", owner.key)
    .executeTakeFirst();
  if (!row) return { kind: "tooMany" };
  if (row.pedido !== pedido) return { kind: "other" };
  if (row.status !== null) return { kind: "replay", status: row.status, body: row.resposta };
  if (now.getTime() - new Date(row.created_at).getTime() < IN_FLIGHT_STALE_MS) return { kind: "inFlight" };
  // Abandoned by a process that died mid-request: taken over, by one request only (the created_at it read).
  const taken = await db
    .updateTable("idempotency_keys")
    .set({ created_at: now })
    .where("company_id", "=", owner.companyId)
    .where("user_id", "=", owner.userId)
    .where("chave", "=", owner.key)
    .where("status", "is", null)
    .where("created_at", "=", row.created_at)
    .executeTakeFirst();
  return taken.numUpdatedRows ? { kind: "run" } : { kind: "inFlight" };
}

const keyRow = (db: Kysely<DB>, owner: Owner) =>
  db
    .updateTable("idempotency_keys")
    .where("company_id", "=", owner.companyId)
    .where("user_id", "=", owner.userId)
    .where("chave", "=", owner.key)
    .where("status", "is", null);

async function release(db: Kysely<DB>, owner: Owner) {
  await db
    .deleteFrom("idempotency_keys")
    .where("company_id", "=", owner.companyId)
    .where("user_id", "=", owner.userId)
    .where("chave", "=", owner.key)
    .where("status", "is", null)
    .execute();
}

/** Answers worth giving again: everything but the server's trouble and a momentary limit. */
const keptStatus = (status: number) => status < 500 && status !== 429 && status !== 408;

/**
 * The middleware. Without the header the route runs as always (the back office's forms send none). After
 * requireUser: keys are per signed-in user, so one user's answer (a 404 for another tenant's id, say) is never
 * replayed to another who happens to use the same key.
 */
export function idempotent(db: Kysely<DB>): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const header = c.req.header(IDEMPOTENCY_HEADER);
    const user = c.get("user");
    if (header === undefined || !user) return next();
    const key = parseIdempotencyKey(header);
    if (!key)
      throw new ApiError(400, IDEMPOTENCY_TEXTS.invalidKey, { [IDEMPOTENCY_HEADER]: [IDEMPOTENCY_TEXTS.invalidKey] });
    const owner = { companyId: user.companyId, userId: user.id, key };
    const pedido = requestSignature(c.req.method, c.req.path, await bodyDigest(c.req));
    const claim = await claimKey(db, owner, pedido, new Date());
    switch (claim.kind) {
      case "other":
        throw new ApiError(422, IDEMPOTENCY_TEXTS.otherRequest);
      case "inFlight":
        return c.json({ message: IDEMPOTENCY_TEXTS.inFlight }, 409, {
          "retry-after": String(IN_FLIGHT_RETRY_AFTER_S),
        });
      case "tooMany":
        return c.json({ message: IDEMPOTENCY_TEXTS.tooMany }, 429, { "retry-after": "3600" });
      case "replay":
        return new Response(claim.body === null ? null : JSON.stringify(claim.body), {
          status: claim.status,
          headers: {
            ...(claim.body === null ? {} : { "content-type": "application/json" }),
            [REPLAYED_HEADER]: "true",
          },
        });
    }
    try {
      await next();
    } catch (error) {
      await release(db, owner);
      throw error;
    }
    const answer = c.res;
    const type = answer.headers.get("content-type") ?? "";
    const text = keptStatus(answer.status) ? await answer.clone().text() : null;
    if (text === null || (text !== "" && !type.includes("application/json"))) {
      await release(db, owner);
      return;
    }
    await keyRow(db, owner)
      .set({ status: answer.status, resposta: text === "" ? null : sql`cast(${text} as jsonb)` })
      .execute();
  };
}

/** Keys past KEY_TTL_DAYS, at most `limit` per call (the server's minute sweep calls it, server.ts). */
export async function sweepExpiredIdempotencyKeys(db: Kysely<DB>, now: Date, limit = 5000) {
  const before = new Date(now.getTime() - KEY_TTL_DAYS * 24 * 3_600_000);
  const removed = await sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where created_at < ${before}::timestamptz limit ${limit})`.execute(db);
  return Number(removed.numAffectedRows ?? 0);
}
