/**
 * Scored inspections over a year (issue 29, bench/README.md §9, `BENCH_ONLY=inspections npx tsx bench/run.ts`): on
 * PGlite and, with BENCH_DATABASE_URL or DATABASE_URL, on PostgreSQL (a perf_* database, dropped after), the
 * database is migrated and given the demo data without history in this process, then `INSPECTIONS` (100,000)
 * inspections of the demo company with ~6 answers each are written by set-based SQL (timed), then ANALYZE; it is
 * closed and the built server started on it. Signed in as the demo admin (an API token, and the web form's cookie for
 * the page), the list (first page, a deep page, one branch, the last 31 days), the scores by week and by room over
 * 366 days, the audit dashboard's board 9 over the year (when the route has it) and the /inspecoes page are each
 * probed, checked and loaded with autocannon like the other sections.
 *
 * The rows (api/db/migrations/017_inspections.sql), spread over the demo company's rooms whose category has a
 * checklist (the demo's Banheiro and Enfermaria rooms), by the company's administrators and auditors, ~274 a day
 * between 07:00 and 18:00 (Fortaleza) over the 365 days ending today. Each inspection answers every item of its
 * checklist's version: 'nao_se_aplica' 5 % (never the first item, so something always applies), 'nao_conforme' at the
 * inspection's own failure rate (2-10 %), 'conforme' otherwise. The answers are drawn first (a temporary table), and
 * the inspection's sums come from them by SQL, scored as the service scores (api/domain/inspections.ts): nota =
 * floor((2000·conforme + aplicaveis) ÷ 2·aplicaveis) ÷ 10, i.e. the percent rounded half up to one decimal, and
 * aprovada = nota ≥ the company's pass mark. The draws are seeded (setseed), so runs write the same rows.
 */
import { addDays } from "date-fns";
import { sql, type Kysely } from "kysely";

import { openDatabase } from "../api/db/connection.ts";
import { DEMO_COMPANY } from "../api/db/demo-simulator.ts";
import { migrate } from "../api/db/migrate.ts";
import type { DB } from "../api/db/schema.ts";
import { DEMO_PASSWORD, seedDemo } from "../api/db/seed.ts";
import { businessToday, dayOf, isoDay } from "../api/domain/schedule-expansion.ts";

import { foreignKeyChecks, setTriggers } from "./history-data.ts";
import {
  apiSignIn,
  fmt,
  formatTable,
  probe,
  runLoad,
  signIn,
  startServer,
  tempDir,
  temporaryDatabase,
  type LoadResult,
} from "./lib.ts";

export type InspectionSettings = {
  connections: number;
  durationS: number;
  warmupS: number;
  acceptEncoding: string;
  inspections: number;
};

/** Inspections written (BENCH_INSPECTIONS). */
export const INSPECTIONS = 100_000;
/** Days of inspections, ending today. */
const DAYS = 365;
/** The brief's bar for every case on PGlite: p95 well over this is looked into. */
export const INSPECTION_P95_TARGET_MS = 300;
/** The deep page of the list: page 2,000 of 20 (offset 39,980). */
const DEEP_PAGE = 2_000;

export type InspectionData = {
  today: string;
  /** 31 days ending today (the list's month case). */
  monthIni: string;
  /** 366 days ending today (the scores' longest period). */
  yearIni: string;
  companyId: number;
  rooms: number;
  inspectors: number;
  inspections: number;
  answers: number;
  approved: number;
  /** The branch with the most inspections, and its count. */
  branchId: number;
  branchTotal: number;
  /** The company's inspections in all (the demo's included), in the 31 days and in the 366 days. */
  companyTotal: number;
  monthTotal: number;
  yearTotal: number;
  steps: { name: string; ms: number }[];
  ms: number;
};

/** Fortaleza's day boundaries, as api/services/inspections.ts filters them. */
const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'America/Fortaleza'`;
const dayEnd = (day: string) => sql`((${day}::date + 1)::timestamp) at time zone 'America/Fortaleza'`;

/** Writes the inspections into the demo company (see the module's comment), then ANALYZE. */
export async function writeInspections(db: Kysely<DB>, count = INSPECTIONS, now = new Date()): Promise<InspectionData> {
  const today = businessToday(now);
  const first = isoDay(addDays(dayOf(today), -(DAYS - 1)));
  const monthIni = isoDay(addDays(dayOf(today), -30));
  const yearIni = isoDay(addDays(dayOf(today), -365));
  const steps: { name: string; ms: number }[] = [];
  const began = performance.now();
  const step = async <T>(name: string, run: () => Promise<T>) => {
    const at = performance.now();
    const result = await run();
    steps.push({ name, ms: performance.now() - at });
    return result;
  };

  const written = await db.transaction().execute(async (trx) => {
    const run = (query: ReturnType<typeof sql>) => query.execute(trx);
    const company = await trx
      .selectFrom("companies")
      .select(["id", "nota_minima_inspecao"])
      .where("nome", "=", DEMO_COMPANY)
      .executeTakeFirstOrThrow();
    const base = Number(
      (await sql<{ id: number | null }>`select max(id) id from inspections`.execute(trx)).rows[0]?.id ?? 0,
    );
    await run(sql`select setseed(0.29)`);
    // The rows are made from the rows they reference: the foreign keys' row-by-row checks (1,700,000 look-ups) are
    // off for the two inserts and on again in the same transaction, as bench/history-data.ts does.
    const checks = await foreignKeyChecks(trx, ["inspections", "inspection_answers"]);
    await setTriggers(trx, checks, "disable");

    const drawn = await step("draws: each inspection's room, inspector, time and failure rate", async () => {
      await run(sql`
        create temp table bench_inspection_draws on commit drop as
        with rooms as (
          select row_number() over (order by e.id) - 1 k, count(*) over () rooms, e.id environment_id, e.branch_id,
            c.id checklist_id, c.versao
          from environments e join checklists c on c.category_id = e.category_id
          where e.company_id = ${company.id} and e.deleted_at is null),
        inspectors as (
          select array_agg(id order by id) ids from users where company_id = ${company.id} and role_id in (1, 2, 4))
        select n, r.environment_id, r.branch_id, r.checklist_id, r.versao,
          i.ids[1 + (n * 7) % cardinality(i.ids)] inspector_id,
          least(${now}::timestamptz,
            ((${first}::date + ((n - 1) * ${DAYS} / ${count})::int)::timestamp + interval '7 hours'
              + random() * interval '11 hours') at time zone 'America/Fortaleza') created_at,
          0.02 + 0.08 * random() * random() fail_rate
        from generate_series(1, ${count}) g (n)
        join rooms r on r.k = g.n % r.rooms
        cross join inspectors i`);
      return Number(
        (
          await sql<{
            n: string;
          }>`select count(distinct environment_id) n from bench_inspection_draws`.execute(trx)
        ).rows[0].n,
      );
    });

    await step("answers drawn (every item of the version)", () =>
      run(sql`
        create temp table bench_inspection_answers on commit drop as
        select d.n, i.id item_id, i.peso,
          case when i.posicao > 1 and random() < 0.05 then 'nao_se_aplica'
               when random() < d.fail_rate then 'nao_conforme'
               else 'conforme' end resposta
        from bench_inspection_draws d
        join checklist_items i on i.checklist_id = d.checklist_id and i.versao = d.versao`),
    );

    await step("inspections (sums and score from the answers)", () =>
      // Tenths of a percent, half up, as inspectionScore: floor((2000·c + a) ÷ 2a) (integer division, all positive).
      run(sql`
        insert into inspections (id, company_id, branch_id, environment_id, checklist_id, versao, inspector_id,
          observacao, pontos_conforme, pontos_aplicaveis, nota, nota_minima, aprovada, created_at)
        select ${base} + d.n, ${company.id}, d.branch_id, d.environment_id, d.checklist_id, d.versao, d.inspector_id,
          case when s.tenths < round(${company.nota_minima_inspecao}::numeric * 10) then 'Itens fora do padrão' else '' end,
          s.c, s.a, s.tenths / 10.0, ${company.nota_minima_inspecao}::numeric,
          s.tenths >= round(${company.nota_minima_inspecao}::numeric * 10), d.created_at
        from bench_inspection_draws d
        join (select n, c, a, (2000 * c + a) / (2 * a) tenths
              from (select n, coalesce(sum(peso) filter (where resposta = 'conforme'), 0)::int c,
                      sum(peso) filter (where resposta <> 'nao_se_aplica')::int a
                    from bench_inspection_answers group by n) sums) s on s.n = d.n
        order by d.n`),
    );
    await run(sql`select setval(pg_get_serial_sequence('inspections', 'id'), (select max(id) from inspections))`);

    await step("inspection answers", () =>
      run(sql`
        insert into inspection_answers (inspection_id, item_id, resposta, observacao)
        select ${base} + n, item_id, resposta, case when resposta = 'nao_conforme' then 'Encontrado fora do padrão' else '' end
        from bench_inspection_answers`),
    );
    await setTriggers(trx, checks, "enable");

    const counts = (
      await sql<{ inspections: string; answers: string; approved: string; inspectors: string }>`
        select count(*) inspections, count(*) filter (where aprovada) approved, count(distinct inspector_id) inspectors,
          (select count(*) from inspection_answers where inspection_id > ${base}) answers
        from inspections where id > ${base}`.execute(trx)
    ).rows[0];
    const busiest = (
      await sql<{ branch_id: number; n: string }>`
        select branch_id, count(*) n from inspections where company_id = ${company.id}
        group by branch_id order by count(*) desc, branch_id limit 1`.execute(trx)
    ).rows[0];
    const totals = (
      await sql<{ company: string; month_total: string; year_total: string }>`
        select count(*) company,
          count(*) filter (where created_at >= ${dayStart(monthIni)} and created_at < ${dayEnd(today)}) month_total,
          count(*) filter (where created_at >= ${dayStart(yearIni)} and created_at < ${dayEnd(today)}) year_total
        from inspections where company_id = ${company.id}`.execute(trx)
    ).rows[0];
    return {
      companyId: company.id,
      rooms: drawn,
      inspectors: Number(counts.inspectors),
      inspections: Number(counts.inspections),
      answers: Number(counts.answers),
      approved: Number(counts.approved),
      branchId: busiest.branch_id,
      branchTotal: Number(busiest.n),
      companyTotal: Number(totals.company),
      monthTotal: Number(totals.month_total),
      yearTotal: Number(totals.year_total),
    };
  });
  // PGlite gathers no statistics on its own (DESIGN.md 'Data'): ANALYZE after bulk writes.
  await step("ANALYZE", () => sql`analyze`.execute(db));
  return { today, monthIni, yearIni, ...written, steps, ms: performance.now() - began };
}

// ---------------------------------------------------------------------------------------------------------------

type Page = { items?: { id?: number; em?: string; filial?: { id?: number } }[]; total?: number };
type Scores = { items?: { chave?: string; inspecoes?: number }[] };

type InspectionCase = {
  name: string;
  /** The request. */
  path: (data: InspectionData) => string;
  /** The web page: sent with the signed-in cookie instead of the API token; its body is HTML. */
  web?: boolean;
  /** What a right answer holds: a message when it does not; 'skip: …' when the route does not have it yet. */
  check: (body: unknown, data: InspectionData, text: string) => string | undefined;
};

const year = (data: InspectionData) => `dataIni=${data.yearIni}&dataFim=${data.today}`;

/** Exactly `size` items, newest first, with the expected total. */
const pageOf =
  (
    size: number,
    total: (data: InspectionData) => number,
    every?: (item: NonNullable<Page["items"]>[number], data: InspectionData) => boolean,
  ) =>
  (body: unknown, data: InspectionData): string | undefined => {
    const page = body as Page;
    if (!Array.isArray(page?.items)) return "no items";
    if (page.items.length !== size) return `${page.items.length} items, expected ${size}`;
    if (page.total !== total(data)) return `total ${String(page.total)}, expected ${total(data)}`;
    const times = page.items.map((item) => Date.parse(item.em ?? ""));
    if (times.some((time, index) => Number.isNaN(time) || (index > 0 && time > times[index - 1])))
      return "not newest first";
    if (every && !page.items.every((item) => every(item, data))) return "an item outside the filter";
    return undefined;
  };

/** Score groups whose inspections add up to the year's. */
const scoresOf =
  (least: number) =>
  (body: unknown, data: InspectionData): string | undefined => {
    const items = (body as Scores)?.items;
    if (!Array.isArray(items)) return "no items";
    if (items.length < least) return `${items.length} groups, expected at least ${least}`;
    const sum = items.reduce((total, item) => total + (item.inspecoes ?? 0), 0);
    return sum === data.yearTotal ? undefined : `the groups hold ${sum} inspections, expected ${data.yearTotal}`;
  };

/** The API token's cases, then the page. */
export const INSPECTION_CASES: InspectionCase[] = [
  {
    name: "list, page 1",
    path: () => `/api/inspecoes?page=1&size=20`,
    check: pageOf(20, (data) => data.companyTotal),
  },
  {
    name: `list, page ${fmt.int(DEEP_PAGE)} (offset ${fmt.int((DEEP_PAGE - 1) * 20)})`,
    path: () => `/api/inspecoes?page=${DEEP_PAGE}&size=20`,
    check: pageOf(20, (data) => data.companyTotal),
  },
  {
    name: "list, one branch, page 1",
    path: (data) => `/api/inspecoes?filialId=${data.branchId}&page=1&size=20`,
    check: pageOf(
      20,
      (data) => data.branchTotal,
      (item, data) => item.filial?.id === data.branchId,
    ),
  },
  {
    name: "list, 31 days, page 1",
    path: (data) => `/api/inspecoes?dataIni=${data.monthIni}&dataFim=${data.today}&page=1&size=20`,
    check: pageOf(20, (data) => data.monthTotal),
  },
  {
    name: "scores by week, 366 days",
    path: (data) => `/api/inspecoes/pontuacao?agrupar=semana&${year(data)}`,
    check: scoresOf(52),
  },
  {
    name: "scores by room, 366 days",
    path: (data) => `/api/inspecoes/pontuacao?agrupar=ambiente&${year(data)}`,
    check: (body, data) => scoresOf(data.rooms)(body, data),
  },
  {
    name: "audit dashboard (board 9 and the other enabled boards), the year",
    path: (data) => `/api/auditoria?dataIni=${isoDay(addDays(dayOf(data.today), -364))}&dataFim=${data.today}`,
    check: (body) => {
      const answer = body as { quadros?: number[]; graficos?: { board?: number; empty?: boolean }[] };
      const chart = answer?.graficos?.find((entry) => entry.board === 9);
      if (!chart)
        return (
          "skip: /api/auditoria has no board 9 chart yet " +
          `(enabled boards ${JSON.stringify(answer?.quadros)}); 'scores by week, 366 days' is the same weekly aggregate`
        );
      return chart.empty ? "board 9's chart is empty" : undefined;
    },
  },
  {
    name: "page /inspecoes (list + scores by room, 30 days)",
    web: true,
    path: () => `/inspecoes`,
    check: (_body, _data, text) =>
      (text.match(/href="\/inspecoes\/\d+"/g) ?? []).length >= 20 ? undefined : "not 20 inspection links",
  },
  {
    name: "page /inspecoes, the year, scores by week",
    web: true,
    path: (data) => `/inspecoes?de=${data.yearIni}&ate=${data.today}&agrupar=semana`,
    check: (_body, _data, text) =>
      (text.match(/href="\/inspecoes\/\d+"/g) ?? []).length >= 20 && text.includes("Semana de")
        ? undefined
        : "not 20 inspection links and weeks",
  },
];

type Measured = {
  db: string;
  name: string;
  path: string;
  status: number;
  rows?: number;
  bytes: number;
  aloneMs?: number;
  load?: LoadResult;
  skipped?: string;
};

export type InspectionsResult = {
  databases: { db: string; data: InspectionData; seedMs: number }[];
  cases: Measured[];
};

export async function measureInspections(
  settings: InspectionSettings,
  progress: (message: string) => void,
  problems: string[],
): Promise<InspectionsResult> {
  const result: InspectionsResult = { databases: [], cases: [] };
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const databases: { db: string; url?: string }[] = [{ db: "PGlite" }];
  if (adminUrl) databases.push({ db: "PostgreSQL", url: adminUrl });
  else progress("inspections: no BENCH_DATABASE_URL or DATABASE_URL, so PGlite only");

  for (const { db, url } of databases) {
    const dir = tempDir(`inspections-${db}`);
    const temporary = url ? await temporaryDatabase(url) : undefined;
    try {
      progress(`inspections ${db}: migrations and demo data without history`);
      const database = await openDatabase(temporary ? { databaseUrl: temporary.url } : { dataDir: dir.dir });
      let data: InspectionData;
      try {
        const seedBegan = performance.now();
        await migrate(database);
        await seedDemo(database, { history: false });
        const seedMs = performance.now() - seedBegan;
        progress(`inspections ${db}: ${fmt.int(settings.inspections)} inspections by SQL`);
        data = await writeInspections(database.db, settings.inspections);
        result.databases.push({ db, data, seedMs });
        progress(
          `inspections ${db}: ${fmt.int(data.inspections)} inspections, ${fmt.int(data.answers)} answers in ${fmt.ms(data.ms / 1000)} s`,
        );
      } finally {
        await database.close();
      }

      const server = await startServer({
        dataDir: dir.dir,
        databaseUrl: temporary?.url,
        demoData: false,
        label: `inspections-${db}`,
      });
      try {
        const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
        const cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
        for (const entry of INSPECTION_CASES) {
          const path = entry.path(data);
          const headers = {
            "accept-encoding": settings.acceptEncoding,
            ...(entry.web ? { cookie } : { authorization: `Bearer ${token}` }),
          };
          // Twice: the first waits out what the case before left queued on the server and warms up; the second is
          // the request alone.
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
          let body: unknown;
          if (!entry.web) {
            try {
              body = JSON.parse(text);
            } catch {
              body = undefined;
            }
            const items = (body as { items?: unknown[] } | undefined)?.items;
            measured.rows = Array.isArray(items) ? items.length : undefined;
          }
          const wrong =
            answer.status !== 200
              ? `status ${answer.status} (${text.slice(0, 200)})`
              : !entry.web && body === undefined
                ? "not JSON"
                : entry.check(body, data, text);
          if (wrong?.startsWith("skip: ")) {
            measured.skipped = wrong.slice(6);
            progress(`  ${db} ${entry.name}: ${measured.skipped}`);
            continue;
          }
          if (wrong) {
            measured.skipped = `wrong answer: ${wrong}`;
            problems.push(`inspections ${db} ${entry.name} (GET ${path}): ${wrong}`);
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
              `inspections ${db} ${entry.name}: ${measured.load.errors} errors, statuses ${JSON.stringify(Object.fromEntries(bad))}`,
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

export function inspectionsReport(result: InspectionsResult) {
  const lines: string[] = [];
  for (const { db, data, seedMs } of result.databases) {
    lines.push(
      `${db}: ${fmt.int(data.inspections)} inspections (${fmt.int(data.approved)} passed, ` +
        `${((100 * data.approved) / data.inspections).toFixed(1)} %) and ${fmt.int(data.answers)} answers over ` +
        `${data.rooms} rooms by ${data.inspectors} inspectors, ${DAYS} days to ${data.today}, written by SQL in ` +
        `${fmt.ms(data.ms / 1000)} s (${data.steps.map((step) => `${step.name} ${fmt.ms(step.ms / 1000)} s`).join("; ")}); ` +
        `demo data before it ${fmt.ms(seedMs / 1000)} s`,
      `  company total ${fmt.int(data.companyTotal)}; branch ${data.branchId} ${fmt.int(data.branchTotal)}; ` +
        `31 days (${data.monthIni}) ${fmt.int(data.monthTotal)}; 366 days (${data.yearIni}) ${fmt.int(data.yearTotal)}`,
    );
  }
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
      `PGlite p95 ≤ ${INSPECTION_P95_TARGET_MS} ms, ${entry.name}: ` +
        (requests
          ? `${fmt.ms(p95)} ms (${p95 <= INSPECTION_P95_TARGET_MS ? "met" : "MISSED"})`
          : "no answer completed within the measured seconds (MISSED)"),
    );
  }
  return lines.join("\n");
}
