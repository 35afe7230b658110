/**
 * Issue 22 'Done when': while the largest save the API allows (20,000 bookings) and the largest list it answers (500
 * bookings with their history) run, the whole process (server.ts) keeps answering /healthz. The target is 200 ms, a
 * figure this test prints (the developers' guide: speed targets are printed figures, not timed tests; on this project's busy 2-core
 * machines the slowest probe moves 68-263 ms from run to run, docs/performance.md); it fails past 1 s, the
 * regression it guards (before issue 22 one save held the server for 193 s). Bounded in
 * count (one save, three lists, a probe every 100 ms) and time (the test gives up after 120 s). On the embedded
 * database by default; with DATABASE_URL, on a database of its own on that PostgreSQL server (created and dropped).
 * Needs `npm run build` first, as the e2e suite does.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { addDays, formatISO, parseISO } from "date-fns";
import { afterAll, beforeAll, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { MAX_BOOKING_ROWS } from "../../api/domain/limits.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { MAX_SAVE_BOOKINGS } from "../../api/domain/schedule-rules.ts";
import { startServer } from "../../server.ts";
import { withAdmin } from "../support/db.ts";
import { signInOverHttp } from "../support/e2e-global-setup.ts";
import { testServerConfig } from "../support/server-config.ts";

const ADMIN_URL = process.env.DATABASE_URL;
const NAME = `bounded_load_${process.pid}`;
/** The 200 ms target is printed; past this the server was held (a step or a list blocked the event loop). */
const HEALTH_TARGET_MS = 200;
const HEALTH_LIMIT_MS = 1000;
/** The multipart case's own: the posts' parse runs on the server's thread (see that test). */
const MULTIPART_LIMIT_MS = 3000;

let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;

const admin = (statement: string) => withAdmin(ADMIN_URL!, (client) => client.query(statement));

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "bounded-load-"));
  const settings: Record<string, string> = {};
  if (ADMIN_URL) {
    await admin(`drop database if exists ${NAME} with (force)`);
    await admin(`create database ${NAME}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${NAME}`;
    settings.DATABASE_URL = url.toString();
  }
  server = await startServer(testServerConfig(dataDir, settings));
}, 180_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (ADMIN_URL) await admin(`drop database if exists ${NAME} with (force)`);
});

const day = (date: string, days: number) => formatISO(addDays(parseISO(date), days), { representation: "date" });
const pad = (n: number) => String(n).padStart(2, "0");

test("/healthz keeps answering (target 200 ms, printed; fails past 1 s) while the largest save and list run", async () => {
  const api = (pathname: string, init: RequestInit = {}) => fetch(new URL(pathname, server.url), init);
  const signIn = await api("/api/sessions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@demo.com.br", password: DEMO_PASSWORD }),
  });
  const { token } = await signIn.json();
  const bearer = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const db = server.database.db;
  const branch = await db
    .selectFrom("branches")
    .select(["id", "company_id"])
    .where("nome", "=", "Filial Aldeota")
    .executeTakeFirstOrThrow();
  const rooms = await db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", branch.id)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .limit(3)
    .execute();
  const asg = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", "asg@demo.com.br")
    .executeTakeFirstOrThrow();

  // The largest save: 3 rooms × 20 cleanings a day × 333 days = 19,980 bookings, just under the cap.
  const tomorrow = day(businessToday(), 1);
  const items = rooms.map((room) => ({
    Id_EmpresasFilial: branch.id,
    Id_Environments: room.id,
    Id_Users: asg.id,
    Periodicidade: {
      type: "sem",
      DIAS_SEMANA: "Domingo - Segunda - Terça - Quarta - Quinta - Sexta - Sábado",
      hora_base_inicial: "00:00",
      hora_base_final: "00:30",
      Revisoes: Array.from({ length: 19 }, (_, index) => ({
        HORA_INICIAL: `${pad(index + 1)}:00`,
        HORA_FINAL: `${pad(index + 1)}:30`,
      })),
    },
    revisionPhotos: false,
    vigIni: tomorrow,
    vigFim: day(tomorrow, 332),
  }));
  expect(3 * 20 * 333).toBeLessThanOrEqual(MAX_SAVE_BOOKINGS);

  // The largest list: a page of 500 bookings of the simulated past (each with its history) and the planned future.
  const listPath =
    `/api/agendas/v2/Agendamentos/company?companyId=${branch.company_id}` +
    `&dataIni=${day(businessToday(), -90)}&dataFim=${day(businessToday(), 60)}&limit=${MAX_BOOKING_ROWS}&page=1`;

  const health: { status: number; ms: number }[] = [];
  let running = true;
  const probing = (async () => {
    const deadline = Date.now() + 120_000;
    while (running && Date.now() < deadline) {
      const began = performance.now();
      const answer = await api("/healthz");
      await answer.arrayBuffer();
      health.push({ status: answer.status, ms: performance.now() - began });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const saving = api("/api/agendas/v2/saveAgenda", { method: "POST", headers: bearer, body: JSON.stringify(items) });
  const listing = (async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const answer = await api(listPath, { headers: bearer });
      answers.push({ status: answer.status, rows: ((await answer.json()) as unknown[]).length });
    }
    return answers;
  })();
  const [saved, lists] = await Promise.all([saving, listing]);
  running = false;
  await probing;

  expect(saved.status).toBe(201);
  const created = (await saved.json()) as { bookings: number }[];
  expect(created.reduce((sum, agenda) => sum + agenda.bookings, 0)).toBe(19_980);
  expect(lists).toEqual(Array.from({ length: 3 }, () => ({ status: 200, rows: MAX_BOOKING_ROWS })));
  // The save alone takes seconds: many probes ran while it did.
  expect(health.length).toBeGreaterThanOrEqual(5);
  const slowest = Math.max(...health.map((probe) => probe.ms));
  console.log(
    `bounded load (${server.database.kind}): ${health.length} health probes, slowest ${Math.round(slowest)} ms ` +
      `(target ${HEALTH_TARGET_MS} ms: ${slowest < HEALTH_TARGET_MS ? "met" : "missed"})`,
  );
  expect(health.every((probe) => probe.status === 200)).toBe(true);
  expect(slowest).toBeLessThan(HEALTH_LIMIT_MS);
}, 180_000);

test("/livez keeps answering (target 100 ms, printed; fails past 1 s) while a flood of exports runs, and every export is delivered", async () => {
  // Exports as jobs (docs/exports.md): 30 downloads at once from one user, the demo's 90 days of the heavy reports
  // in Excel and PDF and lighter lists; each answers its file or a 303 to its progress page, followed to the file.
  const cookie = `sessao=${await signInOverHttp(server.url, "admin@demo.com.br", DEMO_PASSWORD)}`;
  const from = day(businessToday(), -89);
  const period = `inicio=${from}&fim=${businessToday()}`;
  const mix = [
    `/historico-ambientes/exportar.xlsx?${period}`,
    `/historico-colaboradores/exportar.xlsx?${period}`,
    `/historico-ambientes/exportar.pdf?inicio=${day(businessToday(), -6)}&fim=${businessToday()}`,
    `/tarefas-incompletas/exportar.xlsx?${period}`,
    `/auditoria/exportar.xlsx?${period}`,
    "/setores/exportar.xlsx",
  ];
  const get = (pathname: string) => fetch(new URL(pathname, server.url), { redirect: "manual", headers: { cookie } });

  const stopProbes = probeLivez();

  const deliver = async (pathname: string) => {
    const answer = await get(pathname);
    if (answer.status === 200) return (await answer.arrayBuffer()).byteLength > 0;
    const page = answer.headers.get("location") ?? "";
    if (!/^\/exportacoes\/\d+$/.test(page)) return false;
    for (let tries = 0; tries < 140; tries++) {
      const file = await get(`${page}/arquivo`);
      if (file.status === 200) return (await file.arrayBuffer()).byteLength > 0;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    return false;
  };
  const delivered = await Promise.all(
    Array.from({ length: 30 }, (_, index) =>
      deliver(`${mix[index % mix.length]}${mix[index % mix.length].includes("?") ? "&" : "?"}n=${index}`),
    ),
  );
  const { count, p99, slowest } = await stopProbes();
  console.log(
    `export flood (${server.database.kind}): 30 exports, ${delivered.filter(Boolean).length} delivered; ` +
      `${count} /livez probes, p99 ${Math.round(p99)} ms, slowest ${Math.round(slowest)} ms ` +
      `(target p99 100 ms: ${p99 <= 100 ? "met" : "missed"})`,
  );
  expect(delivered.every(Boolean)).toBe(true);
  expect(slowest).toBeLessThan(HEALTH_LIMIT_MS);
}, 240_000);

test("/livez keeps answering (target 100 ms, printed; fails past 3 s) while the largest multipart posts arrive", async () => {
  // The visitor's report (public, the largest form a stranger may send): four posts of 300,000 fields (refused at the
  // 2,001st, 413) and four of a 19 MB file (read whole; a robot's, dropped quietly, 202), all at once. They are sent
  // by another process, so what the probes time is this server's work, not the sender's. The 76 MB are parsed on the
  // server's thread (busboy) and their buffers collected: ~1 s of it on a busy 2-core machine, so the 100 ms target is
  // printed, not met (docs/performance.md 'The largest form posts'); the test fails past 3 s, the regression it guards
  // (four 330,000-field posts held /livez 13 s before the form bound).
  const room = await server.database.db
    .selectFrom("environments")
    .select("id")
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const sender = spawn(
    process.execPath,
    ["-e", MULTIPART_SENDER, `${server.url}/api/info/ambiente/${room.id}/relato`],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let output = "";
  sender.stdout.on("data", (chunk) => (output += chunk));
  const sent = new Promise<number[]>((resolve, reject) => {
    sender.on("error", reject);
    sender.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split("\n").at(-1)!)) : reject(new Error(`sender exited ${code}`)),
    );
  });

  const stopProbes = probeLivez();
  const statuses = await sent;
  const { count, p50, p99, slowest } = await stopProbes();
  console.log(
    `multipart posts (${server.database.kind}): ${statuses.join(" ")}; ${count} /livez probes, ` +
      `p50 ${Math.round(p50)} ms, p99 ${Math.round(p99)} ms, slowest ${Math.round(slowest)} ms ` +
      `(target 100 ms: ${slowest <= 100 ? "met" : "missed"})`,
  );
  expect(statuses.filter((status) => status === 413)).toHaveLength(4);
  expect(statuses.filter((status) => status === 202)).toHaveLength(4);
  expect(slowest).toBeLessThan(MULTIPART_LIMIT_MS);
}, 120_000);

/**
 * /livez asked every 20 ms until `stop` is called (or 150 s pass), each timed from when it was due: a stalled event
 * loop shows as every probe of the stall being late. `stop` answers how many ran and their p50, p99 and slowest.
 */
function probeLivez() {
  const times: number[] = [];
  let running = true;
  const probing = (async () => {
    const deadline = Date.now() + 150_000;
    let due = performance.now();
    while (running && Date.now() < deadline) {
      const sent = due;
      await (await fetch(new URL("/livez", server.url))).arrayBuffer();
      times.push(performance.now() - sent);
      due = Math.max(due + 20, performance.now());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
  })();
  return async function stop() {
    running = false;
    await probing;
    const sorted = times.sort((a, b) => a - b);
    const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
    return { count: sorted.length, p50: at(0.5), p99: at(0.99), slowest: sorted[sorted.length - 1] };
  };
}

/** The other process: builds the eight bodies, sends them at once, prints their statuses (JSON) when all answered. */
const MULTIPART_SENDER = `
const url = process.argv[1];
const boundary = "limite-carga";
const fields = new Blob([Array.from({ length: 300000 }, (_, i) =>
  "--" + boundary + "\\r\\nContent-Disposition: form-data; name=\\"c" + i + "\\"\\r\\n\\r\\nx\\r\\n").join("") + "--" + boundary + "--\\r\\n"]);
const large = new FormData();
large.set("tipo", "1");
large.set("descricao", "Foto grande");
large.set("formToken", "1.x");
large.set("foto", new File([new Uint8Array(19 * 1024 * 1024).fill(65)], "foto.jpg", { type: "image/jpeg" }));
const post = (index) => fetch(url, {
  method: "POST",
  headers: { "x-forwarded-for": "10.77.0." + index, ...(index % 2 ? { "content-type": "multipart/form-data; boundary=" + boundary } : {}) },
  body: index % 2 ? fields : large,
}).then(async (answer) => { await answer.arrayBuffer(); return answer.status; });
Promise.all(Array.from({ length: 8 }, (_, index) => post(index))).then((statuses) => console.log(JSON.stringify(statuses)));
`;
