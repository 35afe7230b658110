/**
 * Issue 22 item 6: /api/openapi.json is valid OpenAPI and says what the API answers. The document createApi serves
 * is linted by Redocly CLI (a devDependency, run from node_modules without network access) with the project's
 * redocly.yaml: its recommended rules plus required path parameters (what swagger-cli's schema check refused). Then
 * the rules api/lib/openapi.ts completes every operation with are checked one by one, so a failure names the
 * operation. tests/api/fuzz.test.ts checks the other half: every status it sees is declared.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, describe, expect, test } from "vitest";

import { useTestApi } from "../support/api.ts";
import { operationsOf as operations, readOpenApi } from "../support/openapi.ts";

const t = useTestApi();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const redocly = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
const dir = mkdtempSync(path.join(tmpdir(), "openapi-valid-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Problem = { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer?: string }[] };

let linted = 0;

/** `redocly lint --format=json` over a document: its problems (exit code 1 when any is an error). */
function lint(document: unknown): Promise<Problem[]> {
  const file = path.join(dir, `openapi-${++linted}.json`);
  writeFileSync(file, JSON.stringify(document));
  const args = [redocly, "lint", file, "--config", path.join(root, "redocly.yaml"), "--format=json"];
  // No telemetry and no update check: the lint needs no network (CI machines may have none).
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        resolve((JSON.parse(stdout) as { problems: Problem[] }).problems);
      } catch {
        reject(new Error(`redocly lint gave no report (${error?.message ?? "no error"}): ${stderr.slice(-2000)}`));
      }
    });
  });
}

const describeProblem = (problem: Problem) =>
  `${problem.ruleId}: ${problem.message} at ${problem.location.map((where) => where.pointer).join(", ")}`;

const openApi = () => readOpenApi(t);

/** The contract's own paths with a trailing slash (spec 000 §7), which redocly.yaml lets through. */
const CONTRACT_TRAILING_SLASH = [
  "POST /api/setor/",
  "POST /api/risco/",
  "POST /api/procedures/",
  "POST /api/categorias/",
  "POST /api/environments/",
  "DELETE /api/environments/",
];

describe("GET /api/openapi.json is valid OpenAPI", () => {
  test("Redocly CLI (recommended rules and required path parameters) finds no error", async () => {
    const problems = await lint(await openApi());
    const warnings = problems.filter((problem) => problem.severity !== "error");
    if (warnings.length)
      console.log(
        `redocly lint: ${warnings.length} warnings (${[...new Set(warnings.map((w) => w.ruleId))].join(", ")})`,
      );
    expect(problems.filter((problem) => problem.severity === "error").map(describeProblem)).toEqual([]);
  }, 60_000);

  test("the lint does catch what it is there for: a path parameter not required, a public operation without security", async () => {
    const document = structuredClone(await openApi());
    const room = document.paths["/api/info/ambiente/{id}"].get;
    room.parameters![0].required = false;
    delete room.security;
    const rules = (await lint(document)).filter((problem) => problem.severity === "error").map((p) => p.ruleId);
    expect(rules.sort()).toEqual(["rule/path-parameter-required", "security-defined"]);
  }, 60_000);
});

describe("GET /api/openapi.json declares what every operation answers", () => {
  test("a server, and trailing slashes only on the contract's paths", async () => {
    const doc = await openApi();
    expect(doc.servers?.length).toBeGreaterThan(0);
    const slashed = operations(doc).filter(({ name }) => name.endsWith("/"));
    expect(slashed.map(({ name }) => name).sort()).toEqual([...CONTRACT_TRAILING_SLASH].sort());
  });

  test("path parameters are required and no parameter claims null", async () => {
    const wrong = operations(await openApi()).flatMap(({ name, operation }) =>
      (operation.parameters ?? [])
        .filter((p) => (p.in === "path" && p.required !== true) || JSON.stringify(p.schema?.type).includes("null"))
        .map((p) => `${name} ${p.in} ${p.name}`),
    );
    expect(wrong).toEqual([]);
  });

  test("bearer operations declare 401 and 503, public ones say security: []", async () => {
    const missing = operations(await openApi()).flatMap(({ name, operation }) => {
      if (!operation.security) return [`${name} has no security`];
      if (!operation.security.length) return [];
      return ["401", "503"].filter((status) => !operation.responses?.[status]).map((status) => `${name} ${status}`);
    });
    expect(missing).toEqual([]);
  });

  test("every call but a GET declares 413, every JSON or form body 415 and 400", async () => {
    const missing = operations(await openApi()).flatMap(({ name, method, operation }) => {
      const expected: string[] = [];
      if (method !== "GET") expected.push("413");
      const types = Object.keys(operation.requestBody?.content ?? {});
      if (types.some((type) => /json|form/.test(type))) expected.push("415", "400");
      return expected.filter((status) => !operation.responses?.[status]).map((status) => `${name} ${status}`);
    });
    expect(missing).toEqual([]);
  });

  test("the rate-limited calls declare 429", async () => {
    const doc = await openApi();
    for (const name of ["POST /api/sessions", "POST /api/password/forgot", "POST /api/password/reset"]) {
      const [method, pathName] = name.split(" ");
      expect(doc.paths[pathName][method.toLowerCase()].responses, name).toHaveProperty("429");
    }
  });
});
