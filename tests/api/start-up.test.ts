/**
 * Requests sent while server.ts starts (docs/operations.md 'Start-up'): the port is open from the first moment, and
 * until the start-up work is done (here: the migrations of an empty embedded database) every request but /livez
 * answers 503 with Retry-After, the room page included, never a 500 and never a refused connection; then the app
 * answers. A child process on a fresh DATA_DIR; not in the PostgreSQL run (vitest.config.ts PGLITE_RUN_ONLY).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { STARTING_MESSAGE } from "../../api/lib/start-up-gate.ts";
import { spawnServer } from "../support/child-server.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "limpeza-start-up-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

type Seen = { path: string; status: number | string; retryAfter: string | null; message?: string; ready: boolean };

describe("a request during start-up", () => {
  test("answers 503 with Retry-After until the app is ready, never 500 nor a refused connection", async () => {
    const port = await freePort();
    const { child, output } = spawnServer({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      DEMO_DATA: "false",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "info",
    });
    const ready = () => output().includes('"msg":"server listening"');
    const seen: Seen[] = [];
    try {
      // From the spawn until a while after the app is up: the room page, its API call and the health checks.
      let afterReady = 0;
      for (let round = 0; round < 3000 && afterReady < 5 && child.exitCode === null; round++) {
        const wasReady = ready();
        for (const pathname of ["/info/ambiente/1", "/api/info/ambiente/1", "/healthz"]) {
          try {
            const answer = await fetch(`http://127.0.0.1:${port}${pathname}`, { headers: { accept: "text/html" } });
            const text = await answer.text();
            seen.push({
              path: pathname,
              status: answer.status,
              retryAfter: answer.headers.get("retry-after"),
              message: answer.status === 503 && text.includes(STARTING_MESSAGE) ? STARTING_MESSAGE : undefined,
              ready: wasReady,
            });
          } catch (error) {
            seen.push({
              path: pathname,
              status: String((error as { cause?: { code?: string } }).cause?.code ?? error),
              retryAfter: null,
              ready: wasReady,
            });
          }
        }
        if (wasReady) afterReady++;
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    // The first tries may come before node has even opened the port: connections refused then are the process not
    // being there yet, as before any start. From the first answer on, each is the start-up's 503 or the app's own.
    const firstAnswered = seen.findIndex((answer) => typeof answer.status === "number");
    const answered = seen.slice(firstAnswered);
    const isStarting = (answer: Seen) =>
      answer.status === 503 && answer.retryAfter === "5" && answer.message === STARTING_MESSAGE;
    expect({
      answeredWhileStarting: firstAnswered >= 0 && answered.some((answer) => !answer.ready && isStarting(answer)),
      neitherStartingNorApp: answered.filter(
        (answer) => !isStarting(answer) && !["200", "404"].includes(String(answer.status)),
      ),
      readyAnswers: [
        ...new Set(answered.filter((answer) => answer.ready).map((answer) => `${answer.path} ${answer.status}`)),
      ].sort(),
    }).toEqual({
      answeredWhileStarting: true,
      neitherStartingNorApp: [],
      readyAnswers: ["/api/info/ambiente/1 404", "/healthz 200", "/info/ambiente/1 404"],
    });
  }, 180_000);
});
