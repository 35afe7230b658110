/**
 * The README's 'Operations' set-up of several instances, tried for real (issue 26): two servers on one PostgreSQL behind nginx
 * (round-robin, X-Forwarded-*, TRUST_PROXY=1), then checks what must hold and prints each finding:
 * - a session made through one instance works on the other (sessions live in the database);
 * - wrong passwords spread over both instances meet one sign-in limit (rate limits live in the database);
 * - under load through nginx, one instance killed with SIGKILL loses no request (nginx retries on the other);
 * - the same with SIGTERM (the server finishes what it has in flight).
 *
 * Needs nginx (`apt-get install nginx`) and a PostgreSQL server where it may create a database:
 *   ADMIN_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx scripts/two-instances.ts
 * It writes its nginx configuration under tests/.tmp/two-instances/ and removes its database at the end.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import autocannon from "autocannon";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const adminUrl = process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "ops_two_instances";
const PROXY_PORT = 3400;
const PORTS = [3401, 3402];
const work = path.join(root, "tests", ".tmp", "two-instances");
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${DATABASE}` }).href;

export const NGINX_CONF = `upstream limpeza {
    server 127.0.0.1:${PORTS[0]} max_fails=1 fail_timeout=5s;
    server 127.0.0.1:${PORTS[1]} max_fails=1 fail_timeout=5s;
    keepalive 16;
}

server {
    listen 127.0.0.1:${PROXY_PORT};
    client_max_body_size 20m;

    location / {
        proxy_pass http://limpeza;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-Proto $scheme;
        # An instance that refuses, resets or answers 502/503 (stopping): the request goes to the other one.
        # nginx never resends a POST it has already sent (non_idempotent is left off).
        proxy_next_upstream error timeout http_502 http_503;
        proxy_next_upstream_tries 2;
    }
}
`;

const problems: string[] = [];
/** A finding that did not hold: listed at the end, and the script exits 1. */
function expectThat(holds: boolean, problem: string) {
  if (!holds) problems.push(problem);
}

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function startInstance(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      TRUST_PROXY: "1",
      NODE_ENV: "production",
      DEMO_DATA: "true",
      SESSION_SECRET: "two-instances-share-this-secret-of-32-chars",
      PUBLIC_URL: `http://127.0.0.1:${PROXY_PORT}`,
      DATA_DIR: path.join(work, `instance-${port}`),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(async () => {
      const ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (ready) resolve((clearInterval(timer), child));
    }, 500);
    child.once("exit", (code) => reject(new Error(`instance ${port} exited with ${code}`)));
  });
}

const proxy = (pathname: string, init?: RequestInit) => fetch(`http://127.0.0.1:${PROXY_PORT}${pathname}`, init);

async function signIn(password: string) {
  return proxy("/api/sessions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@demo.com.br", password }),
  });
}

/** Load through nginx for `seconds`, `stop` called on the instance at the second `after`; answers autocannon's tally. */
async function loadWhile(token: string, seconds: number, after: number, stop: () => void) {
  const run = autocannon({
    url: `http://127.0.0.1:${PROXY_PORT}/api/environments?size=20`,
    headers: { authorization: `Bearer ${token}` },
    connections: 8,
    duration: seconds,
  });
  const timer = setTimeout(stop, after * 1000);
  const result = await run;
  clearTimeout(timer);
  return {
    requests: result.requests.total,
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p99ms: result.latency.p99,
  };
}

async function main() {
  if (spawnSync("nginx", ["-v"]).error) throw new Error("nginx is not installed: apt-get install nginx");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, "logs"), { recursive: true });
  writeFileSync(
    path.join(work, "nginx.conf"),
    `worker_processes 1;\npid ${work}/nginx.pid;\nerror_log ${work}/logs/error.log;\nevents {}\n` +
      `http {\n log_format upstreams '$status $upstream_addr';\n access_log ${work}/logs/access.log upstreams;\n` +
      `${NGINX_CONF}}\n`,
  );
  await admin(`drop database if exists ${DATABASE} with (force)`);
  await admin(`create database ${DATABASE}`);
  const instances: ChildProcess[] = [];
  const nginx = spawn("nginx", ["-p", work, "-c", path.join(work, "nginx.conf"), "-g", "daemon off;"], {
    stdio: "inherit",
  });
  try {
    // The first start writes the demo data; the second finds it (both would race to seed an empty database).
    instances.push(await startInstance(PORTS[0]));
    instances.push(await startInstance(PORTS[1]));
    await new Promise((resolve) => setTimeout(resolve, 500));

    const session = await (await signIn("demo1234")).json();
    const seen = await Promise.all(
      Array.from({ length: 6 }, () =>
        proxy("/api/users/me", { headers: { authorization: `Bearer ${session.token}` } }).then((r) => r.status),
      ),
    );
    console.log(`one session through both instances: ${seen.join(" ")} (expected 200 six times)`);
    expectThat(
      seen.every((status) => status === 200),
      "the session did not work on both instances",
    );

    const attempts: number[] = [];
    for (let i = 0; i < 7; i++) attempts.push((await signIn("wrong-password")).status);
    console.log(`seven wrong passwords, round-robin over both: ${attempts.join(" ")} (expected 401 × 5, then 429)`);
    expectThat(attempts.join(" ") === "401 401 401 401 401 429 429", "the sign-in limit was not shared");
    const cleanup = new pg.Client({ connectionString: databaseUrl });
    await cleanup.connect();
    await cleanup.query("delete from rate_limits");
    await cleanup.end();

    const killed = await loadWhile(session.token, 10, 3, () => instances[1].kill("SIGKILL"));
    console.log(`10 s of load, instance ${PORTS[1]} killed (SIGKILL) at 3 s:`, killed);
    expectThat(killed.non2xx + killed.errors + killed.timeouts === 0, "requests were lost when an instance was killed");
    instances[1] = await startInstance(PORTS[1]);
    await new Promise((resolve) => setTimeout(resolve, 6_000)); // nginx's fail_timeout: the instance is back in turn
    const stopped = await loadWhile(session.token, 10, 3, () => instances[0].kill("SIGTERM"));
    console.log(`10 s of load, instance ${PORTS[0]} stopped (SIGTERM) at 3 s:`, stopped);
    expectThat(stopped.non2xx + stopped.errors + stopped.timeouts === 0, "requests were lost when an instance stopped");
    // Which instance answered (a retried request lists both, the failed one first).
    const answered = new Map<string, number>();
    for (const line of readFileSync(path.join(work, "logs", "access.log"), "utf8")
      .split("\n")
      .filter(Boolean)) {
      const key = line.replace(/, /g, " then ");
      answered.set(key, (answered.get(key) ?? 0) + 1);
    }
    console.log("nginx access log, status and upstream(s):", Object.fromEntries(answered));
  } finally {
    for (const instance of instances) instance.kill("SIGKILL");
    nginx.kill("SIGQUIT");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin(`drop database if exists ${DATABASE} with (force)`);
  }
}

await main();
if (problems.length) {
  console.error(`\nPROBLEMS:\n- ${problems.join("\n- ")}`);
  process.exitCode = 1;
} else console.log("\nEverything held.");
