/**
 * Starts the server for the browser tests: a fresh data directory (so tests may create data), demo data plus the
 * tests' pre-registered CPFs, `tsx server.ts` on the port playwright.config.ts chose, then one sign-in per shared
 * account (sign-in is rate-limited per e-mail, so tests reuse these sessions instead of signing in every time).
 *
 * The server's JSON log goes to tests/.tmp/e2e-server.log at level info: that is where the password-recovery
 * e-mail shows up ('e-mail written to the outbox'), and it is the first place to look when a test fails.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import type { FullConfig } from "@playwright/test";

import { DEMO_PASSWORD, SHARED_ACCOUNTS } from "./e2e-data.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const START_TIMEOUT_MS = 120_000;

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.config.ts must set use.baseURL");
  const port = new URL(baseURL).port;

  const runDir = mkdtempSync(path.join(os.tmpdir(), "limpeza-e2e-"));
  const dataDir = path.join(runDir, "data");
  const logDir = path.join(root, "tests", ".tmp");
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, "e2e-server.log");
  writeFileSync(logFile, "");

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    PORT: port,
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DEMO_DATA: "true",
    LOG_LEVEL: "info",
    // Always the embedded database and the in-process API, whatever the calling shell has set.
    DATABASE_URL: "",
    API_URL: "",
    // Production requires it; the address the browser opens, so form posts' Origin matches it.
    PUBLIC_URL: baseURL,
    SMTP_URL: "",
    // One proxy hop believed: a visitor's test sends its own X-Forwarded-For (`visitorAddress`), so the visitors'
    // per-address limits (5 reports in 10 minutes) count each test apart, not every test as 127.0.0.1.
    TRUST_PROXY: "1",
  };

  const prepared = spawnSync(tsx, ["tests/support/e2e-prepare.ts"], { cwd: root, env, encoding: "utf8" });
  if (prepared.status !== 0) {
    throw new Error(`tests/support/e2e-prepare.ts failed:\n${prepared.stdout}\n${prepared.stderr}`);
  }

  const log = openSync(logFile, "a");
  const server = spawn(tsx, ["server.ts"], { cwd: root, env, stdio: ["ignore", log, log], detached: true });
  let exited: string | null = null;
  server.once("exit", (code, signal) => (exited = `exited with ${signal ?? code}`));

  const stop = async () => {
    await stopServer(server);
    rmSync(runDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(`${baseURL}/healthz`, () => exited, logFile);
    const authDir = path.join(runDir, "auth");
    mkdirSync(authDir);
    mkdirSync(path.join(runDir, "claims"));
    for (const email of Object.values(SHARED_ACCOUNTS)) {
      const cookie = await signInOverHttp(baseURL, email, DEMO_PASSWORD);
      writeFileSync(path.join(authDir, `${email}.json`), JSON.stringify(storageState(baseURL, cookie)));
    }
  } catch (error) {
    await stop();
    throw error;
  }

  process.env.E2E_RUN_DIR = runDir;
  process.env.E2E_SERVER_LOG = logFile;
  return stop;
}

async function waitForHealth(url: string, exited: () => string | null, logFile: string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const reason = exited();
    if (reason) throw new Error(`The server ${reason} before it was ready. Log (${logFile}):\n${tail(logFile)}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `The server did not answer ${url} within ${START_TIMEOUT_MS / 1000} s. Log (${logFile}):\n${tail(logFile)}`,
  );
}

function tail(file: string) {
  return readFileSync(file, "utf8").split("\n").slice(-40).join("\n");
}

/** The sign-in form's own POST (no browser needed): answers the session cookie. */
export async function signInOverHttp(baseURL: string, email: string, password: string) {
  const response = await fetch(`${baseURL}/?index`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL },
    body: new URLSearchParams({ email, password, redirectTo: "" }),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("sessao="));
  if (response.status !== 302 || !cookie) throw new Error(`Sign-in of ${email} failed with HTTP ${response.status}`);
  return cookie.slice("sessao=".length).split(";")[0];
}

export function storageState(baseURL: string, sessionValue: string) {
  return {
    cookies: [
      {
        name: "sessao",
        value: sessionValue,
        domain: new URL(baseURL).hostname,
        path: "/",
        expires: Math.floor(Date.now() / 1000) + 24 * 60 * 60,
        httpOnly: true,
        secure: true,
        sameSite: "Lax" as const,
      },
    ],
    origins: [],
  };
}

async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null || !server.pid) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-server.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
