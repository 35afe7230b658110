/**
 * Issue 7 item 9: a fuzz suite over every operation of /api/openapi.json. A small seeded generator (no fast-check)
 * writes path, query and body values from the operation's own schema, mutated with the inputs that broke the API
 * before: ids beyond 32 bits, NUL bytes, lone surrogates, huge strings, wrong types, malformed JSON, a body of the
 * wrong content type, broken multipart, CSV rows with odd ids, a body over the limit. Any answer >= 500 fails the suite,
 * and so does (issue 22 item 6) any status an operation answered that its `responses` in the document do not declare,
 * or an operation of the document that got no request.
 * FUZZ_REQUESTS (default 3,200) and FUZZ_SEED change the run; the count and the time are printed.
 */
import { expect, test } from "vitest";

import { newToken } from "../../api/auth/tokens.ts";
import { useTestApi } from "../support/api.ts";
import { userByEmail } from "../support/demo.ts";
import { seededChoices } from "../support/fuzz.ts";

const t = useTestApi();

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 3200);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_607);
const TIME_BUDGET_MS = 150_000;

// Seeded: a failure replays with the same FUZZ_SEED.
const { random, pick, chance } = seededChoices(SEED);

const NUMBERS = [0, 1, -1, 2, 7, 42, 2147483647, 2147483648, -2147483649, 4294967296, 9007199254740993, 1e21, 1.5, -0];
const NUMBER_TEXTS = [
  "0",
  "1",
  "-1",
  "2147483648",
  "99999999999999999999",
  "1e309",
  "NaN",
  "Infinity",
  "0x10",
  " 1",
  "１",
  "",
  "abc",
  "1.5",
  "-0",
  "1;DROP TABLE users",
  "%00",
  "1\u0000",
  "[]",
  "{}",
  "null",
  "true",
];
const HEADER_VALUES = [
  "",
  " ",
  "a",
  "chave-1",
  '"chave-1"',
  "com espaço",
  "x".repeat(101),
  "::..--__",
  "ação",
  "%00",
  '"',
];
const STRINGS = [
  "",
  "a",
  "Sala 1",
  "\u0000",
  "a\u0000b",
  "x".repeat(5000),
  "😀🧹",
  "\ud800",
  "\udfff\ud800",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "../../etc/passwd",
  "Ação Ûnica",
  "\n\r\t",
  " ",
  "=1+1",
  "null",
  "%2e%2e%2f",
  "\u202e",
  "a".repeat(256),
  "#zzzzzz",
  "#FF0000",
  "admin@demo.com.br",
  "12345678901",
  "2024-02-30",
  "9999-99-99",
  "senha123",
  "-1",
  "2147483648",
];
const ANY = (): unknown =>
  pick<() => unknown>([
    () => pick(NUMBERS),
    () => pick(NUMBER_TEXTS),
    () => pick(STRINGS),
    () => null,
    () => chance(0.5),
    () => [pick(NUMBERS), pick(STRINGS)],
    () => ({ [pick(STRINGS)]: pick(NUMBERS) }),
    () => Array.from({ length: 3 }, () => pick(NUMBERS)),
  ])();

type Schema = Record<string, any>;
let components: Record<string, Schema> = {};

function resolve(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(components[String(schema.$ref).split("/").pop()!]);
  return schema;
}

/** A value shaped by the schema most of the time, anything at all some of the time. */
function sample(raw: Schema | undefined, depth = 0): unknown {
  const schema = resolve(raw);
  if (depth > 4 || chance(0.15)) return ANY();
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sample(pick(options), depth + 1);
  if (schema.enum) return chance(0.8) ? pick(schema.enum) : ANY();
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  switch (type) {
    case "integer":
    case "number":
      return chance(0.7) ? pick(NUMBERS) : pick(NUMBER_TEXTS);
    case "string":
      return chance(0.85) ? pick(STRINGS) : ANY();
    case "boolean":
      return chance(0.8) ? chance(0.5) : pick([0, 1, "true", "sim"]);
    case "null":
      return null;
    case "array":
      return Array.from({ length: Math.floor(random() * 4) }, () => sample(schema.items, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (const [key, value] of Object.entries<Schema>(schema.properties ?? {})) {
        if (chance(0.85)) object[key] = sample(value, depth + 1);
      }
      if (chance(0.1)) object[pick(STRINGS)] = ANY();
      return object;
    }
  }
}

function csvText() {
  const header = pick([
    "nome",
    "nome;cor",
    "NOME",
    "idEmpresaFilial;nome",
    "",
    "\ufeffnome",
    "nome,cor\u0000",
    "cpf;nivel",
    "CPF,Nível",
  ]);
  const rows = Array.from({ length: Math.floor(random() * 5) }, () =>
    [
      pick([...STRINGS, "529.982.247-25", "111.444.777-35"]),
      pick(["#FF0000", "#zz", "2147483648", "", "ASG", "Administrador", "asg\u0000"]),
    ].join(pick([";", ",", "\t"])),
  );
  return [header, ...rows].join(pick(["\n", "\r\n", "\r"]));
}

type Body = { body?: BodyInit; type?: string };

/** Just over the default BODY_LIMIT (1 MB): limitBodies answers 413 before any route reads it. */
const OVERSIZED = "x".repeat(1024 * 1024 + 1);

/** A lone surrogate cannot be percent-encoded: send the bytes of one (invalid UTF-8) instead. */
function encode(text: string) {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
}

function jsonBody(schema: Schema | undefined): Body {
  const roll = random();
  if (roll < 0.7) return { body: JSON.stringify(sample(schema)), type: "application/json" };
  if (roll < 0.78)
    return { body: pick(["{", "[1,", '{"a":}', "nul", "\u0000", '"\\ud800"', "1e999999"]), type: "application/json" };
  if (roll < 0.85) return { body: "nome=a&companyId=2147483648", type: "application/x-www-form-urlencoded" };
  if (roll < 0.9) return { body: "texto qualquer", type: "text/plain" };
  if (roll < 0.95) return { body: JSON.stringify(sample(schema)), type: undefined };
  return { body: new Uint8Array([0xff, 0xfe, 0x00, 0x80]), type: "application/json" };
}

function multipartBody(schema: Schema | undefined): Body {
  const roll = random();
  if (roll < 0.6) {
    const form = new FormData();
    for (const key of Object.keys(resolve(schema).properties ?? {})) {
      if (!chance(0.85)) continue;
      if (chance(0.5)) {
        const content = chance(0.6)
          ? csvText()
          : new Uint8Array(Array.from({ length: 64 }, () => Math.floor(random() * 256)));
        form.set(
          key,
          new File([content], pick(["a.csv", "foto.png", "x", "\u0000.csv", "a.exe"]), {
            type: pick(["text/csv", "image/png", "application/octet-stream", ""]),
          }),
        );
      } else {
        form.set(key, String(pick([...NUMBER_TEXTS, ...STRINGS])));
      }
    }
    return { body: form };
  }
  if (roll < 0.75)
    return {
      body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n',
      type: "multipart/form-data; boundary=x",
    };
  if (roll < 0.85) return { body: "sem multipart", type: "multipart/form-data" };
  if (roll < 0.95) return { body: JSON.stringify({ a: 1 }), type: "application/json" };
  return { body: "a=1", type: "application/x-www-form-urlencoded" };
}

/** Whether an operation's responses cover a status: itself, its class ("4XX") or "default". */
function declares(op: Schema, status: number) {
  const responses = op.responses ?? {};
  return String(status) in responses || `${String(status)[0]}XX` in responses || "default" in responses;
}

test(`fuzz: ${TOTAL} generated requests over every OpenAPI operation, none answered >= 500 or undeclared`, async () => {
  const doc = (await t.get("/api/openapi.json")).body;
  components = doc.components?.schemas ?? {};
  const operations: { method: string; path: string; op: Schema }[] = [];
  for (const [path, ops] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(ops)) operations.push({ method: method.toUpperCase(), path, op });
  }
  // Sign-in is a public operation the document may group with sign-out: make sure it is tried.
  if (!operations.some((o) => o.method === "POST" && o.path === "/api/sessions")) {
    operations.push({
      method: "POST",
      path: "/api/sessions",
      op: {
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", properties: { email: { type: "string" }, password: { type: "string" } } },
            },
          },
        },
      },
    });
  }
  expect(operations.length).toBeGreaterThan(20);

  // Tokens are made straight in the sessions table (no scrypt per request); a fresh one now and then, since some
  // operations (sign-out, a password change) end the session they run in.
  const users = await Promise.all(
    [
      "admin@demo.com.br",
      "admin@demo.com.br",
      "principal@demo.com.br",
      "coordenador@demo.com.br",
      "cliente@demo.com.br",
    ].map((email) => userByEmail(t.db, email)),
  );
  // And the field app's session (docs/field-app.md): every operation but its few answers it 403.
  const asg = await userByEmail(t.db, "asg@demo.com.br");
  const freshToken = async (field = chance(1 / 6)) => {
    const { token, hash } = newToken();
    await t.db
      .insertInto("sessions")
      .values({
        token_hash: hash,
        user_id: field ? asg.id : pick(users).id,
        kind: field ? "campo" : "painel",
        expires_at: new Date(Date.now() + 3_600_000),
      })
      .execute();
    return token;
  };
  let token = await freshToken();

  const started = performance.now();
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  /** Per operation ("POST /api/setor/"), what it answered and how often it was called (URLs of its template). */
  const answered = new Map<string, Set<number>>(operations.map(({ method, path }) => [`${method} ${path}`, new Set()]));
  const calls = new Map<string, number>();
  let sent = 0;
  for (; sent < TOTAL && performance.now() - started < TIME_BUDGET_MS; sent++) {
    const { method, path, op } = operations[sent % operations.length];
    if (sent % 10 === 0) token = await freshToken();
    // An empty path parameter makes a URL outside the operation's template ("/api/files/avatars/" is not
    // "/api/files/avatars/{name}"): still sent and still held to < 500, but its answer is not the operation's.
    let onTemplate = true;
    let url = path.replace(/\{(\w+)\}/g, () => {
      const value = encode(String(chance(0.3) ? pick(NUMBERS) : pick([...NUMBER_TEXTS, ...STRINGS])));
      if (!value) onTemplate = false;
      return value;
    });
    const query = new URLSearchParams();
    for (const parameter of op.parameters ?? []) {
      if (parameter.in === "query" && chance(0.5)) query.set(parameter.name, String(sample(parameter.schema)));
    }
    if (chance(0.05)) query.set(pick(STRINGS), pick(NUMBER_TEXTS));
    if (query.size) url += `?${query}`;
    const content = op.requestBody?.content ?? {};
    let body: Body = {};
    if (content["multipart/form-data"]) body = multipartBody(content["multipart/form-data"].schema);
    else if (content["application/json"]) body = jsonBody(content["application/json"].schema);
    else if (method !== "GET" && chance(0.2)) body = jsonBody(undefined);
    if (method !== "GET" && chance(0.01)) body = { body: OVERSIZED, type: body.type ?? "application/json" };
    const headers: Record<string, string> = { "x-client-address": `10.9.${sent % 250}.1` };
    if (body.type) headers["content-type"] = body.type;
    // Header parameters (the execution calls' Idempotency-Key): values a header can carry, good and bad.
    for (const parameter of op.parameters ?? []) {
      if (parameter.in === "header" && chance(0.5)) headers[parameter.name] = pick(HEADER_VALUES);
    }
    if (!chance(0.1))
      headers.authorization = `Bearer ${chance(0.03) ? pick(["nao-e-um-token", "a.b.c", "x".repeat(500), "%00"]) : token}`;
    let status: number;
    try {
      const response = await t.fetch(method, url, {
        raw: body.body as string,
        headers,
        ...(body.body instanceof FormData ? { form: body.body, raw: undefined } : {}),
      });
      status = response.status;
      await response.arrayBuffer();
    } catch (error) {
      status = 599;
      failures.push(`${method} ${url} threw ${String(error)}`);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (onTemplate) {
      answered.get(`${method} ${path}`)!.add(status);
      calls.set(`${method} ${path}`, (calls.get(`${method} ${path}`) ?? 0) + 1);
    }
    if (status >= 500 && failures.length < 20)
      failures.push(
        `${status} ${method} ${url} ${String(body.type)} ${typeof body.body === "string" ? body.body.slice(0, 200) : ""}`,
      );
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `fuzz: ${sent} requests over ${operations.length} operations in ${seconds} s (seed ${SEED}); answers: ${[
      ...statuses,
    ]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(", ")}`,
  );
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThanOrEqual(Math.min(TOTAL, 3000));
  // Every operation was tried, and every status seen is in its responses (a client generated from the document
  // must be able to expect it). 599 (a thrown request) is already a failure above.
  expect(operations.map(({ method, path }) => `${method} ${path}`).filter((key) => !calls.get(key))).toEqual([]);
  const undeclared = operations.flatMap(({ method, path, op }) =>
    [...answered.get(`${method} ${path}`)!]
      .filter((status) => status !== 599 && !declares(op, status))
      .map((status) => `${method} ${path} answered ${status}, not declared`),
  );
  expect(undeclared).toEqual([]);
  // Still healthy afterwards.
  const admin = await freshToken(false);
  expect((await t.get("/api/users/me", { token: admin })).status).toBe(200);
}, 200_000);
