import { describe, expect, test } from "vitest";

import { hashToken } from "../../api/auth/tokens.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { useTestApi } from "../support/api.ts";
import { countRows } from "../support/demo.ts";

const INVALID_LINK = "Link de recuperação inválido ou expirado. Peça um novo e-mail de recuperação.";

const t = useTestApi();

/** Asks for a reset e-mail and answers the token read from the link in the outbox. */
async function resetTokenFor(email: string) {
  const answer = await t.post("/api/password/forgot", { email });
  expect(answer.status).toBe(204);
  const mail = await t.db
    .selectFrom("outbox")
    .selectAll()
    .where("recipient", "=", email.trim().toLowerCase())
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const link = mail.body_text.match(/(\S+)\/reset-password\?token=(\S+)/);
  expect(link, mail.body_text).not.toBeNull();
  expect(link![1]).toBe(t.origin);
  return decodeURIComponent(link![2]);
}

describe("POST /api/password/forgot", () => {
  test("an unknown e-mail answers 404 'E-mail não cadastrado' and sends nothing", async () => {
    const outbox = await countRows(t.db, "outbox");
    const answer = await t.post("/api/password/forgot", { email: "ninguem@demo.com.br" });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: "E-mail não cadastrado" });
    expect(await countRows(t.db, "outbox")).toBe(outbox);
  });

  test("an invalid e-mail answers 400", async () => {
    const answer = await t.post("/api/password/forgot", { email: "sem-arroba" });
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({ email: ["Digite um email válido"] });
    expect((await t.post("/api/password/forgot", {})).body.fieldErrors).toEqual({ email: ["E-mail obrigatório"] });
  });

  test("a known e-mail answers 204 and writes a message with a single-use link to the outbox", async () => {
    const outbox = await countRows(t.db, "outbox");
    const answer = await t.post("/api/password/forgot", { email: " Auditor@Demo.com.br " });
    expect(answer.status).toBe(204);
    expect(answer.body).toBe("");
    expect(await countRows(t.db, "outbox")).toBe(outbox + 1);
    const mail = await t.db.selectFrom("outbox").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail.recipient).toBe("auditor@demo.com.br");
    expect(mail.subject).toBe("Recuperação de senha");
    expect(mail.body_text).toContain("Augusto Auditor");
    expect(mail.body_text).toContain(`${t.origin}/reset-password?token=`);

    // The database keeps only the token's hash, valid for one hour.
    const token = decodeURIComponent(mail.body_text.match(/reset-password\?token=(\S+)/)![1]);
    const stored = await t.db
      .selectFrom("password_reset_tokens")
      .selectAll()
      .where("token_hash", "=", hashToken(token))
      .executeTakeFirstOrThrow();
    expect(stored.used_at).toBeNull();
    const lifetime = new Date(stored.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000);
    expect(
      await t.db
        .selectFrom("password_reset_tokens")
        .select("token_hash")
        .where("token_hash", "=", token)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  test("an inactive user gets no e-mail", async () => {
    await t.db.updateTable("users").set({ ativo: 0 }).where("email", "=", "debora@demo.com.br").execute();
    const answer = await t.post("/api/password/forgot", { email: "debora@demo.com.br" });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe("E-mail não cadastrado");
  });

  test("more than 5 requests for one e-mail in 15 minutes answer 429", async () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(
        (await t.post("/api/password/forgot", { email: "cliente@demo.com.br" })).status,
        `attempt ${attempt}`,
      ).toBe(204);
    }
    const blocked = await t.post("/api/password/forgot", { email: "cliente@demo.com.br" });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe("Muitas tentativas. Aguarde alguns minutos e tente novamente.");
  });
});

describe("POST /api/password/reset", () => {
  test("works once: sets the new password and ends every open session", async () => {
    const oldSession = await t.signIn("coordenador@demo.com.br");
    const token = await resetTokenFor("coordenador@demo.com.br");

    const answer = await t.post("/api/password/reset", {
      password: "novaSenha9",
      passwordConfirmation: "novaSenha9",
      token,
    });
    expect(answer.status).toBe(204);

    expect((await t.get("/api/users/me", { token: oldSession })).status).toBe(401);
    expect((await t.post("/api/sessions", { email: "coordenador@demo.com.br", password: DEMO_PASSWORD })).status).toBe(
      401,
    );
    const fresh = await t.signIn("coordenador@demo.com.br", "novaSenha9");
    expect((await t.get("/api/users/me", { token: fresh })).status).toBe(200);

    const again = await t.post("/api/password/reset", {
      password: "outraSenha9",
      passwordConfirmation: "outraSenha9",
      token,
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: INVALID_LINK });
    // The second try changed nothing.
    expect((await t.post("/api/sessions", { email: "coordenador@demo.com.br", password: "outraSenha9" })).status).toBe(
      401,
    );
    expect((await t.get("/api/users/me", { token: fresh })).status).toBe(200);
  });

  test("an expired token answers 400 and changes nothing", async () => {
    const token = await resetTokenFor("semnivel@demo.com.br");
    await t.db
      .updateTable("password_reset_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("token_hash", "=", hashToken(token))
      .execute();
    const answer = await t.post("/api/password/reset", {
      password: "novaSenha9",
      passwordConfirmation: "novaSenha9",
      token,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: INVALID_LINK });
    expect((await t.post("/api/sessions", { email: "semnivel@demo.com.br", password: DEMO_PASSWORD })).status).toBe(
      200,
    );
  });

  test("an unknown or empty token answers 400", async () => {
    const unknown = await t.post("/api/password/reset", {
      password: "novaSenha9",
      passwordConfirmation: "novaSenha9",
      token: "x".repeat(43),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ message: INVALID_LINK });
    const empty = await t.post("/api/password/reset", {
      password: "novaSenha9",
      passwordConfirmation: "novaSenha9",
      token: "",
    });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toEqual({ token: ["Token de recuperação ausente"] });
  });

  test("a rejected form does not spend the token", async () => {
    const token = await resetTokenFor("principal@demo.com.br");
    const differ = await t.post("/api/password/reset", {
      password: "novaSenha9",
      passwordConfirmation: "novaSenha8",
      token,
    });
    expect(differ.status).toBe(400);
    expect(differ.body.fieldErrors).toEqual({ passwordConfirmation: ["Senhas precisam ser iguais"] });
    const short = await t.post("/api/password/reset", { password: "12345", passwordConfirmation: "12345", token });
    expect(short.status).toBe(400);
    expect(short.body.fieldErrors).toEqual({ password: ["No mínimo 6 dígitos"] });

    expect(
      (await t.post("/api/password/reset", { password: "novaSenha9", passwordConfirmation: "novaSenha9", token }))
        .status,
    ).toBe(204);
    await t.signIn("principal@demo.com.br", "novaSenha9");
  });

  test("a reset touches only its own user", async () => {
    const other = await t.signIn("admin@demo.com.br");
    const token = await resetTokenFor("bruno@demo.com.br");
    expect(
      (await t.post("/api/password/reset", { password: "novaSenha9", passwordConfirmation: "novaSenha9", token }))
        .status,
    ).toBe(204);
    expect((await t.get("/api/users/me", { token: other })).status).toBe(200);
    await t.signIn("admin@demo.com.br");
  });
});
