/**
 * The web app under malformed input, through the whole process (server.ts + the built app, JS off: plain GETs and form
 * posts), as docs/security.md promises: bad input is a 4xx, never a 500 ('Hardening, round three', item 4).
 * First the URLs that answered 500, one outcome each; then a seeded fuzz over every page, download and action of the
 * built app's route manifest (so a new route joins by itself), with random path and query values and form fields.
 * A download is an export job whose failure reaches the browser as a 303 to its progress page, not as a 5xx: the jobs
 * the fuzz queued are read back from the server's database once run, and one that failed with no refusal of its page
 * fails the fuzz as a 5xx does. FUZZ_REQUESTS (default 560) and FUZZ_SEED change the run; the count and the time are
 * printed. Needs `npm run build`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";

import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { startServer } from "../../server.ts";
import { seededChoices } from "../support/fuzz.ts";
import { testServerConfig } from "../support/server-config.ts";

const root = path.resolve(import.meta.dirname, "../..");
let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;
let base: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "web-fuzz-"));
  server = await startServer(testServerConfig(dataDir));
  base = server.url.replace("localhost", "127.0.0.1");
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const HTML = "text/html,application/xhtml+xml";

async function signIn(email: string) {
  const response = await fetch(`${base}/?index`, {
    method: "POST",
    headers: { origin: base },
    body: new URLSearchParams({ email, password: DEMO_PASSWORD, redirectTo: "" }),
    redirect: "manual",
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .find((pair) => pair.startsWith("sessao="));
  return response.status === 302 && cookie ? cookie : null;
}

function page(pathname: string, cookie: string) {
  return fetch(`${base}${pathname}`, { headers: { cookie, accept: HTML }, redirect: "manual" });
}

describe("item 4: URLs that answered 500", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = (await signIn("principal@demo.com.br"))!;
  }, 30_000);

  test.each(["2026-02-30", "2026-13-45"])("an impossible day in the path (%s) answers 404", async (day) => {
    const response = await page(`/historico-colaboradores/5/12/${day}`, cookie);
    expect(response.status).toBe(404);
  });

  test("an impossible day in the path shows 'Página não encontrada', not the apology of a failure", async () => {
    const text = await (await page("/historico-ambientes/12/5/2026-02-30", cookie)).text();
    expect(text).toContain("Página não encontrada");
    expect(text).not.toContain("Houve um erro");
  });

  test.each([
    "/historico-ambientes?q=%00",
    "/historico-colaboradores?q=%00",
    "/historico-tarefas?q=%00",
    "/imagens-tarefas?q=%00",
    "/tarefas-incompletas?q=%00",
    "/setores?q=a%00b",
  ])("a NUL in the search of %s shows the list", async (url) => {
    const response = await page(url, cookie);
    expect(response.status).toBe(200);
  });

  test.each(["/tarefas-incompletas", "/tarefas-incompletas/procedimento?tarefa=Limpar%20piso", "/setores"])(
    "a sort value of 100 characters on %s shows the list in its default order",
    async (url) => {
      const response = await page(`${url}${url.includes("?") ? "&" : "?"}ordem=${"x".repeat(100)}`, cookie);
      expect(response.status).toBe(200);
    },
  );

  test("a procedure's history without the procedure (the issue's URL) answers 404, whatever its sort", async () => {
    const response = await page(`/tarefas-incompletas/procedimento?ordem=${"x".repeat(100)}`, cookie);
    expect(response.status).toBe(404);
  });
});

// The fuzz ---------------------------------------------------------------------------------------------------------

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 560);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_128);

// Seeded: a failure replays with the same FUZZ_SEED.
const { random, pick, chance } = seededChoices(SEED);

const today = businessToday();
const IDS = ["1", "2", "3", "5", "12", "25", "0", "-1", "2147483647", "2147483648", "99999999999999999999", "1.5"];
// Valid days stay near today: a year-long export is a load question (the bounded-load test), not an input one.
const DAYS = [
  today,
  "2026-02-30",
  "2026-13-45",
  "0000-00-00",
  "9999-12-31",
  "2026-2-3",
  "30/02/2026",
  `${today}T25:00`,
];
const TEXTS = [
  "",
  "a",
  "\u0000",
  "a\u0000b",
  "\u0001\u001f\u007f",
  "x".repeat(100),
  "x".repeat(5000),
  "😀🧹",
  "\ud800",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "../../etc/passwd",
  "Ação Ûnica",
  "\n\r\t",
  "=1+1",
  "null",
  "[]",
  "%2e%2e%2f",
  "\u202e",
  "１",
  "NaN",
  "1e309",
  "asc",
  "desc",
  "todos",
  "nome",
];
const VALUE = () => pick(pick([IDS, DAYS, TEXTS, TEXTS]));

/** A lone surrogate cannot be percent-encoded: send the bytes of one (invalid UTF-8) instead. */
function encode(text: string) {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
}

/** The names the app reads from URLs and forms (`.get("x")`, `.getAll("x")`, `.has("x")`), from its own source. */
function namesReadByTheApp() {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry))
        for (const match of readFileSync(file, "utf8").matchAll(/\.(?:get|getAll|has)\("([A-Za-z_][\w.[\]]*)"\)/g))
          names.add(match[1]);
    }
  };
  walk(path.join(root, "app"));
  return [...names];
}

type Route = { template: string; method: "GET" | "POST" };

/** Every URL template of the built app (its route manifest): a GET for each loader, a POST for each action. */
async function routesOfTheApp(): Promise<Route[]> {
  const build = (await import(pathToFileURL(path.join(root, "build", "index.js")).href)) as ServerBuild;
  const full = (id: string): string => {
    const route = build.routes[id]!;
    const parent = route.parentId ? full(route.parentId) : "";
    return route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent;
  };
  const seen = new Set<string>();
  const routes: Route[] = [];
  for (const [id, route] of Object.entries(build.routes)) {
    const template = full(id) || "/";
    const module = route!.module as { loader?: unknown; action?: unknown };
    for (const [method, has] of [
      ["GET", module.loader],
      ["POST", module.action],
    ] as const) {
      const key = `${method} ${template}${route!.index ? "?index" : ""}`;
      if (!has || seen.has(key)) continue;
      seen.add(key);
      routes.push({ template: key.slice(method.length + 1), method });
    }
  }
  return routes;
}

/** The last export job's id before the fuzz: the jobs after it are the fuzz's own. */
async function lastExportJob() {
  const row = await server.database.db
    .selectFrom("export_jobs")
    .select((eb) => eb.fn.max("id").as("last"))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** The fuzz's export jobs once none is waiting or running (or after `waitMs`: those still going are not judged). */
async function fuzzExportJobs(after: number, waitMs = 60_000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const jobs = await server.database.db
      .selectFrom("export_jobs")
      .select(["id", "caminho", "status", "mensagem", "codigo_http", "voltar"])
      .where("id", ">", after)
      .orderBy("id")
      .execute();
    if (Date.now() > deadline || jobs.every((job) => job.status === "pronta" || job.status === "falhou")) return jobs;
    await sleep(250);
  }
}

/**
 * A job that failed because its route threw or answered 5xx (the runner logs it: 'export job failed'), as opposed to
 * a refusal the route answered: a 4xx kept with its words (`codigo_http`) or a redirect with its toast (`voltar`).
 */
const failedByItsRoute = (job: { status: string; codigo_http: number | null; voltar: string | null }) =>
  job.status === "falhou" && job.codigo_http === null && job.voltar === null;

function pathValue(name: string) {
  if (chance(0.15)) return encode(pick(TEXTS));
  if (/data|dia/i.test(name)) return encode(pick(DAYS));
  if (/name/i.test(name)) return encode(pick(["a.jpg", "x".repeat(300), "..%2f..%2fetc", "\u0000.webp", "1"]));
  if (/formato/.test(name)) return pick(["png", "svg", "pdf", "", "PNG"]);
  if (name === "*") return pick(["nada", "a/b/c", encode("\u0000"), "x".repeat(2000)]);
  return encode(pick(IDS));
}

test("web fuzz: every page, download and action of the app, random path, query and form values, 0 × 5xx", async () => {
  const routes = await routesOfTheApp();
  expect(routes.length).toBeGreaterThan(150);
  const names = namesReadByTheApp();
  expect(names).toContain("inicio");
  // The main company's administrator reaches every page; the others are sent to /dashboard from many of them.
  const users = [
    "principal@demo.com.br",
    "principal@demo.com.br",
    "coordenador@demo.com.br",
    "auditor@demo.com.br",
    "cliente@demo.com.br",
  ];
  const cookies = new Map<string, string | null>();
  for (const email of new Set(users)) cookies.set(email, await signIn(email));
  let signIns = cookies.size;

  const started = performance.now();
  const jobsBefore = await lastExportJob();
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const tried = new Set<string>();
  const order = [...routes].sort(() => random() - 0.5);
  let sent = 0;
  for (; sent < TOTAL; sent++) {
    const route = order[sent % order.length];
    const email = pick(users);
    const cookie = chance(0.05) ? null : cookies.get(email);
    const [pathname, index] = route.template.split("?");
    let url = pathname.replace(/:(\w+)|\*/g, (whole, name) => pathValue(name ?? whole)) || "/";
    const query = new URLSearchParams(index ? { index: "" } : {});
    for (let n = Math.floor(random() * 5); n > 0; n--) {
      const name = chance(0.9) ? pick(names) : pick(TEXTS);
      query.append(name, VALUE());
      if (chance(0.15)) query.append(name, VALUE()); // the same name twice: an array
    }
    if (query.size) url += `?${query}`;
    const headers: Record<string, string> = { accept: HTML };
    if (cookie) headers.cookie = cookie;
    let body: BodyInit | undefined;
    if (route.method === "POST") {
      headers.origin = base;
      const form = chance(0.15) ? new FormData() : new URLSearchParams();
      for (let n = Math.floor(random() * 8); n > 0; n--) form.append(pick(names), VALUE());
      if (form instanceof FormData && chance(0.5))
        form.append(pick(["arquivo", "foto", "avatar"]), new File([pick(TEXTS)], pick(["a.csv", "a.png", "x"])));
      body = form;
    }
    let status: number;
    try {
      const response = await fetch(`${base}${url}`, { method: route.method, headers, body, redirect: "manual" });
      status = response.status;
      await response.arrayBuffer();
      // A post that signed the user out (or removed them): sign in again, a few times at most.
      if (cookie && status === 302 && response.headers.get("location")?.startsWith("/?redirectTo") && signIns < 40) {
        cookies.set(email, await signIn(email));
        signIns++;
      }
    } catch (error) {
      status = 599;
      failures.push(`${route.method} ${url.slice(0, 300)} threw ${String(error)}`);
    }
    tried.add(`${route.method} ${route.template}`);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status >= 500 && failures.length < 30) failures.push(`${status} ${route.method} ${url.slice(0, 300)}`);
  }
  // The downloads' answers were their jobs' files, refusals or progress pages: how each job ended says what a 5xx
  // would have said had the route run in the request.
  const jobs = await fuzzExportJobs(jobsBefore);
  const faults = jobs.filter(failedByItsRoute);
  for (const job of faults.slice(0, 30))
    failures.push(`export job ${job.id} failed by its route (${job.mensagem}): GET ${job.caminho.slice(0, 300)}`);
  const files = jobs.filter((job) => job.status === "pronta").length;
  const refused = jobs.filter((job) => job.status === "falhou").length - faults.length;
  const running = jobs.length - files - refused - faults.length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `web fuzz: ${sent} requests over ${routes.length} routes in ${seconds} s (seed ${SEED}); answers: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(", ")}; export jobs: ${jobs.length} (${files} files, ${refused} refused by their page, ` +
      `${faults.length} failed by their route, ${running} still running)`,
  );
  expect(failures).toEqual([]);
  expect(routes.filter((route) => !tried.has(`${route.method} ${route.template}`))).toEqual([]);
}, 240_000);
