import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requireUser } from "../auth/middleware.ts";
import { verifyPassword } from "../auth/password.ts";
import { newToken } from "../auth/tokens.ts";
import { mainCompaniesOf, selectPasswordHash, selectUsers, toAuthUser, userJson } from "../auth/users.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { roleName } from "../domain/roles.ts";
import { ApiError } from "../lib/errors.ts";
import { bearer, errorResponses, jsonBody, jsonResponse } from "../lib/openapi.ts";
import { rateLimit } from "../lib/rate-limit.ts";

import { CpfUserMaster, EmpresaPrincipal, User } from "./users.ts";

export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
const BAD_CREDENTIALS = "Ocorreu um erro ao fazer login, cheque as credenciais.";

export const SessionAnswer = z
  .object({
    token: z.string(),
    dataHoraToken: z.string().openapi({ description: "Sign-in time, UTC ISO 8601; the token expires one day later" }),
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
    429: { description: "Too many attempts" },
  },
});

const signOut = createRoute({
  method: "delete",
  path: "/sessions",
  summary: "Revoke the bearer token (sign out)",
  security: bearer,
  responses: { 204: { description: "Revoked" }, 401: errorResponses[401] },
});

export function sessionRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(signIn, async (c) => {
    const { email, password } = c.req.valid("json");
    const normalised = email.trim().toLowerCase();
    await rateLimit(deps.database, `sign-in:${normalised}`, 10, 15 * 60);
    const credentials = await selectPasswordHash(db)
      .where(({ fn }) => fn("lower", ["users.email"]), "=", normalised)
      .executeTakeFirst();
    const valid = credentials ? await verifyPassword(password, credentials.password_hash) : false;
    if (!credentials || !valid) throw new ApiError(401, BAD_CREDENTIALS);
    const row = await selectUsers(db).where("users.id", "=", credentials.id).executeTakeFirstOrThrow();
    if (row.ativo !== 1) throw new ApiError(403, "Usuário inativo. Entre em contato com o administrador do sistema.");

    const { token, hash } = newToken();
    const now = new Date();
    await db
      .insertInto("sessions")
      .values({
        token_hash: hash,
        user_id: row.id,
        created_at: now,
        expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS),
      })
      .execute();
    const companies = await mainCompaniesOf(db, toAuthUser(row));
    return c.json(
      {
        token,
        dataHoraToken: now.toISOString(),
        user: userJson(row),
        ...companies,
        nivelAcesso: roleName({ roleId: row.role_id, coordenador: row.coordenador }),
      },
      200,
    );
  });

  app.use("/sessions", async (c, next) => (c.req.method === "DELETE" ? requireUser(deps)(c, next) : next()));
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
