/**
 * The history reports over a year of ~1,000,000 history rows (issue 23, bench/README.md §8, `BENCH_ONLY=reports`):
 * on PGlite and, with BENCH_DATABASE_URL or DATABASE_URL, on PostgreSQL (a perf_* database, dropped after), the
 * database is migrated and given the demo data without history in this process, then the year of history
 * (bench/history-data.ts, set-based SQL, timed) and ANALYZE; it is closed and the built server started on it. Each
 * report's first page and its drill-downs are then loaded like the other cases (autocannon, 10 connections, signed in
 * as the demo admin with an API token) over the whole year, and the first pages over the last 31 days. A report route that answers 404 ('Rota não encontrada':
 * not built yet) is skipped with a note, never a failure.
 *
 * The Excel figures of the same issue (10,000 and 100,000 report rows through xlsxResponse, and as CSV) are
 * bench/export.ts `measureReportExports`; the 2,000-row PDF while /healthz is probed is bench/pdf-pool.ts.
 */
import { openDatabase } from "../api/db/connection.ts";
import { migrate } from "../api/db/migrate.ts";
import { DEMO_PASSWORD, seedDemo } from "../api/db/seed.ts";
import { AUDIT_BOARDS } from "../api/domain/audit.ts";
import { presetPeriod } from "../api/domain/client-report.ts";

import { COLLABORATORS, writeHistory, type HistoryData } from "./history-data.ts";
import {
  apiSignIn,
  fmt,
  formatTable,
  probe,
  runLoad,
  startServer,
  tempDir,
  temporaryDatabase,
  type LoadResult,
} from "./lib.ts";

export type ReportSettings = { connections: number; durationS: number; warmupS: number; acceptEncoding: string };

/** The issue's goal for every report case on PGlite. */
export const REPORT_P95_TARGET_MS = 150;

/** Issue 24's goal for the client report: a month of the largest branch, alone (docs/decisions/006-client-report.md). */
export const CLIENT_REPORT_TARGET_MS = 500;
export const CLIENT_REPORT_CASE = "client report, last complete month of the largest branch";

/** The branch with the most bookings in the last complete month: found once the history is written. */
let clientBranch: number | undefined;

type ReportCase = {
  name: string;
  /** The request; `previous` is the answer of the case before it (a later chunk follows the first one's `next`). */
  path: (data: HistoryData, previous: unknown) => string | undefined;
  /** What a right answer holds: a message when it does not. */
  check: (body: unknown) => string | undefined;
};

const period = (data: HistoryData) => `dataIni=${data.dataIni}&dataFim=${data.today}`;

/** Days of the month-long cases: what managers mostly read is a day, a week or a month (the page's default is today). */
export const MONTH_DAYS = 31;

/** The 31 days ending today. */
const month = (data: HistoryData) => {
  const first = new Date(Date.parse(`${data.today}T00:00:00Z`) - (MONTH_DAYS - 1) * 86_400_000);
  return `dataIni=${first.toISOString().slice(0, 10)}&dataFim=${data.today}`;
};

/** A page of at most `size` items. */
const pageUpTo = (size: number) => (body: unknown) => {
  const items = (body as { items?: unknown[] })?.items;
  return Array.isArray(items) && items.length <= size ? undefined : "no page";
};

/** A page of exactly `size` items, with the expected total when given. */
const pageOf =
  (size: number, total?: number) =>
  (body: unknown): string | undefined => {
    const page = body as { items?: unknown[]; total?: unknown };
    if (!Array.isArray(page?.items)) return "no items";
    if (page.items.length !== size) return `${page.items.length} items, expected ${size}`;
    if (total !== undefined && page.total !== total) return `total ${String(page.total)}, expected ${total}`;
    return undefined;
  };

/** A keyset chunk: rows, and the key of the next chunk (a year holds many). */
const chunkOf = (body: unknown): string | undefined => {
  const chunk = body as { items?: unknown[]; next?: unknown };
  if (!Array.isArray(chunk?.items) || !chunk.items.length) return "no items";
  if (typeof chunk.next !== "string" || !chunk.next) return "no next key";
  return undefined;
};

/**
 * Each report's first page and drill-down over the whole year (the longest period a report may ask), then the first
 * pages over the last 31 days.
 */
export const REPORT_CASES: ReportCase[] = [
  {
    name: "collaborators, page 1",
    path: (data) => `/api/relatorios/colaboradores?${period(data)}&page=1&size=20`,
    check: pageOf(20, COLLABORATORS),
  },
  {
    name: "environments (cards), page 1",
    path: (data) => `/api/relatorios/ambientes?${period(data)}&page=1&size=20`,
    check: pageOf(20),
  },
  {
    name: "a collaborator's (room, day) groups, page 1",
    path: (data) => `/api/relatorios/dias?${period(data)}&userId=${data.busyUserId}&page=1&size=20`,
    check: pageOf(20),
  },
  {
    name: "one day of a collaborator in a room",
    path: (data) => `/api/relatorios/dia?data=${data.day}&userId=${data.busyUserId}&ambienteId=${data.environmentId}`,
    check: (body) =>
      Array.isArray((body as { slots?: unknown[] })?.slots) && (body as { slots: unknown[] }).slots.length
        ? undefined
        : "no slots",
  },
  {
    // The route's chunk is `size` slots (at most 500), each with its tasks: ~5.4 rows a slot here.
    name: "export rows, first chunk of 500 slots",
    path: (data) => `/api/relatorios/linhas?${period(data)}&size=500`,
    check: chunkOf,
  },
  {
    name: "export rows, second chunk (after=next)",
    path: (data, previous) => {
      const next = (previous as { next?: unknown } | undefined)?.next;
      return typeof next === "string"
        ? `/api/relatorios/linhas?${period(data)}&size=500&after=${encodeURIComponent(next)}`
        : undefined;
    },
    check: chunkOf,
  },
  // The same first pages over the month ending today.
  {
    name: `collaborators, page 1, ${MONTH_DAYS} days`,
    path: (data) => `/api/relatorios/colaboradores?${month(data)}&page=1&size=20`,
    check: pageOf(20, COLLABORATORS),
  },
  {
    name: `environments (cards), page 1, ${MONTH_DAYS} days`,
    path: (data) => `/api/relatorios/ambientes?${month(data)}&page=1&size=20`,
    check: pageOf(20),
  },
  {
    name: `a collaborator's (room, day) groups, page 1, ${MONTH_DAYS} days`,
    path: (data) => `/api/relatorios/dias?${month(data)}&userId=${data.busyUserId}&page=1&size=20`,
    check: pageOf(20),
  },
  {
    name: `export rows, first chunk of 500 slots, ${MONTH_DAYS} days`,
    path: (data) => `/api/relatorios/linhas?${month(data)}&size=500`,
    check: chunkOf,
  },
  // The activity reports' first pages (issue 24 part 2, docs/activity-reports.md): /historico-tarefas (every slot) and
  // /imagens-tarefas (done with a photo), today (the pages' default, where the client lands), the month, the year.
  ...(
    [
      ["today", (data: HistoryData) => `dataIni=${data.today}&dataFim=${data.today}`],
      [`${MONTH_DAYS} days`, month],
      ["the year", period],
    ] as const
  ).flatMap(([span, range]): ReportCase[] => [
    {
      name: `activities (/historico-tarefas), page 1, ${span}`,
      path: (data) => `/api/relatorios/atividades?${range(data)}&page=1&size=20`,
      check: pageOf(20),
    },
    {
      name: `task images (/imagens-tarefas), page 1, ${span}`,
      path: (data) => `/api/relatorios/atividades?${range(data)}&atividade=imagens&page=1&size=20`,
      // Before the day's first shift (06:00 in Fortaleza) nothing of today has a photo yet: any page up to 20 then.
      check: span === "today" ? pageUpTo(20) : pageOf(20),
    },
  ]),
  // The incomplete tasks' first pages (issue 24 part 1, docs/incomplete-tasks.md): the grid and the busiest procedure's
  // history over the month so far-sized window (the page's default) and the year.
  ...(
    [
      [`${MONTH_DAYS} days`, month],
      ["the year", period],
    ] as const
  ).flatMap(([span, range]): ReportCase[] => [
    {
      name: `incomplete tasks (grid), page 1, ${span}`,
      path: (data) => `/api/relatorios/tarefas-incompletas?${range(data)}&page=1&size=20`,
      check: (body) => ((body as { items?: unknown[] })?.items?.length ? undefined : "no procedures"),
    },
    {
      name: `incomplete tasks (a procedure's history), page 1, ${span}`,
      path: (data, previous) => {
        const first = (previous as { items?: { nome?: string }[] } | undefined)?.items?.[0]?.nome;
        return first
          ? `/api/relatorios/tarefas-incompletas/procedimento?${range(data)}&nome=${encodeURIComponent(first)}&page=1&size=20`
          : undefined;
      },
      check: pageOf(20),
    },
  ]),
  {
    name: CLIENT_REPORT_CASE,
    path: (data) => {
      if (clientBranch === undefined) return undefined;
      const last = presetPeriod("mes-passado", data.today);
      return `/api/relatorios/cliente?dataIni=${last.from}&dataFim=${last.to}&filialId=${clientBranch}`;
    },
    check: (body) => {
      const report = body as { resumo?: { agendadas?: number }; ambientes?: unknown[] };
      return report?.resumo?.agendadas && report.ambientes?.length ? undefined : "nothing scheduled";
    },
  },
  // The audit dashboard (issue 25, docs/audit-dashboard.md): every enabled board's chart in one call, a month and the year.
  ...(
    [
      [`${MONTH_DAYS} days`, month],
      ["the year", period],
    ] as const
  ).map(([span, range]): ReportCase => ({
    name: `audit dashboard (${AUDIT_BOARDS.length} charts), ${span}`,
    path: (data) => `/api/auditoria?${range(data)}`,
    check: (body) => {
      // Every board, in order; the spec's eight with data (the bench's year has no inspections for the ninth).
      const charts = (body as { graficos?: { empty?: boolean }[] })?.graficos;
      return charts?.length === AUDIT_BOARDS.length && charts.slice(0, 8).every((chart) => !chart.empty)
        ? undefined
        : `not ${AUDIT_BOARDS.length} charts, the first 8 with data`;
    },
  })),
];

type Measured = {
  db: string;
  name: string;
  path: string;
  status: number;
  rows?: number;
  bytes: number;
  /** The probe: one request alone, before the load, after one made to drain the server (ms). */
  aloneMs?: number;
  load?: LoadResult;
  /** Why it was not loaded: the route is not there yet (404), or its answer was wrong. */
  skipped?: string;
};

export type ReportsResult = {
  databases: { db: string; data: HistoryData; seedMs: number }[];
  cases: Measured[];
};

/** The rows of an answer: its `items`, or the answer when it is an array. */
function rowsOf(body: unknown): number | undefined {
  if (Array.isArray(body)) return body.length;
  if (body && typeof body === "object" && Array.isArray((body as { items?: unknown }).items))
    return (body as { items: unknown[] }).items.length;
  return undefined;
}

export async function measureReports(
  settings: ReportSettings,
  progress: (message: string) => void,
  problems: string[],
): Promise<ReportsResult> {
  const result: ReportsResult = { databases: [], cases: [] };
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const databases: { db: string; url?: string }[] = [{ db: "PGlite" }];
  if (adminUrl) databases.push({ db: "PostgreSQL", url: adminUrl });
  else progress("reports: no BENCH_DATABASE_URL or DATABASE_URL, so PGlite only");

  for (const { db, url } of databases) {
    const dir = tempDir(`reports-${db}`);
    const temporary = url ? await temporaryDatabase(url) : undefined;
    try {
      progress(`reports ${db}: migrations and demo data without history`);
      const database = await openDatabase(temporary ? { databaseUrl: temporary.url } : { dataDir: dir.dir });
      let data: HistoryData;
      const seedBegan = performance.now();
      try {
        await migrate(database);
        await seedDemo(database, { history: false });
        const seedMs = performance.now() - seedBegan;
        progress(`reports ${db}: a year of history by SQL`);
        data = await writeHistory(database.db);
        const last = presetPeriod("mes-passado", data.today);
        const largest = await database.db
          .selectFrom("bookings")
          .select(["branch_id", (eb) => eb.fn.countAll<string>().as("bookings")])
          .where("data_agend", ">=", last.from)
          .where("data_agend", "<=", last.to)
          .groupBy("branch_id")
          .orderBy("bookings", "desc")
          .executeTakeFirst();
        clientBranch = largest?.branch_id;
        progress(`reports ${db}: client report branch ${clientBranch} (${largest?.bookings ?? 0} bookings last month)`);
        result.databases.push({ db, data, seedMs });
        progress(
          `reports ${db}: ${fmt.int(data.history)} history rows, ${fmt.int(data.bookings)} bookings in ${fmt.ms(data.ms / 1000)} s`,
        );
      } finally {
        await database.close();
      }

      const server = await startServer({
        dataDir: dir.dir,
        databaseUrl: temporary?.url,
        demoData: false,
        label: `reports-${db}`,
      });
      try {
        const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
        const headers = { authorization: `Bearer ${token}`, "accept-encoding": settings.acceptEncoding };
        let previous: unknown;
        for (const entry of REPORT_CASES) {
          const path = entry.path(data, previous);
          previous = undefined;
          if (!path) {
            result.cases.push({
              db,
              name: entry.name,
              path: "-",
              status: 0,
              bytes: 0,
              skipped: "no request (the case before gave none)",
            });
            continue;
          }
          // Twice: the first waits out what the case before left queued (autocannon stops, the server's queue on
          // PGlite's one thread does not) and warms up; the second is the request alone.
          await probe(server.url, { path, headers }, 120_000);
          const began = performance.now();
          const answer = await probe(server.url, { path, headers }, 120_000);
          const aloneMs = performance.now() - began;
          const measured: Measured = {
            db,
            name: entry.name,
            path,
            status: answer.status,
            bytes: answer.body.length,
            aloneMs,
          };
          result.cases.push(measured);
          const text = answer.body.toString("utf8");
          if (answer.status === 404 && text.includes("Rota não encontrada")) {
            measured.skipped = "404 'Rota não encontrada': the route is not built yet";
            progress(`  ${db} ${entry.name}: ${measured.skipped}, skipped`);
            continue;
          }
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          previous = body;
          measured.rows = rowsOf(body);
          const wrong =
            answer.status !== 200
              ? `status ${answer.status} (${text.slice(0, 200)})`
              : body === undefined
                ? "not JSON"
                : entry.check(body);
          if (wrong) {
            measured.skipped = `wrong answer: ${wrong}`;
            problems.push(`reports ${db} ${entry.name} (GET ${path}): ${wrong}`);
            continue;
          }
          progress(`  load ${db} ${entry.name} (${settings.warmupS}s warm-up + ${settings.durationS}s)`);
          measured.load = await runLoad(server.url, {
            path,
            headers,
            connections: settings.connections,
            durationS: settings.durationS,
            warmupS: settings.warmupS,
            serverPid: server.child.pid,
          });
          const bad = Object.entries(measured.load.statusCodes).filter(([code]) => code !== "200");
          if (bad.length || measured.load.errors)
            problems.push(
              `reports ${db} ${entry.name}: ${measured.load.errors} errors, statuses ${JSON.stringify(Object.fromEntries(bad))}`,
            );
        }
      } finally {
        await server.stop();
      }
    } finally {
      await temporary?.drop();
      dir.remove();
    }
  }
  return result;
}

export function reportsReport(result: ReportsResult) {
  const lines: string[] = [];
  for (const { db, data, seedMs } of result.databases) {
    lines.push(
      `${db}: ${fmt.int(data.history)} history rows, ${fmt.int(data.bookings)} bookings, ${fmt.int(data.agendas)} agendas ` +
        `(${data.environments} rooms, ${data.collaborators} collaborators, ${data.dataIni} to ${data.today}) written by SQL in ` +
        `${fmt.ms(data.ms / 1000)} s (${data.steps.map((step) => `${step.name} ${fmt.ms(step.ms / 1000)} s`).join("; ")}); ` +
        `demo data before it ${fmt.ms(seedMs / 1000)} s`,
    );
  }
  const first = result.databases[0]?.data;
  if (first)
    lines.push(
      `drill-downs: collaborator ${first.busyUserId} (${fmt.int(first.busyUserBookings)} bookings in the year), ` +
        `day ${first.day}, room ${first.environmentId}`,
    );
  const paths = [...new Map(result.cases.map((entry) => [entry.name, entry.path])).entries()];
  lines.push(...paths.map(([name, path]) => `  ${name}: GET ${path}`));
  const loaded = result.cases.filter((entry) => entry.load);
  lines.push(
    formatTable(
      [
        "db",
        "case",
        ">rows",
        ">body decoded",
        ">alone ms",
        ">req/s",
        ">p50 ms",
        ">p95 ms",
        ">p99 ms",
        ">server CPU ms/req",
        ">bad",
      ],
      loaded.map(({ db, name, rows, bytes, aloneMs, load }) => [
        db,
        name,
        rows === undefined ? "-" : fmt.int(rows),
        fmt.bytes(bytes),
        fmt.ms(aloneMs),
        fmt.ms(load!.rps),
        fmt.ms(load!.p50),
        fmt.ms(load!.p95),
        fmt.ms(load!.p99),
        fmt.ms(load!.cpuMsPerRequest),
        fmt.int(
          load!.errors +
            Object.entries(load!.statusCodes)
              .filter(([code]) => code !== "200")
              .reduce((sum, [, n]) => sum + n, 0),
        ),
      ]),
    ),
  );
  for (const entry of result.cases.filter((entry) => entry.skipped))
    lines.push(`skipped: ${entry.db} ${entry.name}: ${entry.skipped}`);
  for (const entry of loaded.filter((entry) => entry.db === "PGlite")) {
    const { p95, requests } = entry.load!;
    lines.push(
      `PGlite p95 ≤ ${REPORT_P95_TARGET_MS} ms, ${entry.name}: ` +
        (requests
          ? `${fmt.ms(p95)} ms (${p95 <= REPORT_P95_TARGET_MS ? "met" : "MISSED"})`
          : "no answer completed within the measured seconds (MISSED)"),
    );
  }
  for (const entry of result.cases.filter((entry) => entry.name === CLIENT_REPORT_CASE && entry.aloneMs !== undefined))
    lines.push(
      `${entry.db} client report alone ≤ ${CLIENT_REPORT_TARGET_MS} ms: ${fmt.ms(entry.aloneMs!)} ms ` +
        `(${entry.aloneMs! <= CLIENT_REPORT_TARGET_MS ? "met" : "MISSED"})` +
        (entry.load ? `; under load p50 ${fmt.ms(entry.load.p50)} ms, p95 ${fmt.ms(entry.load.p95)} ms` : ""),
    );
  return lines.join("\n");
}
