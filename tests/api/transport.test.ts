/**
 * The core calls once in-process (Request in, Response out, as the web app does with API_URL unset) and once over
 * a real socket (a Node http server on a free port, as with API_URL set), with the same helpers and assertions.
 * `API_TRANSPORT=http npx vitest run --project api` runs every other API file over the socket too.
 */
import sharp from "sharp";
import { describe, expect, test } from "vitest";

import { DEMO_FREE_CPFS, DEMO_PASSWORD } from "../../api/db/seed.ts";
import { IN_PROCESS_ORIGIN, TRANSPORTS, useTestApi } from "../support/api.ts";
import { userByEmail } from "../support/demo.ts";
import { avatarForm, tinyPng } from "../support/files.ts";

describe.each(TRANSPORTS)("core calls, %s", (transport) => {
  const t = useTestApi({ transport });

  test("the transport is the one asked for", () => {
    expect(t.transport).toBe(transport);
    if (transport === "http") expect(t.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    else expect(t.origin).toBe(IN_PROCESS_ORIGIN);
  });

  test("sign in, read the profile, sign out", async () => {
    const session = await t.post("/api/sessions", { email: "admin@demo.com.br", password: DEMO_PASSWORD });
    expect(session.status).toBe(200);
    expect(session.headers.get("content-type")).toMatch(/^application\/json/);
    expect(session.body.nivelAcesso).toBe("Administrador");
    const token = session.body.token as string;

    const me = await t.get("/api/users/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe("admin@demo.com.br");

    expect((await t.delete("/api/sessions", { token })).status).toBe(204);
    expect((await t.get("/api/users/me", { token })).status).toBe(401);
  });

  test("a wrong password answers 401 with the Portuguese message (UTF-8 intact)", async () => {
    const answer = await t.post("/api/sessions", { email: "admin@demo.com.br", password: "errada123" });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: "Ocorreu um erro ao fazer login, cheque as credenciais." });
  });

  test("sign up with a pre-registered CPF", async () => {
    const answer = await t.post("/api/users", {
      nome: "João Transporte",
      email: "joao.transporte@demo.com.br",
      emailConfirmation: "joao.transporte@demo.com.br",
      password: "segredo1",
      dataNascimento: "01/02/1991",
      cpf: DEMO_FREE_CPFS.asg,
      telefone: "85999990000",
    });
    expect(answer.status).toBe(201);
    expect(answer.body.user).toMatchObject({ nome: "João Transporte", roleId: 5, dataNascimento: "1991-02-01" });
    await t.signIn("joao.transporte@demo.com.br", "segredo1");
  });

  test("forgot and reset the password; the e-mailed link points at the origin that was called", async () => {
    expect((await t.post("/api/password/forgot", { email: "auditor@demo.com.br" })).status).toBe(204);
    const mail = await t.db.selectFrom("outbox").select("body_text").orderBy("id", "desc").executeTakeFirstOrThrow();
    const link = mail.body_text.match(/(\S+)\/reset-password\?token=(\S+)/);
    expect(link?.[1]).toBe(t.origin);
    const token = decodeURIComponent(link![2]);
    const reset = await t.post("/api/password/reset", {
      password: "trocada9",
      passwordConfirmation: "trocada9",
      token,
    });
    expect(reset.status).toBe(204);
    await t.signIn("auditor@demo.com.br", "trocada9");
  });

  test("upload an avatar (multipart) and download it (binary)", async () => {
    const token = await t.signIn("principal@demo.com.br");
    const { id } = await userByEmail(t.db, "principal@demo.com.br");
    const png = tinyPng(4, 4, [200, 10, 10]);
    const upload = await t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: png, name: "foto.png", type: "image/png" }, id),
    });
    expect(upload.status).toBe(200);
    const file = await t.fetch("GET", upload.body.user.avatar_url);
    expect(file.status).toBe(200);
    // Stored re-encoded as a JPEG of its size, without metadata (docs/photos.md 'Metadata'): the binary answer whole.
    const served = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([file.headers.get("content-type"), served.format, served.width, served.height]).toEqual([
      "image/jpeg",
      "jpeg",
      4,
      4,
    ]);
  });

  test("a text file named .png is refused", async () => {
    const token = await t.signIn("cliente@demo.com.br");
    const { id } = await userByEmail(t.db, "cliente@demo.com.br");
    const answer = await t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: new TextEncoder().encode("texto"), name: "foto.png", type: "image/png" }, id),
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({ message: "Arquivo não suportado" });
  });

  test("malformed JSON answers 400", async () => {
    const answer = await t.call("POST", "/api/sessions", { headers: { "content-type": "application/json" }, raw: "{" });
    expect(answer.status).toBe(400);
  });

  test("the OpenAPI document", async () => {
    const answer = await t.get("/api/openapi.json");
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.paths)).toEqual(
      expect.arrayContaining(["/api/sessions", "/api/users", "/api/users/me"]),
    );
  });
});
