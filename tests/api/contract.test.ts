import { describe, expect, test } from "vitest";

import { UNEXPECTED } from "../../api/app.ts";
import { useTestApi } from "../support/api.ts";

const t = useTestApi();

type Operation = { security?: unknown[]; parameters?: { in: string; name: string }[] };
type OpenApiDoc = { openapi: string; paths: Record<string, Record<string, Operation>> };

async function openApi() {
  const answer = await t.get<OpenApiDoc>("/api/openapi.json");
  expect(answer.status).toBe(200);
  return answer.body;
}

function operations(doc: OpenApiDoc) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** What anyone may call without a token (DESIGN.md 'Security'): adding to it is a decision, not an accident. */
const PUBLIC_OPERATIONS = [
  "POST /api/sessions",
  // The field app's sign-in (docs/field-app.md 'Who, and where').
  "POST /api/sessions/campo",
  "POST /api/users",
  "POST /api/password/forgot",
  "POST /api/password/reset",
  "GET /api/files/avatars/{name}",
  "GET /api/files/avatars/{name}/thumb",
  "GET /api/info/ambiente/{id}",
  // Issue 28: a visitor's rating and problem report (no account; limited per address and room, robots dropped).
  "POST /api/info/ambiente/{id}/avaliacao",
  "POST /api/info/ambiente/{id}/relato",
];

describe("GET /api/openapi.json", () => {
  test("documents every call of the contract implemented so far", async () => {
    const doc = await openApi();
    expect(doc.openapi).toBe("3.1.0");
    const listed = operations(doc).map(({ method, path }) => `${method} ${path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        "POST /api/sessions",
        "DELETE /api/sessions",
        "POST /api/users",
        "PUT /api/users",
        "GET /api/users/me",
        "PUT /api/users/update",
        "PATCH /api/users/avatar",
        "POST /api/password/forgot",
        "POST /api/password/reset",
        "GET /api/files/avatars/{name}",
        "GET /api/environments",
        "GET /api/environments/form/{companyId}",
        "GET /api/environments/{id}",
        "POST /api/environments",
        "POST /api/environments/",
        "PUT /api/environments/{id}",
        "DELETE /api/environments",
        "DELETE /api/environments/",
        "DELETE /api/environments/{id}",
      ]),
    );
  });

  test("public operations are exactly the allowed ones; the others declare the bearer token", async () => {
    const doc = await openApi();
    const unsecured = operations(doc)
      .filter(({ operation }) => !operation.security?.length)
      .map(({ method, path }) => `${method} ${path}`);
    expect(unsecured.sort()).toEqual([...PUBLIC_OPERATIONS].sort());
  });

  test("every operation that declares the bearer token answers 401 without one", async () => {
    const doc = await openApi();
    const secured = operations(doc).filter(({ operation }) => operation.security?.length);
    expect(secured.length).toBeGreaterThan(0);
    for (const { method, path } of secured) {
      const concrete = path.replace(/\{[^}]+\}/g, "1");
      const answer = await t.call(method, concrete, { json: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body, `${method} ${path}`).toEqual({ message: "Sessão expirada. Faça login novamente." });
    }
  });
});

describe("error answers", () => {
  test("an unknown route answers 404 in JSON", async () => {
    const token = await t.signIn("admin@demo.com.br");
    const answer = await t.get("/api/nao-existe", { token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: "Rota não encontrada" });
  });

  test("malformed JSON answers 400 and a non-JSON body 415, not a server error", async () => {
    const broken = await t.call("POST", "/api/sessions", {
      headers: { "content-type": "application/json" },
      raw: '{"email": "admin@demo.com.br", ',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ message: "Requisição inválida" });
    const text = await t.call("POST", "/api/sessions", {
      headers: { "content-type": "text/plain" },
      raw: "email=admin@demo.com.br",
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ message: "Tipo de conteúdo não suportado" });
  });

  test("an unexpected failure answers 500 with the generic message and no details", async () => {
    // Break this file's own database: the outbox table is gone, so the reset e-mail cannot be written.
    await t.database.execScript("drop table outbox");
    const answer = await t.post("/api/password/forgot", { email: "admin@demo.com.br" });
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ message: UNEXPECTED });
    expect(UNEXPECTED).toBe("Ocorreu um erro inexperado, tente novamente mais tarde.");
  });
});
