import type { mainCompaniesOf, UserRow } from "./auth/users.ts";
import type { SessionKind } from "./context.ts";
import type { Database } from "./db/connection.ts";
import { ReadCache } from "./lib/read-cache.ts";
import type { Branch } from "./routes/branches.ts";

/** A bearer token's session: its user, when it was issued and when it ends, and its kind. */
export type CachedSession = { row: UserRow; createdAt: Date; expiresAt: Date; kind: SessionKind };

/**
 * The reads every page repeats, cached per open database (docs/performance.md 'Caches'). Each names the tables
 * whose writes make it forget everything; TTL_MS bounds what a write made by another process can leave stale.
 */
const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

function createCaches(database: Database) {
  const cache = <V>(tables: string[]) =>
    new ReadCache<V>(database.writes, tables, { ttlMs: TTL_MS, maxEntries: MAX_ENTRIES });
  return {
    /** Bearer token hash -> its session and user (api/auth/middleware.ts requireUser). */
    sessions: cache<CachedSession>(["sessions", "users"]),
    /** User id -> the session answer's empresaPrincipal and cpfUserMaster (api/auth/users.ts mainCompaniesOf). */
    mainCompanies: cache<Awaited<ReturnType<typeof mainCompaniesOf>>>(["companies", "master_cpfs", "users"]),
    /** Scope -> the branch list (api/routes/branches.ts). */
    branches: cache<Branch[]>(["branches"]),
  };
}

export type ApiCaches = ReturnType<typeof createCaches>;
const byDatabase = new WeakMap<Database, ApiCaches>();

export function apiCaches(database: Database): ApiCaches {
  let caches = byDatabase.get(database);
  if (!caches) byDatabase.set(database, (caches = createCaches(database)));
  return caches;
}
