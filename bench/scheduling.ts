/**
 * Scheduling at scale (issue 12, `BENCH_ONLY=scheduling`): the demo simulator's rows per second, saving an agenda of
 * one year with 20 cleanings a day (POST /api/agendas/v2/saveAgenda, 7,300+ booking rows), and, over 2,000 agendas
 * built through the scheduling service, the month's counts (GET /api/agendas/v2/Agendamentos/resumo, what the calendar
 * and the board ask), a page of 500 bookings (the cap: an unpaged month is past it, 400), the board and
 * the calendar month view /historico-agenda (p50/p95 of sequential requests).
 *
 * The database is prepared in this process on the server's DATA_DIR (PGlite; migrate, demo data without history,
 * then the simulator and the 2,000 agendas through the services), closed, then the built server is started on it.
 */
import path, { join } from "node:path";
import { gzipSync } from "node:zlib";

import autocannon from "autocannon";
import { addMonths, endOfMonth, startOfMonth } from "date-fns";

import type { Scope } from "../api/auth/scope.ts";
import { openDatabase } from "../api/db/connection.ts";
import { simulateDemoHistory, type SimulationResult } from "../api/db/demo-simulator.ts";
import { migrate } from "../api/db/migrate.ts";
import { DEMO_PASSWORD, seedDemo } from "../api/db/seed.ts";
import { businessToday, dayOf, isoDay } from "../api/domain/schedule-expansion.ts";
import { SaveAgendaItem, type SaveAgendaInput } from "../api/domain/schedule-payloads.ts";
import { createAgendas } from "../api/services/scheduling.ts";
import { createDiskStorage } from "../api/services/storage.ts";

import {
  apiSignIn,
  benchFile,
  fmt,
  formatTable,
  multipartBody,
  percentile,
  probe,
  ROOT,
  type RequestSpec,
  runLoad,
  signIn,
  startServer,
  tempDir,
} from "./lib.ts";

export const AGENDAS = 2_000;
const SAMPLES = 20;
const WARMUP = 3;
const SAVE_RUNS = 3;
const WEEKDAYS = ["Domingo", "Segunda", "Terça", "Quarta", "Quinta", "Sexta", "Sábado"];

type Timing = { name: string; path: string; rows?: number; bytes: number; p50: number; p95: number; max: number };

const pad = (n: number) => String(n).padStart(2, "0");
const time = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** 20 cleanings a day, 06:00 to 19:50, every day of one year from `vigIni`. */
export function yearAgenda(branchId: number, environmentId: number, userId: number, vigIni: string): SaveAgendaInput {
  const slots = Array.from({ length: 20 }, (_, i) => [time(360 + i * 42), time(360 + i * 42 + 30)]);
  const [main, ...revisions] = slots;
  return {
    Id_EmpresasFilial: branchId,
    Id_Environments: environmentId,
    Id_Users: userId,
    Periodicidade: {
      type: "sem",
      DIAS_SEMANA: WEEKDAYS.join(" - "),
      hora_base_inicial: main[0],
      hora_base_final: main[1],
      Revisoes: revisions.map(([ini, fim]) => ({ HORA_INICIAL: ini, HORA_FINAL: fim })),
    },
    revisionPhotos: false,
    vigIni,
    vigFim: isoDay(addMonths(dayOf(vigIni), 12)),
  };
}

export async function measureScheduling(progress: (message: string) => void, problems: string[]) {
  const dataDir = tempDir("scheduling");
  const today = businessToday();
  const month = startOfMonth(addMonths(dayOf(today), 1));
  const range = { dataIni: isoDay(month), dataFim: isoDay(endOfMonth(month)) };
  const mes = range.dataIni.slice(0, 7);

  progress("scheduling: demo data (without history) in a fresh DATA_DIR");
  const database = await openDatabase({ dataDir: dataDir.dir });
  let simulation: SimulationResult;
  let ids: { companyId: number; branchId: number; environments: number[]; users: number[] };
  let buildMs: number;
  let monthRows = 0;
  let boardRows = 0;
  let roomId = 0;
  try {
    await migrate(database);
    await seedDemo(database, { history: false });
    progress("scheduling: the demo simulator (90 days)");
    simulation = await simulateDemoHistory(database.db, {
      now: new Date(),
      storage: createDiskStorage(path.join(dataDir.dir, "uploads")),
    });

    const { db } = database;
    const branch = await db
      .selectFrom("branches")
      .select(["id", "company_id"])
      .where("nome", "=", "Filial Aldeota")
      .executeTakeFirstOrThrow();
    const environments = (
      await db.selectFrom("environments").select("id").where("branch_id", "=", branch.id).orderBy("id").execute()
    ).map((row) => row.id);
    const users = (
      await db
        .selectFrom("users")
        .select("id")
        .where("branch_id", "=", branch.id)
        .where("role_id", "=", 5)
        .orderBy("id")
        .execute()
    ).map((row) => row.id);
    ids = { companyId: branch.company_id, branchId: branch.id, environments, users };

    // 2,000 agendas through the service, 50 a call (the route's limit): one weekday each, one or two slots, valid
    // from today to the end of next month.
    progress(`scheduling: ${fmt.int(AGENDAS)} agendas through createAgendas`);
    const scope: Scope = { level: "company", companyId: branch.company_id };
    const vigFim = range.dataFim;
    const began = performance.now();
    for (let start = 0; start < AGENDAS; start += 50) {
      const items = Array.from({ length: Math.min(50, AGENDAS - start) }, (_, k) => {
        const i = start + k;
        const from = 360 + (i % 24) * 30;
        const wire: SaveAgendaInput = {
          Id_EmpresasFilial: branch.id,
          Id_Environments: environments[i % environments.length],
          Id_Users: users[i % users.length],
          Periodicidade: {
            type: "sem",
            DIAS_SEMANA: WEEKDAYS[i % 7],
            hora_base_inicial: time(from),
            hora_base_final: time(from + 20),
            Revisoes: i % 2 ? [{ HORA_INICIAL: time(from + 25), HORA_FINAL: time(from + 29) }] : [],
          },
          revisionPhotos: false,
          vigIni: today,
          vigFim,
        };
        return SaveAgendaItem.parse(wire);
      });
      await createAgendas(db, scope, items);
    }
    // The board's day: 2,000 more agendas (12X) valid on that one day only, so it holds 2,000+ bookings.
    progress(`scheduling: ${fmt.int(AGENDAS)} one-day agendas on ${range.dataIni} (the board's day)`);
    for (let start = 0; start < AGENDAS; start += 50) {
      const items = Array.from({ length: Math.min(50, AGENDAS - start) }, (_, k) => {
        const from = 360 + ((start + k) % 24) * 30;
        return SaveAgendaItem.parse({
          Id_EmpresasFilial: branch.id,
          Id_Environments: environments[(start + k) % environments.length],
          Id_Users: users[(start + k) % users.length],
          Periodicidade: {
            type: "12X",
            DIAS_SEMANA: "",
            hora_base_inicial: time(from),
            hora_base_final: time(from + 20),
            Revisoes: [],
          },
          revisionPhotos: false,
          vigIni: range.dataIni,
          vigFim: range.dataIni,
        } satisfies SaveAgendaInput);
      });
      await createAgendas(db, scope, items);
    }
    buildMs = performance.now() - began;
    boardRows = Number(
      (
        await db
          .selectFrom("bookings")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("company_id", "=", branch.company_id)
          .where("data_agend", "=", range.dataIni)
          .executeTakeFirstOrThrow()
      ).n,
    );
    // The room page's room: the demo room the simulator cleaned last (today, or yesterday just after midnight,
    // before the simulated day has begun).
    roomId = (
      await db
        .selectFrom("bookings")
        .select("environment_id")
        .where("data_agend", "<=", today)
        .where("status", "is not", null)
        .orderBy("data_agend", "desc")
        .orderBy("environment_id")
        .executeTakeFirstOrThrow()
    ).environment_id;
    const counted = await db
      .selectFrom("bookings")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("company_id", "=", branch.company_id)
      .where("data_agend", ">=", range.dataIni)
      .where("data_agend", "<=", range.dataFim)
      .executeTakeFirstOrThrow();
    monthRows = Number(counted.n);
  } finally {
    await database.close();
  }

  progress("scheduling: server on that DATA_DIR");
  // One proxy hop believed: the report flood below comes from many addresses, as visitors' phones would.
  const server = await startServer({
    dataDir: dataDir.dir,
    demoData: false,
    label: "scheduling",
    env: { TRUST_PROXY: "1" },
  });
  try {
    const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
    const cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
    const bearer = { authorization: `Bearer ${token}`, "content-type": "application/json" };

    // Saving one year of 20 cleanings a day, over HTTP, each run a new agenda (another environment).
    const saves: { ms: number; bookings: number }[] = [];
    for (let run = 0; run < SAVE_RUNS; run++) {
      const body = JSON.stringify([
        yearAgenda(ids.branchId, ids.environments[run % ids.environments.length], ids.users[0], today),
      ]);
      const began = performance.now();
      const answer = await probe(
        server.url,
        { method: "POST", path: "/api/agendas/v2/saveAgenda", headers: bearer, body },
        120_000,
      );
      const ms = performance.now() - began;
      if (answer.status !== 201) {
        problems.push(`scheduling: saveAgenda answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
        continue;
      }
      const [created] = JSON.parse(answer.body.toString()) as { bookings: number }[];
      saves.push({ ms, bookings: created.bookings });
    }

    const base = `dataIni=${range.dataIni}&dataFim=${range.dataFim}&companyId=${ids.companyId}`;
    const cases: { name: string; path: string; headers: Record<string, string>; json: boolean }[] = [
      {
        name: "GET Agendamentos/resumo, one month (counts per day and status)",
        path: `/api/agendas/v2/Agendamentos/resumo?${base}`,
        headers: { authorization: `Bearer ${token}` },
        json: true,
      },
      {
        name: "GET Agendamentos/company, one month, limit 500 page 1 (the cap)",
        path: `/api/agendas/v2/Agendamentos/company?${base}&limit=500&page=1`,
        headers: { authorization: `Bearer ${token}` },
        json: true,
      },
      {
        name: "board /dashboard, one day (columns of 30 cards)",
        path: `/dashboard?inicio=${range.dataIni}&fim=${range.dataIni}`,
        headers: { cookie },
        json: false,
      },
      {
        name: "board /dashboard, one day, table view",
        path: `/dashboard?inicio=${range.dataIni}&fim=${range.dataIni}&vista=tabela`,
        headers: { cookie },
        json: false,
      },
      {
        name: "calendar month view /historico-agenda",
        path: `/historico-agenda?mes=${mes}&dia=${range.dataIni}`,
        headers: { cookie },
        json: false,
      },
    ];
    const timings: Timing[] = [];
    for (const spec of cases) {
      progress(`  scheduling: ${spec.name}`);
      const times: number[] = [];
      let rows: number | undefined;
      let bytes = 0;
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const began = performance.now();
        const answer = await probe(server.url, { path: spec.path, headers: spec.headers }, 120_000);
        const ms = performance.now() - began;
        if (answer.status !== 200) {
          problems.push(`scheduling ${spec.name}: status ${answer.status}`);
          break;
        }
        if (i >= WARMUP) times.push(ms);
        bytes = answer.body.length;
        if (spec.json) rows = (JSON.parse(answer.body.toString()) as unknown[]).length;
      }
      const sorted = Float64Array.from(times).sort();
      timings.push({
        name: spec.name,
        path: spec.path,
        rows,
        bytes,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        max: sorted.at(-1) ?? Number.NaN,
      });
    }
    const room = await measureRoomPage(server.url, roomId, progress, problems);
    const flood = await measureReportFlood(server.url, roomId, {
      path: `/dashboard?inicio=${range.dataIni}&fim=${range.dataIni}`,
      headers: { cookie },
    });
    return { simulation, buildMs, monthRows, boardRows, range, saves, timings, room, flood };
  } finally {
    await server.stop();
    dataDir.remove();
  }
}

export function schedulingReport(result: Awaited<ReturnType<typeof measureScheduling>>) {
  const { simulation: s } = result;
  const saveMs = result.saves.map((save) => save.ms);
  return [
    `\nScheduling (issue 12): PGlite, demo data + the simulator + ${fmt.int(AGENDAS)} agendas of company 1 ` +
      `(built through createAgendas in ${fmt.int(result.buildMs)} ms; ${fmt.int(result.monthRows)} booking rows in ` +
      `${result.range.dataIni}..${result.range.dataFim})`,
    `Demo simulator: ${fmt.int(s.rows)} rows (${s.agendas} agendas, ${fmt.int(s.bookings)} bookings, ` +
      `${fmt.int(s.history)} history rows, ${fmt.int(s.photos)} photos; ${fmt.int(s.completed)} complete, ${s.late} late, ` +
      `${s.incomplete} incomplete, ${s.missed} missed) in ${fmt.int(s.ms)} ms = ${fmt.int((s.rows / s.ms) * 1000)} rows/s; ` +
      `${fmt.int(((s.completed + s.incomplete + s.inProgress) / s.ms) * 1000)} executed slots/s`,
    `Save an agenda of one year, 20 cleanings a day (POST /api/agendas/v2/saveAgenda, ${SAVE_RUNS} runs): ` +
      result.saves.map((save) => `${fmt.int(save.ms)} ms (${fmt.int(save.bookings)} rows)`).join(", ") +
      (saveMs.length ? `; best ${fmt.int(Math.min(...saveMs))} ms` : ""),
    `Reads (${SAMPLES} sequential requests after ${WARMUP} warm-ups each)`,
    formatTable(
      ["case", ">rows", ">bytes", ">p50 ms", ">p95 ms", ">max ms"],
      result.timings.map((t) => [
        t.name,
        t.rows === undefined ? "-" : fmt.int(t.rows),
        fmt.int(t.bytes),
        fmt.ms(t.p50),
        fmt.ms(t.p95),
        fmt.ms(t.max),
      ]),
    ),
    `The board's day ${result.range.dataIni} holds ${fmt.int(result.boardRows)} bookings.`,
    roomReport(result.room),
    floodReport(result.flood),
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------------------------
// The public room page (issue 13)

const ROOM_LOAD = { connections: 10, durationS: 8, warmupS: 2 };

/**
 * The room page as a phone gets it: the HTML gzipped (its CSS is inline), every image it references (the avatar
 * thumbnails), the favicon, and the count of <script> elements (must be 0); then its requests per second next to a
 * static file of the same size served by the same server.
 */
async function measureRoomPage(url: string, roomId: number, progress: (m: string) => void, problems: string[]) {
  progress("scheduling: the room page");
  const path = `/info/ambiente/${roomId}`;
  const gzip = { "accept-encoding": "gzip" };
  const page = await fetch(`${url}${path}`, { headers: gzip });
  const html = await page.text();
  const htmlGzip = Number(page.headers.get("content-length") ?? 0) || gzipSync(html).length;
  const scripts = (html.match(/<script\b/g) ?? []).length;
  const images = [...html.matchAll(/<img[^>]+src="([^"]+)"/g)].map((match) => match[1].replace(/&amp;/g, "&"));
  const links = [...html.matchAll(/<link[^>]+href="([^"]+)"/g)].map((match) => match[1]);
  let imageBytes = 0;
  for (const src of [...new Set([...images, ...links])])
    imageBytes += (await (await fetch(`${url}${src}`, { headers: gzip })).arrayBuffer()).byteLength;
  if (scripts) problems.push(`room page: ${scripts} <script> element(s), none expected`);

  const staticFile = join(ROOT, "public", "bench-room-static.html");
  const removeStatic = benchFile(staticFile, Buffer.from(html));
  try {
    const roomLoad = await runLoad(url, { method: "GET", path, headers: gzip, ...ROOM_LOAD });
    const staticLoad = await runLoad(url, {
      method: "GET",
      path: "/bench-room-static.html",
      headers: gzip,
      ...ROOM_LOAD,
    });
    return {
      path,
      cards: (html.match(/<li\b/g) ?? []).length,
      htmlBytes: Buffer.byteLength(html),
      htmlGzip,
      images: images.length,
      imageBytes,
      scripts,
      roomLoad,
      staticLoad,
    };
  } finally {
    removeStatic();
  }
}

function roomReport(room: Awaited<ReturnType<typeof measureRoomPage>>) {
  const total = room.htmlGzip + room.imageBytes;
  return [
    `\nPublic room page ${room.path} (${room.cards} cards): HTML ${fmt.int(room.htmlBytes)} B, ` +
      `${fmt.int(room.htmlGzip)} B gzip with its CSS inline (goal ≤ 30 KB); ${room.images} images + favicon ` +
      `${fmt.int(room.imageBytes)} B; JS ${room.scripts} scripts, 0 B; total transfer ${fmt.int(total)} B`,
    formatTable(
      ["under load (10 connections)", ">req/s", ">p50 ms", ">p95 ms"],
      [
        ["room page", fmt.int(room.roomLoad.rps), fmt.ms(room.roomLoad.p50), fmt.ms(room.roomLoad.p95)],
        [
          "same-size static file",
          fmt.int(room.staticLoad.rps),
          fmt.ms(room.staticLoad.p50),
          fmt.ms(room.staticLoad.p95),
        ],
      ],
    ),
    `room page / static file (req/s): ${fmt.ratio(room.roomLoad.rps / room.staticLoad.rps)} (goal ≥ 0.5)`,
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------------------------
// A flood of visitors' reports (issue 28)

const FLOOD = { rate: 50, durationS: 30 };
const FLOOD_PROBE = { connections: 4, durationS: 6, warmupS: 1 };

/**
 * 50 reports a second for 30 s against one room, each from an address of its own (X-Forwarded-For, one proxy hop
 * believed), while the room page and the board are loaded: their p95 before and during. Past the room's limit (30
 * reports in 10 minutes) the reports are refused with 429, from memory once the block is known.
 */
async function measureReportFlood(url: string, roomId: number, board: RequestSpec) {
  const roomPath = `/info/ambiente/${roomId}`;
  const gzip = { "accept-encoding": "gzip" };
  const probe = async () => ({
    room: await runLoad(url, { path: roomPath, headers: gzip, ...FLOOD_PROBE }),
    board: await runLoad(url, { ...board, ...FLOOD_PROBE }),
  });
  const before = await probe();

  const page = (await (await fetch(`${url}/api${roomPath}`)).json()) as { formToken: string; kinds: { id: number }[] };
  await new Promise((resolve) => setTimeout(resolve, 2_100)); // a form posted under 2 s is a robot's
  const { body, contentType } = multipartBody({
    tipo: String(page.kinds[0]!.id),
    descricao: "Lixeira cheia",
    formToken: page.formToken,
    site: "",
  });
  let sent = 0;
  const statuses: Record<string, number> = {};
  const flooding = new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}/api${roomPath}/relato`,
        method: "POST",
        connections: 10,
        overallRate: FLOOD.rate,
        duration: FLOOD.durationS,
        headers: { "content-type": contentType },
        body,
        requests: [
          {
            setupRequest: (request) => {
              sent++;
              request.headers = {
                ...request.headers,
                "x-forwarded-for": `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
              };
              return request;
            },
          },
        ],
      },
      (error) => (error ? reject(error as Error) : resolve()),
    );
    instance.on("response", (_client, status) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const during = await probe();
  await flooding;
  return { before, during, statuses, roomPath };
}

function floodReport(flood: Awaited<ReturnType<typeof measureReportFlood>>) {
  const total = Object.values(flood.statuses).reduce((sum, count) => sum + count, 0);
  const row = (name: string, load: Awaited<ReturnType<typeof runLoad>>) => [
    name,
    fmt.int(load.rps),
    fmt.ms(load.p50),
    fmt.ms(load.p95),
  ];
  return [
    `\nReport flood (issue 28): ${FLOOD.rate} reports/s for ${FLOOD.durationS} s to ${flood.roomPath}, one address ` +
      `each: ${fmt.int(total)} answered (${Object.entries(flood.statuses)
        .map(([status, count]) => `${status}×${fmt.int(count)}`)
        .join(", ")})`,
    formatTable(
      [`${FLOOD_PROBE.connections} connections, ${FLOOD_PROBE.durationS} s`, ">req/s", ">p50 ms", ">p95 ms"],
      [
        row("room page, before", flood.before.room),
        row("room page, during the flood", flood.during.room),
        row("board, before", flood.before.board),
        row("board, during the flood", flood.during.board),
      ],
    ),
  ].join("\n");
}
