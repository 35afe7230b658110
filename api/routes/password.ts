import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { sql } from "kysely";

import { hashPassword } from "../auth/password.ts";
import { hashToken, newToken } from "../auth/tokens.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { emailField, MESSAGES, passwordField } from "../domain/fields.ts";
import { ApiError } from "../lib/errors.ts";
import { errorResponses, jsonBody } from "../lib/openapi.ts";
import { rateLimit } from "../lib/rate-limit.ts";

export const RESET_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

const forgot = createRoute({
  method: "post",
  path: "/password/forgot",
  summary: "E-mail a single-use password reset link (valid for one hour)",
  request: { body: jsonBody(z.object({ email: emailField })) },
  responses: {
    204: { description: "Sent" },
    400: errorResponses[400],
    404: errorResponses[404],
    429: errorResponses[400],
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
  responses: { 204: { description: "Changed" }, 400: errorResponses[400] },
});

export function passwordRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(forgot, async (c) => {
    const { email } = c.req.valid("json");
    await rateLimit(deps.database, `forgot:${email}`, 5, 15 * 60);
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
    const base = deps.config.publicUrl ?? new URL(c.req.url).origin;
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

  app.openapi(reset, async (c) => {
    const body = c.req.valid("json");
    const tokenHash = hashToken(body.token);
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
    if (!changed)
      throw new ApiError(400, "Link de recuperação inválido ou expirado. Peça um novo e-mail de recuperação.");
    return c.body(null, 204);
  });

  return app;
}
