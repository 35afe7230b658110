import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { sql } from "kysely";

import { hashPassword } from "../auth/password.ts";
import { hashToken, newToken } from "../auth/tokens.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { emailField, MESSAGES, passwordField } from "../domain/fields.ts";
import { ApiError } from "../lib/errors.ts";
import { PUBLIC_ORIGIN_HEADER, publicOrigin } from "../lib/http-guards.ts";
import { errorResponses, jsonBody } from "../lib/openapi.ts";
import { assertNotKnownBlocked, clientAddress, rateLimit } from "../lib/rate-limit.ts";

export const RESET_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
/** Reset attempts per client address in 15 minutes (a person needs one or two; a flood of guesses gets 429). */
export const RESET_PER_ADDRESS = 20;
/** Recovery e-mails asked per client address in 15 minutes (besides 5 per e-mail address). */
export const FORGOT_PER_ADDRESS = 20;
const INVALID_RESET_LINK = "Link de recuperação inválido ou expirado. Peça um novo e-mail de recuperação.";

const forgot = createRoute({
  method: "post",
  path: "/password/forgot",
  summary: "E-mail a single-use password reset link (valid for one hour)",
  request: { body: jsonBody(z.object({ email: emailField })) },
  responses: {
    204: { description: "Sent" },
    400: errorResponses[400],
    404: errorResponses[404],
    429: errorResponses[429],
    503: errorResponses[503],
  },
});

export const ResetBody = z
  .object({
    password: passwordField,
    passwordConfirmation: z.string().default(""),
    token: z.string().min(1, "Token de recuperação ausente"),
  })
  .superRefine((value, context) => {
    if (value.password !== value.passwordConfirmation) {
      context.addIssue({ code: "custom", path: ["passwordConfirmation"], message: MESSAGES.passwordsDiffer });
    }
  });

const reset = createRoute({
  method: "post",
  path: "/password/reset",
  summary: "Set a new password with a reset token; the token is then spent and every session revoked",
  request: { body: jsonBody(ResetBody) },
  responses: {
    204: { description: "Changed" },
    400: errorResponses[400],
    429: errorResponses[429],
    503: errorResponses[503],
  },
});

export function passwordRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(forgot, async (c) => {
    const { email } = c.req.valid("json");
    await rateLimit(deps.database, `forgot:${email}`, 5, 15 * 60);
    await rateLimit(deps.database, `forgot-address:${clientAddress(c)}`, FORGOT_PER_ADDRESS, 15 * 60);
    const user = await db
      .selectFrom("users")
      .select(["id", "nome", "email"])
      .where(sql`lower(email)`, "=", email)
      .where("ativo", "=", 1)
      .executeTakeFirst();
    if (!user) throw new ApiError(404, "E-mail não cadastrado");
    const { token, hash } = newToken();
    await db
      .insertInto("password_reset_tokens")
      .values({ token_hash: hash, user_id: user.id, expires_at: new Date(Date.now() + RESET_TOKEN_LIFETIME_MS) })
      .execute();
    // The public origin server.ts worked out for the page or call (behind a proxy, the proxy's); else the request's.
    const base =
      c.req.header(PUBLIC_ORIGIN_HEADER) ??
      publicOrigin(c.req.raw, { publicUrl: deps.config.publicUrl, trustProxy: 0 });
    const link = `${base}/reset-password?token=${encodeURIComponent(token)}`;
    await deps.mailer.send({
      to: user.email,
      subject: "Recuperação de senha",
      text: [
        `Olá, ${user.nome}.`,
        "",
        "Recebemos um pedido para redefinir a sua senha. Para escolher uma nova senha, abra o link abaixo:",
        link,
        "",
        "O link vale por 1 hora e só pode ser usado uma vez. Se você não fez esse pedido, ignore este e-mail.",
      ].join("\n"),
    });
    return c.body(null, 204);
  });

  // An address this process already refuses is turned away before its body is even parsed (a flood costs little).
  app.use("/password/reset", async (c, next) => {
    assertNotKnownBlocked([`reset:${clientAddress(c)}`]);
    await next();
  });
  app.openapi(reset, async (c) => {
    const body = c.req.valid("json");
    await rateLimit(deps.database, `reset:${clientAddress(c)}`, RESET_PER_ADDRESS, 15 * 60);
    const tokenHash = hashToken(body.token);
    // The token is checked before the password is hashed: a bad token costs one indexed look-up, not scrypt's CPU.
    const usable = await db
      .selectFrom("password_reset_tokens")
      .select("user_id")
      .where("token_hash", "=", tokenHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", new Date())
      .executeTakeFirst();
    if (!usable) throw new ApiError(400, INVALID_RESET_LINK);
    const passwordHash = await hashPassword(body.password);
    const changed = await db.transaction().execute(async (trx) => {
      // Spending the token and checking it are one statement, so a token works once even under concurrent use.
      const spent = await trx
        .updateTable("password_reset_tokens")
        .set({ used_at: new Date() })
        .where("token_hash", "=", tokenHash)
        .where("used_at", "is", null)
        .where("expires_at", ">", new Date())
        .returning("user_id")
        .executeTakeFirst();
      if (!spent) return false;
      await trx
        .updateTable("users")
        .set({ password_hash: passwordHash, updated_at: new Date() })
        .where("id", "=", spent.user_id)
        .execute();
      await trx
        .updateTable("sessions")
        .set({ revoked_at: new Date() })
        .where("user_id", "=", spent.user_id)
        .where("revoked_at", "is", null)
        .execute();
      return true;
    });
    if (!changed) throw new ApiError(400, INVALID_RESET_LINK);
    return c.body(null, 204);
  });

  return app;
}
