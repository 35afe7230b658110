/**
 * A form post whose Origin and Host disagree, on a server started in production (NODE_ENV=production, PUBLIC_URL set
 * as the README's 'Production' says): server.ts's origin check refuses it with the 403 page before Remix's own check
 * would throw a 500 ('Hardening, round three', item 8). An empty database (no demo data): no sign-in is needed, the
 * sign-in form's post is the action tried. Needs `npm run build` first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { startServer } from "../../server.ts";
import { testServerConfig } from "../support/server-config.ts";

const PUBLIC_URL = "https://limpeza.example.com";
let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "web-origin-"));
  server = await startServer(
    testServerConfig(dataDir, {
      NODE_ENV: "production",
      SESSION_SECRET: "a-production-secret-of-at-least-32-characters",
      PUBLIC_URL,
      DEMO_DATA: "false",
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A sign-in post with these headers, through node:http (fetch does not let a caller choose Host). */
function post(headers: Record<string, string>) {
  const body = new URLSearchParams({
    email: "ninguem@example.com",
    password: "senha-errada",
    redirectTo: "",
  }).toString();
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    const request = httpRequest(
      `${server.url}/?index`,
      {
        method: "POST",
        headers: {
          accept: "text/html",
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, type: String(response.headers["content-type"]), text }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

describe("item 8: an Origin/Host mismatch on a form post in production", () => {
  test("the public origin posting to another Host (a proxy that rewrites it) answers 403, not 500", async () => {
    const answer = await post({ origin: PUBLIC_URL, host: `127.0.0.1:${server.port}` });
    expect(answer.status).toBe(403);
  });

  test("the answer is the Portuguese page that says why, with no server error in it", async () => {
    const answer = await post({ origin: PUBLIC_URL, host: `127.0.0.1:${server.port}` });
    expect([answer.type, answer.text.includes("Origem da requisição não permitida."), answer.text]).toEqual([
      "text/html; charset=utf-8",
      true,
      expect.not.stringMatching(/Unexpected Server Error|does not match|Error:/),
    ]);
  });

  test("an X-Forwarded-Host of the client's own (no TRUST_PROXY) that differs from the Origin answers 403", async () => {
    const answer = await post({
      origin: PUBLIC_URL,
      host: "limpeza.example.com",
      "x-forwarded-host": "outro.example.com",
    });
    expect(answer.status).toBe(403);
  });

  test("the public origin posting to its own host still reaches the form (wrong credentials, not a refusal)", async () => {
    const answer = await post({ origin: PUBLIC_URL, host: "limpeza.example.com" });
    expect(answer.status).toBe(400);
  });
});
