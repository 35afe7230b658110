import type { Context } from "hono";
import { sql } from "kysely";

import type { Database } from "../db/connection.ts";

import { ApiError } from "./errors.ts";
import { CLIENT_ADDRESS_HEADER } from "./http-guards.ts";

export const TOO_MANY = "Muitas tentativas. Aguarde alguns minutos e tente novamente.";

/**
 * The caller's address, as server.ts sets it from the socket (or from X-Forwarded-For when TRUST_PROXY is on),
 * overwriting whatever the client sent. Called without server.ts (tests, in-process), it may be absent.
 */
export function clientAddress(c: Context) {
  return c.req.header(CLIENT_ADDRESS_HEADER)?.slice(0, 64) || "unknown";
}

/** 429 with Retry-After (seconds), in the API's JSON error shape. */
export class TooManyAttempts extends ApiError {
  constructor(public retryAfterSeconds: number) {
    super(429, retryAfterSeconds < 60 ? "Muitas tentativas. Aguarde alguns segundos e tente novamente." : TOO_MANY);
  }
}

/**
 * Keys this process already knows to be blocked, and until when (ms). A flood of refused requests then costs no
 * database write at all: only the first refusal per key and instance asks the database. Bounded, oldest dropped.
 */
const knownBlocks = new Map<string, number>();
const KNOWN_BLOCKS_MAX = 10_000;

function rememberBlock(key: string, seconds: number) {
  if (knownBlocks.size >= KNOWN_BLOCKS_MAX) knownBlocks.delete(knownBlocks.keys().next().value!);
  knownBlocks.set(key, Date.now() + seconds * 1000);
}

export function assertNotKnownBlocked(keys: string[]) {
  let wait = 0;
  for (const key of keys) {
    const until = knownBlocks.get(key);
    if (until === undefined) continue;
    if (until <= Date.now()) knownBlocks.delete(key);
    else wait = Math.max(wait, (until - Date.now()) / 1000);
  }
  if (wait > 0) throw new TooManyAttempts(Math.ceil(wait));
}

/** Forgets what this process remembers (tests that move counters in the database). */
export function forgetKnownBlocks() {
  knownBlocks.clear();
}

/**
 * Fixed-window counter kept in the database, so every server instance shares it.
 * Throws 429 once `limit` hits happened within `windowSeconds` for the same key.
 */
export async function rateLimit(database: Database, key: string, limit: number, windowSeconds: number) {
  assertNotKnownBlocked([key]);
  const row = await sql<{ hits: number; age: number }>`
    insert into rate_limits (key, window_started_at, hits) values (${key}, now(), 1)
    on conflict (key) do update set
      hits = case when rate_limits.window_started_at < now() - make_interval(secs => ${windowSeconds})
                  then 1 else rate_limits.hits + 1 end,
      window_started_at = case when rate_limits.window_started_at < now() - make_interval(secs => ${windowSeconds})
                  then now() else rate_limits.window_started_at end
    returning hits, extract(epoch from now() - window_started_at)::float8 as age`.execute(database.db);
  const hits = row.rows[0]?.hits ?? 0;
  if (hits > limit) {
    const wait = Math.max(1, Math.ceil(windowSeconds - (row.rows[0]?.age ?? 0)));
    rememberBlock(key, wait);
    throw new TooManyAttempts(wait);
  }
}

/**
 * A growing back-off on failures (sign-in): the first `free` failures cost nothing, then each one makes the key wait
 * 1, 2, 4, 8 … seconds (at most `maxDelaySeconds`) before the next try is even checked. Only failures count, and
 * `forgetAfterSeconds` without a failure starts over. The row's window_started_at is the last failure's time.
 */
export type Backoff = { key: string; free: number; maxDelaySeconds: number; forgetAfterSeconds: number };

export function backoffDelay(rule: Backoff, failures: number) {
  if (failures < rule.free) return 0;
  return Math.min(2 ** (failures - rule.free), rule.maxDelaySeconds);
}

/** Throws 429 (with Retry-After) while any of the keys is waiting out its back-off. */
export async function assertNoBackoff(database: Database, rules: Backoff[]) {
  if (!rules.length) return;
  assertNotKnownBlocked(rules.map((rule) => rule.key));
  const rows = await sql<{ key: string; hits: number; age: number }>`
    select key, hits, extract(epoch from now() - window_started_at)::float8 as age
    from rate_limits where key in (${sql.join(rules.map((rule) => rule.key))})`.execute(database.db);
  let wait = 0;
  for (const row of rows.rows) {
    const rule = rules.find((candidate) => candidate.key === row.key);
    if (!rule || row.age > rule.forgetAfterSeconds) continue;
    const left = backoffDelay(rule, row.hits) - row.age;
    if (left > 0) rememberBlock(rule.key, left);
    wait = Math.max(wait, left);
  }
  if (wait > 0) throw new TooManyAttempts(Math.ceil(wait));
}

export async function recordFailure(database: Database, rule: Backoff) {
  await sql`
    insert into rate_limits (key, window_started_at, hits) values (${rule.key}, now(), 1)
    on conflict (key) do update set
      hits = case when rate_limits.window_started_at < now() - make_interval(secs => ${rule.forgetAfterSeconds})
                  then 1 else rate_limits.hits + 1 end,
      window_started_at = now()`.execute(database.db);
}

export async function forgetFailures(database: Database, key: string) {
  knownBlocks.delete(key);
  await sql`delete from rate_limits where key = ${key}`.execute(database.db);
}
