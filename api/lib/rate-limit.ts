import { sql } from "kysely";

import type { Database } from "../db/connection.ts";

import { ApiError } from "./errors.ts";

/**
 * Fixed-window counter kept in the database, so every server instance shares it.
 * Throws 429 once `limit` hits happened within `windowSeconds` for the same key.
 */
export async function rateLimit(database: Database, key: string, limit: number, windowSeconds: number) {
  const row = await sql<{ hits: number }>`
    insert into rate_limits (key, window_started_at, hits) values (${key}, now(), 1)
    on conflict (key) do update set
      hits = case when rate_limits.window_started_at < now() - make_interval(secs => ${windowSeconds})
                  then 1 else rate_limits.hits + 1 end,
      window_started_at = case when rate_limits.window_started_at < now() - make_interval(secs => ${windowSeconds})
                  then now() else rate_limits.window_started_at end
    returning hits`.execute(database.db);
  if ((row.rows[0]?.hits ?? 0) > limit) {
    throw new ApiError(429, "Muitas tentativas. Aguarde alguns minutos e tente novamente.");
  }
}
