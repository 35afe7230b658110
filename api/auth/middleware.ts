import { createMiddleware } from "hono/factory";

import { apiCaches } from "../caches.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { can, type Permission } from "../domain/roles.ts";
import { ApiError } from "../lib/errors.ts";

import { scopeOf } from "./scope.ts";
import { hashToken } from "./tokens.ts";
import { selectUsers, toAuthUser } from "./users.ts";

const UNAUTHENTICATED = "Sessão expirada. Faça login novamente.";

/** Bearer token -> signed-in user and scope. Revoked, expired or inactive: 401. */
export function requireUser(deps: ApiDeps) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const token = header.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!token) throw new ApiError(401, UNAUTHENTICATED);
    const tokenHash = hashToken(token);
    // One indexed look-up (sessions' primary key), cached for the next requests of the same token (api/caches.ts).
    const session = await apiCaches(deps.database).sessions.get(tokenHash, async () => {
      const found = await selectUsers(deps.database.db)
        .innerJoin("sessions", "sessions.user_id", "users.id")
        .select(["sessions.created_at as session_created_at", "sessions.expires_at as session_expires_at"])
        .where("sessions.token_hash", "=", tokenHash)
        .where("sessions.revoked_at", "is", null)
        .executeTakeFirst();
      return found && { row: found, createdAt: found.session_created_at, expiresAt: found.session_expires_at };
    });
    if (!session || session.expiresAt <= new Date() || session.row.ativo !== 1)
      throw new ApiError(401, UNAUTHENTICATED);
    const row = session.row;
    const user = toAuthUser(row);
    c.set("user", user);
    c.set("scope", scopeOf(user));
    c.set("tokenHash", tokenHash);
    c.set("sessionCreatedAt", session.createdAt);
    c.set("userRow", row);
    await next();
  });
}

/** The role table of spec 000 §6, checked on the server (domain/roles.ts holds the table). */
export function requirePermission(permission: Permission) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    if (!can(c.get("user"), permission)) throw new ApiError(403, "Permissão negada!");
    await next();
  });
}
