/**
 * A new installation run as the README's 'Production' section says (issue 26): `npm run create-owner` on an empty
 * database, then `npm run serve` with NODE_ENV=production (no rebuild, no demo data), the owner signs in, and SIGTERM
 * sent to npm (what a process manager or a container stop does) stops the server itself: the port is released and no
 * process is left behind. Child processes on the embedded database; not in the API suite's PostgreSQL run
 * (vitest.config.ts PGLITE_RUN_ONLY).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { OWNER_EXISTS } from "../../api/services/companies.ts";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "limpeza-production-"));
const PASSWORD = "segredo-do-dono-42";
const OWNER = [
  "--company=Limpa Tudo Ltda",
  "--cnpj=11.222.333/0001-81",
  "--address=Rua das Flores",
  "--number=10",
  "--district=Centro",
  "--city=Fortaleza",
  "--name=Maria Dona",
  "--email=maria@limpatudo.com.br",
  "--cpf=529.982.247-25",
  "--birth-date=10/05/1980",
  "--phone=(85) 9 8888-7777",
  "--password-stdin",
];

// Production settings, without the caller's DATABASE_URL: this is the embedded database's path.
const { DATABASE_URL: _ignored, ...inherited } = process.env;
const env: NodeJS.ProcessEnv = {
  ...inherited,
  NODE_ENV: "production",
  SESSION_SECRET: "a-production-secret-of-at-least-32-characters",
  PUBLIC_URL: "https://limpeza.example.com",
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  PORT: "0",
  LOG_LEVEL: "info",
};

function npm(args: string[], stdin?: string) {
  const child = spawn("npm", ["run", "--silent", ...args], { cwd: root, env, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  child.stdin!.end(stdin);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

function childrenOf(pid: number): Promise<number[]> {
  return new Promise((resolve) => {
    const ps = spawn("pgrep", ["-P", String(pid)]);
    let text = "";
    ps.stdout.on("data", (chunk) => (text += chunk));
    ps.on("exit", () => resolve(text.split("\n").filter(Boolean).map(Number)));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

let server: ChildProcess | undefined;
let serverProcesses: number[] = [];
afterAll(() => {
  // A failed stop must not leave a server holding its port after the run.
  for (const pid of [server?.pid ?? 0, ...serverProcesses]) if (pid && alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("production start without PUBLIC_URL", () => {
  test("refuses with a message naming the variable, before opening anything", async () => {
    const { PUBLIC_URL: _unset, ...withoutPublicUrl } = env;
    const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      cwd: root,
      env: { ...withoutPublicUrl, DATA_DIR: path.join(dataDir, "never-created") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const created = existsSync(path.join(dataDir, "never-created"));
    expect({ code, output, created }).toEqual({
      code: 1,
      created: false,
      output:
        "Invalid configuration:\n  PUBLIC_URL: required when NODE_ENV=production, the address users open " +
        "(e.g. https://limpeza.example.com): e-mailed links, QR codes and files carry it\n",
    });
  }, 60_000);
});

describe("production start", () => {
  test("create-owner once, serve without rebuilding, sign in, SIGTERM stops the server", async () => {
    const first = npm(["create-owner", "--", ...OWNER], `${PASSWORD}\n`);
    expect(await first.exited, first.output()).toBe(0);
    expect(first.output()).toContain(
      "Created the main company 'Limpa Tudo Ltda' (id 1) and its Administrador (P) maria@limpatudo.com.br.",
    );
    const again = npm(
      ["create-owner", "--", ...OWNER.map((flag) => flag.replace("Limpa Tudo", "Outra"))],
      `${PASSWORD}\n`,
    );
    expect(await again.exited).toBe(1);
    expect(again.output()).toContain(`Nothing was written. ${OWNER_EXISTS}`);
    for (const run of [first, again]) expect(run.output()).not.toContain(PASSWORD);

    const builtApp = path.join(root, "build", "index.js");
    const builtAt = statSync(builtApp).mtimeMs;
    const serve = npm(["serve"]);
    server = serve.child;
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${serve.output()}`)), 60_000);
      serve.child.stdout!.on("data", () => {
        const match = serve.output().match(/"url":"(http:\/\/localhost:\d+)"/);
        if (match) resolve((clearTimeout(timer), match[1]));
      });
      serve.exited.then((code) => reject(new Error(`npm run serve exited with ${code}:\n${serve.output()}`)));
    });
    expect(statSync(builtApp).mtimeMs).toBe(builtAt); // served as built, not rebuilt
    expect(serve.output()).toContain('"seeded":false');
    // The heap cap of npm serve (docs/operations.md 'Memory'): 512 MB of old space, plus V8's young generation.
    const heapLimit = Number(serve.output().match(/"heapLimitMb":(\d+)/)?.[1]);
    expect(heapLimit).toBeGreaterThanOrEqual(512);
    expect(heapLimit).toBeLessThan(640);
    const signIn = await fetch(`${url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "maria@limpatudo.com.br", password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    expect((await signIn.json()).nivelAcesso).toBe("Administrador (P)");
    const demo = await fetch(`${url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "principal@demo.com.br", password: "demo1234" }),
    });
    expect(demo.status).toBe(401);

    // The running server owns the embedded database: a second process writing to it would corrupt it.
    const whileRunning = npm(["create-owner", "--", ...OWNER], `${PASSWORD}\n`);
    expect(await whileRunning.exited).toBe(1);
    expect(whileRunning.output()).toMatch(/A server \(pid \d+\) has the embedded database in .+ open: stop it/);

    // npm runs the script through `sh -c`; `exec` makes the server that shell's process, so npm's forwarded signal
    // reaches it. The processes under npm before the signal must all be gone after it.
    const port = Number(new URL(url).port);
    const under = await childrenOf(serve.child.pid!);
    serverProcesses = [...under, ...(await Promise.all(under.map(childrenOf))).flat()];
    expect(under.length).toBeGreaterThan(0);
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
    expect(serve.output()).toContain('"signal":"SIGTERM","msg":"shutting down"');
    for (let i = 0; i < 50 && serverProcesses.some(alive); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(serverProcesses.filter(alive)).toEqual([]);
    expect(await portOpen(port)).toBe(false);
  }, 120_000);
});
