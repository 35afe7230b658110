import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";

import { FIELD_SESSION_TEXTS, requireUser } from "../auth/middleware.ts";
import { dummyPasswordHash, verifyPassword } from "../auth/password.ts";
import { newToken } from "../auth/tokens.ts";
import { mainCompaniesOf, selectPasswordHash, selectUsers, toAuthUser, userJson, type UserRow } from "../auth/users.ts";
import { apiCaches } from "../caches.ts";
import type { ApiDeps, ApiEnv, SessionKind } from "../context.ts";
import { roleName } from "../domain/roles.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { ApiError } from "../lib/errors.ts";
import { bearer, errorResponses, jsonBody, jsonResponse } from "../lib/openapi.ts";
import { assertNoBackoff, clientAddress, forgetFailures, recordFailure, type Backoff } from "../lib/rate-limit.ts";
import { hasBookingsFrom } from "../services/field-day.ts";

import { CpfUserMaster, EmpresaPrincipal, User } from "./users.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A back-office session: one day. */
export const SESSION_LIFETIME_MS = DAY_MS;
/** A field session (the cleaners' phone app, docs/field-app.md 'Who, and where'): it lasts on the phone. */
export const FIELD_SESSION_LIFETIME_MS = 30 * DAY_MS;
const BAD_CREDENTIALS = "Ocorreu um erro ao fazer login, cheque as credenciais.";
const INACTIVE = "Usuário inativo. Entre em contato com o administrador do sistema.";

export const SessionAnswer = z
  .object({
    token: z.string(),
    dataHoraToken: z.string().openapi({
      description: "Sign-in time, UTC ISO 8601; the token expires one day later (a field session's 30 days later)",
    }),
    user: User,
    cpfUserMaster: CpfUserMaster,
    empresaPrincipal: EmpresaPrincipal,
    nivelAcesso: z.string(),
  })
  .openapi("Session");
export type SessionAnswer = z.infer<typeof SessionAnswer>;

const signIn = createRoute({
  method: "post",
  path: "/sessions",
  summary: "Sign in (spec 000 §7 Access)",
  request: { body: jsonBody(z.object({ email: z.string(), password: z.string() })) },
  responses: {
    200: jsonResponse("Session", SessionAnswer),
    401: errorResponses[401],
    403: errorResponses[403],
    429: errorResponses[429],
    503: errorResponses[503],
  },
});

const fieldSignIn = createRoute({
  method: "post",
  path: "/sessions/campo",
  summary:
    "Sign in to the field app (docs/field-app.md): the same credentials, limits and lockout as POST /sessions; " +
    "admits active ASGs and users with bookings from today on (403 otherwise); a session of 30 days that opens " +
    "only the field calls",
  request: { body: jsonBody(z.object({ email: z.string(), password: z.string() })) },
  responses: {
    200: jsonResponse("Session", SessionAnswer),
    401: errorResponses[401],
    403: errorResponses[403],
    429: errorResponses[429],
    503: errorResponses[503],
  },
});

const signOut = createRoute({
  method: "delete",
  path: "/sessions",
  summary: "Revoke the bearer token (sign out)",
  security: bearer,
  responses: { 204: { description: "Revoked" }, 401: errorResponses[401] },
});

/**
 * The session answer without the token: what the web app re-reads on every private page, and the session's kind
 * (a field session opens only the field calls: the web knows which cookie it holds).
 */
export const CurrentSessionAnswer = SessionAnswer.omit({ token: true })
  .extend({
    kind: z.enum(["painel", "campo"]).openapi({ description: "painel: the back office; campo: the field app" }),
  })
  .openapi("CurrentSession");
export type CurrentSessionAnswer = z.infer<typeof CurrentSessionAnswer>;

const current = createRoute({
  method: "get",
  path: "/sessions/current",
  summary: "Check the bearer token and answer the signed-in user's session facts (the web app, on every page)",
  security: bearer,
  responses: { 200: jsonResponse("Session", CurrentSessionAnswer), 401: errorResponses[401] },
});

/**
 * Sign-in back-off (failures only; success is never counted):
 * - per account and address: 5 free failures, then 1, 2, 4 … s up to 15 minutes: one guesser is slowed to a crawl,
 *   while the owner signing in from elsewhere is not affected;
 * - per address: 30 free failures over any accounts, then growing up to 15 minutes (trying many e-mails);
 * - per account from anywhere: 50 free failures, then at most 30 s (a guess spread over many addresses), short so
 *   it cannot keep the owner out for long.
 * Each is forgotten after 15 minutes without a failure.
 */
export function signInBackoff(email: string, address: string): Backoff[] {
  const forgetAfterSeconds = 15 * 60;
  return [
    { key: `sign-in:${email}@${address}`, free: 5, maxDelaySeconds: 15 * 60, forgetAfterSeconds },
    { key: `sign-in-address:${address}`, free: 30, maxDelaySeconds: 15 * 60, forgetAfterSeconds },
    { key: `sign-in-account:${email}`, free: 50, maxDelaySeconds: 30, forgetAfterSeconds },
  ];
}

export function sessionRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  /**
   * The one credentials check of both sign-ins (back office and field app): the same back-off counters, the same
   * scrypt work for an unknown e-mail, the same refusal of an inactive account. Answers the user's row.
   */
  const checkCredentials = async (c: Context<ApiEnv>, email: string, password: string) => {
    // Well-formed (a lone surrogate becomes U+FFFD, as the database stores it), so the counter keys match.
    const normalised = email
      .trim()
      .toLowerCase()
      .slice(0, 320)
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
    const rules = signInBackoff(normalised, clientAddress(c));
    await assertNoBackoff(deps.database, rules);
    const credentials = await selectPasswordHash(db)
      .where(({ fn }) => fn("lower", ["users.email"]), "=", normalised)
      .executeTakeFirst();
    // An unknown e-mail costs the same scrypt work as a known one, so the time does not tell which exist.
    const valid = await verifyPassword(password, credentials?.password_hash ?? (await dummyPasswordHash()));
    if (!credentials || !valid) {
      for (const rule of rules) await recordFailure(deps.database, rule);
      throw new ApiError(401, BAD_CREDENTIALS);
    }
    // Success forgets this address's failures on the account; the account-wide and address-wide counts stay.
    await forgetFailures(deps.database, rules[0].key);
    const row = await selectUsers(db).where("users.id", "=", credentials.id).executeTakeFirstOrThrow();
    if (row.ativo !== 1) throw new ApiError(403, INACTIVE);
    return row;
  };

  /** A new session of `kind` for the user, answered as the contract's Session. */
  const openSession = async (row: UserRow, kind: SessionKind): Promise<SessionAnswer> => {
    const { token, hash } = newToken();
    const now = new Date();
    const lifetime = kind === "campo" ? FIELD_SESSION_LIFETIME_MS : SESSION_LIFETIME_MS;
    await db
      .insertInto("sessions")
      .values({
        token_hash: hash,
        user_id: row.id,
        kind,
        created_at: now,
        expires_at: new Date(now.getTime() + lifetime),
      })
      .execute();
    const companies = await mainCompaniesOf(db, toAuthUser(row));
    return {
      token,
      dataHoraToken: now.toISOString(),
      user: userJson(row),
      ...companies,
      nivelAcesso: roleName({ roleId: row.role_id, coordenador: row.coordenador }),
    };
  };

  app.openapi(signIn, async (c) => {
    const { email, password } = c.req.valid("json");
    const row = await checkCredentials(c, email, password);
    return c.json(await openSession(row, "painel"), 200);
  });

  app.openapi(fieldSignIn, async (c) => {
    const { email, password } = c.req.valid("json");
    const row = await checkCredentials(c, email, password);
    // ASGs always; anyone else only while they have cleanings to do (docs/field-app.md 'Who, and where').
    const admitted =
      row.role_id === 5 ||
      (await hasBookingsFrom(db, { userId: row.id, companyId: row.company_id }, businessToday(new Date())));
    if (!admitted) throw new ApiError(403, FIELD_SESSION_TEXTS.notAdmitted);
    return c.json(await openSession(row, "campo"), 200);
  });

  app.use("/sessions", async (c, next) => (c.req.method === "DELETE" ? requireUser(deps)(c, next) : next()));
  app.use("/sessions/current", requireUser(deps));
  app.openapi(current, async (c) => {
    const user = c.get("user");
    return c.json(
      {
        dataHoraToken: c.get("sessionCreatedAt").toISOString(),
        user: userJson(c.get("userRow")),
        // Asked on every page: cached per user until a write to users, companies or master CPFs (api/caches.ts).
        ...(await apiCaches(deps.database).mainCompanies.get(String(user.id), () => mainCompaniesOf(db, user))),
        nivelAcesso: roleName(user),
        kind: c.get("sessionKind"),
      },
      200,
    );
  });
  app.openapi(signOut, async (c) => {
    await db
      .updateTable("sessions")
      .set({ revoked_at: new Date() })
      .where("token_hash", "=", c.get("tokenHash"))
      .execute();
    return c.body(null, 204);
  });

  return app;
}
