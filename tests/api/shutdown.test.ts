/**
 * Stopping server.ts (README 'Production', SHUTDOWN_GRACE): SIGTERM with a request running. A request still running
 * when the grace period ends forces the stop, exit 1, and a log line names it; a request that ends within it is
 * answered and the server exits 0 without forcing anything (its keep-alive connection does not hold the stop).
 * Child processes on a copy of the test database; not in the PostgreSQL run (the stop is the same code: vitest.config.ts
 * PGLITE_RUN_ONLY).
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { spawnServer, type ChildServer } from "../support/child-server.ts";
import { writeTestDatabase } from "../support/db.ts";

const template = mkdtempSync(path.join(tmpdir(), "limpeza-shutdown-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(template, { recursive: true, force: true });
});

type Started = ChildServer & { port: number };

/** server.ts on its own copy of the test database, SHUTDOWN_GRACE=2, the JSON log kept line by line. */
async function startChild(name: string): Promise<Started> {
  const dataDir = path.join(template, name);
  mkdirSync(dataDir);
  await writeTestDatabase(dataDir);
  const server = spawnServer({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    DEMO_DATA: "false",
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    SHUTDOWN_GRACE: "2",
  });
  children.push(server.child);
  for (let tries = 0; tries < 600; tries++) {
    const listening = server.lines().find((line) => line.msg === "server listening");
    if (listening) return { ...server, port: Number(new URL(String(listening.url)).port) };
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server.ts did not start:\n${server.output()}`);
}

/**
 * A sign-in with an unknown, malformed e-mail (401), whose body is sent in two parts: the promise resolves once the server has taken the request (it answers
 * '100 Continue' as it hands the request to the app), `finish` sends the rest and resolves with the status line.
 */
async function halfSentSignIn(port: number) {
  const body = JSON.stringify({ email: "nao-e-um-email", password: "x" });
  const socket: Socket = connect({ host: "127.0.0.1", port });
  let received = "";
  socket.on("data", (chunk) => (received += chunk));
  socket.write(
    `POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, 5)}`,
  );
  for (let tries = 0; tries < 100 && !received.includes("100 Continue"); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(received).toContain("HTTP/1.1 100 Continue");
  return {
    socket,
    finish: async () => {
      socket.write(body.slice(5));
      for (let tries = 0; tries < 100 && !/HTTP\/1\.1 [2-5]\d\d/.test(received); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return /HTTP\/1\.1 ([2-5]\d\d)/.exec(received)?.[1];
    },
  };
}

describe("stopping the server", () => {
  test("a request still running when SHUTDOWN_GRACE ends: exit 1, and a log line names it", async () => {
    const server = await startChild("forced");
    const { socket } = await halfSentSignIn(server.port);
    server.child.kill("SIGTERM");
    const code = await server.exit;
    socket.destroy();
    const forced = server.lines().filter((line) => String(line.msg).startsWith("shutdown forced"));
    expect({ code, forced }).toEqual({
      code: 1,
      forced: [
        expect.objectContaining({
          level: 50,
          msg: "shutdown forced after 2 s: 1 request(s) still running",
          graceS: 2,
          requests: [{ method: "POST", path: "/api/sessions", ms: expect.any(Number) }],
        }),
      ],
    });
  }, 120_000);

  test("a request that ends within it is answered, then exit 0 without forcing", async () => {
    const server = await startChild("served");
    const request = await halfSentSignIn(server.port);
    server.child.kill("SIGTERM");
    const status = await request.finish();
    const code = await server.exit;
    request.socket.destroy();
    const forced = server.lines().filter((line) => String(line.msg).startsWith("shutdown forced"));
    expect({ status, code, forced }).toEqual({ status: "401", code: 0, forced: [] });
  }, 120_000);
});
