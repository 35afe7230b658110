import sharp from "sharp";
import { describe, expect, test } from "vitest";

import { verifyPassword } from "../../api/auth/password.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { AVATAR_MAX_BYTES } from "../../api/domain/fields.ts";
import { useTestApi } from "../support/api.ts";
import { COMPANY_A, companyId, userByEmail } from "../support/demo.ts";
import { avatarForm, pngFile, tinyPng } from "../support/files.ts";

const t = useTestApi();

/** The PUT /api/users body that keeps a user as it is. */
async function editBody(email: string, overrides: Record<string, unknown> = {}) {
  const user = await userByEmail(t.db, email);
  return { userId: user.id, nome: user.nome, telefone: user.telefone, ativo: true, ...overrides };
}

describe("GET /api/users/me", () => {
  test("answers the user with main company, level, company and branch names", async () => {
    const token = await t.signIn("coordenador@demo.com.br");
    const answer = await t.get("/api/users/me", { token });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      ["cpfUserMaster", "empresa", "empresaPrincipal", "filial", "nivelAcesso", "user"].sort(),
    );
    expect(answer.body).toMatchObject({
      cpfUserMaster: [],
      empresaPrincipal: [],
      nivelAcesso: "Coordenador",
      empresa: COMPANY_A,
      filial: "Filial Aldeota",
      user: { email: "coordenador@demo.com.br", nome: "Carla Coordenadora", dataNascimento: "1985-04-12", roleId: 3 },
    });
    expect(answer.body.user).not.toHaveProperty("password_hash");
  });

  test("a company-wide user has no branch; a client shows the branch it is a client of", async () => {
    const hospital = await companyId(t.db, COMPANY_A);
    const principal = await t.get("/api/users/me", { token: await t.signIn("principal@demo.com.br") });
    expect(principal.body).toMatchObject({
      empresa: COMPANY_A,
      filial: null,
      nivelAcesso: "Administrador (P)",
      cpfUserMaster: [{ CPF: "19474741468", Id_Empresas: hospital }],
      empresaPrincipal: [{ Id_Empresas: hospital, NOME: COMPANY_A }],
    });
    const client = await t.get("/api/users/me", { token: await t.signIn("cliente@demo.com.br") });
    expect(client.body).toMatchObject({ filial: "Filial Aldeota", nivelAcesso: "Cliente", empresaPrincipal: [] });
  });
});

describe("PUT /api/users/update (own name, e-mail and phone)", () => {
  test("updates the signed-in user; the new e-mail signs in", async () => {
    const token = await t.signIn("semnivel@demo.com.br");
    const answer = await t.put(
      "/api/users/update",
      { nome: "Sérgio Renomeado", email: " Sergio.Novo@Demo.com.br ", telefone: "(85) 9 1234-5678" },
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({
      nome: "Sérgio Renomeado",
      email: "sergio.novo@demo.com.br",
      telefone: "85912345678",
    });
    expect((await t.get("/api/users/me", { token })).body.user.email).toBe("sergio.novo@demo.com.br");
    await t.signIn("sergio.novo@demo.com.br");
    expect((await t.post("/api/sessions", { email: "semnivel@demo.com.br", password: DEMO_PASSWORD })).status).toBe(
      401,
    );
  });

  test("keeping one's own e-mail is not a conflict", async () => {
    const token = await t.signIn("auditor@demo.com.br");
    const answer = await t.put(
      "/api/users/update",
      { nome: "Augusto A.", email: "AUDITOR@demo.com.br", telefone: "8533334444" },
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({
      nome: "Augusto A.",
      email: "auditor@demo.com.br",
      telefone: "8533334444",
    });
  });

  test("an e-mail of another user answers 409 and changes nothing", async () => {
    const token = await t.signIn("cliente@demo.com.br");
    const before = await userByEmail(t.db, "cliente@demo.com.br");
    const answer = await t.put(
      "/api/users/update",
      { nome: "Outro Nome", email: "Admin@Demo.com.br", telefone: "85911112222" },
      { token },
    );
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: "E-mail já cadastrado", fieldErrors: { email: ["E-mail já cadastrado"] } });
    const after = await userByEmail(t.db, "cliente@demo.com.br");
    expect({ nome: after.nome, telefone: after.telefone }).toEqual({ nome: before.nome, telefone: before.telefone });
  });

  test("required fields and a token are checked", async () => {
    const token = await t.signIn("cliente@demo.com.br");
    const answer = await t.put(
      "/api/users/update",
      { nome: "", email: "cliente@demo.com.br", telefone: "" },
      { token },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({ nome: ["Nome obrigatório"], telefone: ["Telefone obrigatório"] });
    expect((await t.put("/api/users/update", { nome: "X", email: "x@x.com", telefone: "85911112222" })).status).toBe(
      401,
    );
  });
});

describe("PUT /api/users", () => {
  test("changing one's own password needs the old one", async () => {
    const token = await t.signIn("asg@demo.com.br");
    const other = await t.signIn("asg@demo.com.br");
    const body = await editBody("asg@demo.com.br", { password: "novaSenha1" });

    const missing = await t.put("/api/users", body, { token });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      message: "Senha antiga é requirida",
      fieldErrors: { oldPassword: ["Senha antiga é requirida"] },
    });

    const wrong = await t.put("/api/users", { ...body, oldPassword: "errada123" }, { token });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      message: "A senha atual está incorreta",
      fieldErrors: { oldPassword: ["A senha atual está incorreta"] },
    });
    expect(await verifyPassword(DEMO_PASSWORD, (await userByEmail(t.db, "asg@demo.com.br")).password_hash)).toBe(true);

    const right = await t.put("/api/users", { ...body, oldPassword: DEMO_PASSWORD }, { token });
    expect(right.status).toBe(200);
    expect(right.body.user.email).toBe("asg@demo.com.br");
    // The session that changed it stays; the user's other sessions end.
    expect((await t.get("/api/users/me", { token })).status).toBe(200);
    expect((await t.get("/api/users/me", { token: other })).status).toBe(401);
    expect((await t.post("/api/sessions", { email: "asg@demo.com.br", password: DEMO_PASSWORD })).status).toBe(401);
    await t.signIn("asg@demo.com.br", "novaSenha1");
  });

  test("a new password shorter than 6 answers 400", async () => {
    const token = await t.signIn("debora@demo.com.br");
    const answer = await t.put(
      "/api/users",
      await editBody("debora@demo.com.br", { password: "12345", oldPassword: DEMO_PASSWORD }),
      { token },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors).toEqual({ password: ["No mínimo 6 dígitos"] });
  });

  test("without a password it edits name and phone; one cannot inactivate oneself", async () => {
    const token = await t.signIn("debora@demo.com.br");
    const answer = await t.put(
      "/api/users",
      await editBody("debora@demo.com.br", { nome: "Débora N.", telefone: "(85) 9 7777-6666", password: "" }),
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ nome: "Débora N.", telefone: "85977776666", ativo: 1 });

    const off = await t.put("/api/users", await editBody("debora@demo.com.br", { ativo: false }), { token });
    expect(off.status).toBe(400);
    expect(off.body.message).toBe("O usuário não pode inativar a própria conta");
    expect((await userByEmail(t.db, "debora@demo.com.br")).ativo).toBe(1);
  });

  test("an administrator sets another user's password and active flag without the old password", async () => {
    const admin = await t.signIn("admin@demo.com.br");
    const ana = await t.signIn("ana@demo.com.br");
    const answer = await t.put("/api/users", await editBody("ana@demo.com.br", { password: "trocada1" }), {
      token: admin,
    });
    expect(answer.status).toBe(200);
    expect((await t.get("/api/users/me", { token: ana })).status).toBe(401);
    const fresh = await t.signIn("ana@demo.com.br", "trocada1");

    const off = await t.put("/api/users", await editBody("ana@demo.com.br", { ativo: 0 }), { token: admin });
    expect(off.status).toBe(200);
    expect(off.body.user.ativo).toBe(0);
    expect((await t.get("/api/users/me", { token: fresh })).status).toBe(401);
    expect((await t.post("/api/sessions", { email: "ana@demo.com.br", password: "trocada1" })).status).toBe(403);
  });

  test("an auditor may not edit others: 403", async () => {
    const token = await t.signIn("auditor@demo.com.br");
    const answer = await t.put("/api/users", await editBody("cicero@demo.com.br", { nome: "Mudado" }), { token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: "Permissão negada!" });
    expect((await userByEmail(t.db, "cicero@demo.com.br")).nome).toBe("Cícero Alves");
  });

  test("a coordinator edits users of the own branch only", async () => {
    const token = await t.signIn("coordenador@demo.com.br");
    const own = await t.put("/api/users", await editBody("cicero@demo.com.br", { nome: "Cícero A." }), { token });
    expect(own.status).toBe(200);
    // Bruno works at Filial Messejana; the administrator is company-wide.
    for (const email of ["bruno@demo.com.br", "admin@demo.com.br"]) {
      const answer = await t.put("/api/users", await editBody(email, { nome: "Mudado" }), { token });
      expect(answer.status, email).toBe(404);
      expect((await userByEmail(t.db, email)).nome).not.toBe("Mudado");
    }
  });

  test("an unknown user answers 404", async () => {
    const token = await t.signIn("admin@demo.com.br");
    const answer = await t.put(
      "/api/users",
      { userId: 999999, nome: "X", telefone: "85911112222", ativo: true },
      { token },
    );
    expect(answer.status).toBe(404);
  });
});

describe("PATCH /api/users/avatar and GET /api/files/avatars/:name", () => {
  test("a real PNG is stored re-encoded as a JPEG of its size and then served as image/jpeg", async () => {
    const token = await t.signIn("principal@demo.com.br");
    const me = await userByEmail(t.db, "principal@demo.com.br");
    const png = tinyPng(3, 2);
    const answer = await t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: png, name: "minha foto.png", type: "image/png" }, me.id),
    });
    expect(answer.status).toBe(200);
    const { avatar, avatar_url } = answer.body.user;
    expect(avatar).toMatch(/^[a-z0-9]+-[0-9a-f]{16}\.jpg$/);
    expect(avatar_url).toBe(`/api/files/avatars/${avatar}`);
    expect((await userByEmail(t.db, "principal@demo.com.br")).avatar).toBe(avatar);

    // Public: the room page shows staff photos.
    const file = await t.fetch("GET", avatar_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 3, 2]);
    expect((await t.get("/api/users/me", { token })).body.user.avatar_url).toBe(avatar_url);
  });

  test("the user_id of someone else answers 404 and changes nothing", async () => {
    const token = await t.signIn("auditor@demo.com.br");
    const other = await userByEmail(t.db, "cicero@demo.com.br");
    const answer = await t.call("PATCH", "/api/users/avatar", { token, form: pngFile(other.id) });
    expect(answer.status).toBe(404);
    expect((await userByEmail(t.db, "cicero@demo.com.br")).avatar).toBeNull();
    expect((await userByEmail(t.db, "auditor@demo.com.br")).avatar).toBeNull();
  });

  test("a text file named .png is refused with 415 'Arquivo não suportado'", async () => {
    const token = await t.signIn("cliente@demo.com.br");
    const { id } = await userByEmail(t.db, "cliente@demo.com.br");
    const text = new TextEncoder().encode("isto não é uma imagem\n".repeat(20));
    const answer = await t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: text, name: "foto.png", type: "image/png" }, id),
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({ message: "Arquivo não suportado" });
    expect((await userByEmail(t.db, "cliente@demo.com.br")).avatar).toBeNull();
  });

  test("an SVG (script-capable) or an empty upload is refused with 415", async () => {
    const token = await t.signIn("cliente@demo.com.br");
    const { id } = await userByEmail(t.db, "cliente@demo.com.br");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refusedSvg = await t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: svg, name: "foto.svg", type: "image/svg+xml" }, id),
    });
    expect(refusedSvg.status).toBe(415);
    const none = await t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: new Uint8Array(), name: "vazio.png", type: "image/png" }, id),
    });
    expect(none.status).toBe(415);
    expect(none.body.message).toBe("Arquivo não suportado");
  });

  test("more than 2 MB is refused with 413", async () => {
    const token = await t.signIn("cliente@demo.com.br");
    const { id } = await userByEmail(t.db, "cliente@demo.com.br");
    const png = tinyPng();
    const big = new Uint8Array(AVATAR_MAX_BYTES + 1);
    big.set(png);
    const answer = await t.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: big, name: "grande.png", type: "image/png" }, id),
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: "Arquivo muito grande: o limite é de 2 MB" });
    expect((await userByEmail(t.db, "cliente@demo.com.br")).avatar).toBeNull();
  });

  test("needs a token", async () => {
    expect((await t.call("PATCH", "/api/users/avatar", { form: pngFile(1) })).status).toBe(401);
  });

  test("unknown or unsafe file names answer 404", async () => {
    expect((await t.get("/api/files/avatars/nao-existe-0123456789abcdef.png")).status).toBe(404);
    expect((await t.get("/api/files/avatars/nao-existe.png")).body).toEqual({ message: "Arquivo não encontrado" });
    expect((await t.get("/api/files/avatars/..%2F..%2Fpackage.json")).status).toBe(404);
    expect((await t.get("/api/files/avatars/%2E%2E%2Fpackage.json")).status).toBe(404);
  });
});
