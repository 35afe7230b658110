/**
 * Issue 7 item 9, the probe's cases one by one (the fuzz suite covers them at random): malformed input is a client
 * error, 400/413/415 with a message, never 500.
 */
import { describe, expect, test } from "vitest";

import { FORM_TEXTS } from "../../api/lib/body-limit.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();
const BIG = "2147483648";

describe("malformed input answers 4xx", () => {
  test("ids beyond the 32-bit range in path, query and body", async () => {
    const token = await t.signIn("principal@demo.com.br");
    const { hospital } = await demoIds(t.db);
    const answers = [
      await t.delete(`/api/setor/${BIG}`, { token }),
      await t.put(`/api/setor/${BIG}`, { name: "Sala", empresa: hospital }, { token }),
      await t.get(`/api/setor?companyId=${hospital}&filialId=${BIG}`, { token }),
      await t.get(`/api/setor?ids=${BIG}`, { token }),
      await t.post("/api/setor", { name: "Sala", companyId: BIG }, { token }),
      await t.call("DELETE", "/api/setor", { token, json: { id: Number(BIG) } }),
    ];
    // PostgreSQL refuses the value (class 22, 'data exception'): the caller's fault, one message (api/app.ts).
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: "Dados inválidos" });
    }
  });

  test("an id beyond 32 bits in a CSV import's idEmpresaFilial", async () => {
    const token = await t.signIn("principal@demo.com.br");
    const form = new FormData();
    form.set("idEmpresaFilial", BIG);
    form.set("csvSetores", new File(["nome\nSala"], "setores.csv", { type: "text/csv" }));
    const answer = await t.call("POST", "/api/cadastroViaCSV/setor", { token, form });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: "Dados inválidos" });
  });

  test("a NUL byte in a string", async () => {
    const token = await t.signIn("principal@demo.com.br");
    const { matriz } = await demoIds(t.db);
    const create = await t.post("/api/setor", { name: "Sala\u0000", companyId: matriz }, { token });
    const signIn = await t.post("/api/sessions", { email: "a\u0000@b.c", password: "x\u0000" });
    const search = await t.get(`/api/setor?q=${encodeURIComponent("a\u0000")}`, { token });
    // PostgreSQL refuses the NUL in text (class 22): the same 400 whichever query meets it first.
    for (const answer of [create, signIn, search]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: "Dados inválidos" });
    }
  });

  test("a non-multipart body on multipart routes", async () => {
    const token = await t.signIn("principal@demo.com.br");
    // A body of another content type is 415 (api/app.ts); a multipart body that does not parse is 400 (the form
    // guard, api/lib/body-limit.ts).
    for (const [type, body, status, message] of [
      ["application/json", '{"a":1}', 415, "Tipo de conteúdo não suportado"],
      ["multipart/form-data; boundary=x", "isto não é multipart", 400, FORM_TEXTS.unreadable],
      ["multipart/form-data", "--x\r\n", 400, FORM_TEXTS.unreadable],
      ["text/plain", "oi", 415, "Tipo de conteúdo não suportado"],
    ] as const) {
      for (const path of ["/api/cadastroViaCSV/setor", "/api/users/avatar"]) {
        const answer = await t.call(path.endsWith("avatar") ? "PATCH" : "POST", path, {
          token,
          raw: body,
          headers: { "content-type": type },
        });
        expect(answer.status, `${path} ${type}`).toBe(status);
        expect(answer.body, `${path} ${type}`).toEqual({ message });
      }
    }
  });
});
