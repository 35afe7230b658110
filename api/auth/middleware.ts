import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";

import { apiCaches } from "../caches.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { can, type Permission } from "../domain/roles.ts";
import { ApiError } from "../lib/errors.ts";

import { scopeOf } from "./scope.ts";
import { hashToken } from "./tokens.ts";
import { selectUsers, toAuthUser } from "./users.ts";

const UNAUTHENTICATED = "Sessão expirada. Faça login novamente.";

export const FIELD_SESSION_TEXTS = {
  /** POST /sessions/campo for someone who is not an ASG and has no bookings from today on. */
  notAdmitted: "Você não tem limpezas agendadas. Entre pelo painel.",
  /** Any call outside FIELD_CALLS with a field session. */
  refused: "Esta sessão é do app de limpeza: entre pelo painel para usar esta função.",
} as const;

/**
 * The one allow-list of a field session (docs/field-app.md 'Calls'), by the route the request was routed to (its
 * template, as Hono registered it under /api), never by the URL's text: the field app's own reads, every call on the
 * caller's own bookings and incidents (their routes act on the signed-in collaborator's rows only), the session check
 * and sign-out. Everything else answers a field session 403, an unknown route too.
 */
const FIELD_CALLS = new Set([
  "GET /api/execution/today",
  "GET /api/execution/environments/:id",
  "GET /api/sessions/current",
  "DELETE /api/sessions",
]);
const FIELD_CALL_PREFIXES = ["/api/execution/bookings", "/api/execution/incidents"];

/** Whether a field session may make this request: the route it is routed to is on the allow-list. */
function fieldMayCall(c: Context<ApiEnv>) {
  // Middleware is registered for every method ('ALL'); the first route of a method is the handler that answers.
  const route = matchedRoutes(c).find((matched) => matched.method !== "ALL");
  if (!route) return false;
  if (FIELD_CALLS.has(`${route.method} ${route.path}`)) return true;
  return FIELD_CALL_PREFIXES.some((prefix) => route.path === prefix || route.path.startsWith(`${prefix}/`));
}

/**
 * Bearer token -> signed-in user and scope. Revoked, expired or inactive: 401. A field session outside its calls:
 * 403 (FIELD_CALLS).
 */
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
        .select([
          "sessions.created_at as session_created_at",
          "sessions.expires_at as session_expires_at",
          "sessions.kind as session_kind",
        ])
        .where("sessions.token_hash", "=", tokenHash)
        .where("sessions.revoked_at", "is", null)
        .executeTakeFirst();
      return (
        found && {
          row: found,
          createdAt: found.session_created_at,
          expiresAt: found.session_expires_at,
          kind: found.session_kind,
        }
      );
    });
    if (!session || session.expiresAt <= new Date() || session.row.ativo !== 1)
      throw new ApiError(401, UNAUTHENTICATED);
    if (session.kind === "campo" && !fieldMayCall(c)) throw new ApiError(403, FIELD_SESSION_TEXTS.refused);
    const row = session.row;
    const user = toAuthUser(row);
    c.set("user", user);
    c.set("scope", scopeOf(user));
    c.set("tokenHash", tokenHash);
    c.set("sessionCreatedAt", session.createdAt);
    c.set("sessionKind", session.kind);
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
