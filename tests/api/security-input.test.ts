/**
 * Issue 7 item 9, the probe's cases one by one (the fuzz suite covers them at random): malformed input is a client
 * error, 400/413/415 with a message, never 500.
 */
import { describe, expect, test } from "vitest";

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
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.message).toBeTruthy();
    }
  });

  test("an id beyond 32 bits in a CSV import's idEmpresaFilial", async () => {
    const token = await t.signIn("principal@demo.com.br");
    const form = new FormData();
    form.set("idEmpresaFilial", BIG);
    form.set("csvSetores", new File(["nome\nSala"], "setores.csv", { type: "text/csv" }));
    const answer = await t.call("POST", "/api/cadastroViaCSV/setor", { token, form });
    expect([400, 404]).toContain(answer.status);
  });

  test("a NUL byte in a string", async () => {
    const token = await t.signIn("principal@demo.com.br");
    const { matriz } = await demoIds(t.db);
    const create = await t.post("/api/setor", { name: "Sala\u0000", companyId: matriz }, { token });
    expect(create.status).toBe(400);
    const signIn = await t.post("/api/sessions", { email: "a\u0000@b.c", password: "x\u0000" });
    expect([400, 401]).toContain(signIn.status);
    const search = await t.get(`/api/setor?q=${encodeURIComponent("a\u0000")}`, { token });
    expect(search.status).toBeLessThan(500);
  });

  test("a non-multipart body on multipart routes", async () => {
    const token = await t.signIn("principal@demo.com.br");
    for (const [type, body] of [
      ["application/json", '{"a":1}'],
      ["multipart/form-data; boundary=x", "isto não é multipart"],
      ["multipart/form-data", "--x\r\n"],
      ["text/plain", "oi"],
    ]) {
      for (const path of ["/api/cadastroViaCSV/setor", "/api/users/avatar"]) {
        const answer = await t.call(path.endsWith("avatar") ? "PATCH" : "POST", path, {
          token,
          raw: body,
          headers: { "content-type": type },
        });
        expect(answer.status, `${path} ${type}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${path} ${type}`).toBeLessThan(500);
      }
    }
  });
});
