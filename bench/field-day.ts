/**
 * The field app's 'Hoje' at scale (docs/field-app.md, `BENCH_ONLY=field npx tsx bench/run.ts`): on PGlite and, with
 * BENCH_DATABASE_URL or DATABASE_URL, on PostgreSQL (a perf_* database, dropped after), the demo data without history
 * and then, by set-based SQL in the demo company: `CLEANERS` (1,000) ASGs over its active branches, `ROOMS` (200) rooms
 * with most of their branch's procedures, and one agenda per cleaner, a main slot and seven revisions a day (06:00 to
 * 15:20, 80 minutes apart), over the `DAYS` (15) days around today: 8,000 slots a day, 120,000 bookings. Past slots are
 * done ('Completo', each with its room's procedures in history), today's by the clock (the one begun under way, with
 * its first procedure), 5 % of past ones never started. The built server is then started on it and one cleaner, signed
 * in through the field sign-in, asks GET /api/execution/today and GET /api/execution/environments/{id} under load.
 */
import { addDays } from "date-fns";
import { sql, type Kysely } from "kysely";

import { openDatabase } from "../api/db/connection.ts";
import { DEMO_COMPANY } from "../api/db/demo-simulator.ts";
import { migrate } from "../api/db/migrate.ts";
import type { DB } from "../api/db/schema.ts";
import { seedDemo } from "../api/db/seed.ts";
import { businessToday, dayOf, isoDay } from "../api/domain/schedule-expansion.ts";

import { foreignKeyChecks, setTriggers } from "./history-data.ts";
import { fmt, formatTable, probe, runLoad, startServer, tempDir, temporaryDatabase, type LoadResult } from "./lib.ts";

export const CLEANERS = 1_000;
const ROOMS = 200;
/** Days of bookings: a week before today to a week after. */
const DAYS = 15;
const SLOTS = 8;
const FIRST_SLOT_MIN = 6 * 60;
const SLOT_STEP_MIN = 80;
const SLOT_MIN = 30;
const PASSWORD = "campo1234";

export type FieldSettings = { connections: number; durationS: number; warmupS: number; acceptEncoding: string };

export type FieldData = {
  today: string;
  cleaners: number;
  slotsToday: number;
  bookings: number;
  history: number;
  /** The cleaner the load asks for, and one of their rooms. */
  email: string;
  roomId: number;
  ms: number;
};

/** Writes the cleaners, rooms, agendas, bookings and history (see the module's comment), then ANALYZE. */
export async function writeFieldData(db: Kysely<DB>, now = new Date()): Promise<FieldData> {
  const began = performance.now();
  const today = businessToday(now);
  const first = isoDay(addDays(dayOf(today), -Math.floor(DAYS / 2)));
  const last = isoDay(addDays(dayOf(today), Math.floor(DAYS / 2)));
  const written = await db.transaction().execute(async (trx) => {
    const run = (query: ReturnType<typeof sql>) => query.execute(trx);
    const company = await trx
      .selectFrom("companies")
      .select("id")
      .where("nome", "=", DEMO_COMPANY)
      .executeTakeFirstOrThrow();
    const branches = (
      await trx
        .selectFrom("branches")
        .select("id")
        .where("company_id", "=", company.id)
        .where("ativo", "=", true)
        .orderBy("id")
        .execute()
    ).map((row) => row.id);
    const before = await trx
      .selectFrom("environments")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirstOrThrow();
    const firstRoom = Number(before.id ?? 0) + 1;
    await run(sql`select setseed(0.4)`);
    const checks = await foreignKeyChecks(trx, ["bookings", "history"]);
    await setTriggers(trx, checks, "disable");
    await run(sql`
      insert into environments (company_id, branch_id, name, andar, category_id, sector_id)
      select ${company.id}, b.id, 'Sala de campo ' || lpad(n::text, 3, '0'), 'Térreo',
        (select min(c.id) from categories c where c.branch_id = b.id and c.deleted_at is null),
        (select min(s.id) from sectors s where s.branch_id = b.id and s.deleted_at is null)
      from generate_series(1, ${ROOMS}) n
      join branches b on b.id = (${branches}::int[])[1 + n % ${branches.length}]`);
    await run(sql`
      insert into environment_procedures (environment_id, procedure_id, mandatory)
      select e.id, p.id, p.rank % 3 <> 2
      from environments e
      join (select id, branch_id, row_number() over (partition by branch_id order by id) rank
            from procedures where deleted_at is null) p on p.branch_id = e.branch_id
      where e.id >= ${firstRoom} and (p.rank + e.id) % 8 <> 0`);
    // The cleaners sign in with the field sign-in: a password hash made once (the bench's own password).
    const { hashPassword } = await import("../api/auth/password.ts");
    await run(sql`
      insert into users (company_id, branch_id, nome, email, cpf, telefone, role_id, password_hash)
      select ${company.id}, (${branches}::int[])[1 + n % ${branches.length}], 'Colaborador de campo ' || n,
        'campo' || n || '@bench.demo.com.br', '8' || lpad(n::text, 10, '0'), '8598' || lpad(n::text, 7, '0'), 5,
        ${await hashPassword(PASSWORD)}
      from generate_series(1, ${CLEANERS}) n`);
    await run(sql`
      insert into periodicities (branch_id, nome, type, dias_semana, hora_base_inicial, hora_base_final)
      select u.branch_id, 'campo ' || u.id, 'sem', 'Domingo - Segunda - Terça - Quarta - Quinta - Sexta - Sábado',
        make_time(0, 0, 0) + ${FIRST_SLOT_MIN} * interval '1 minute',
        make_time(0, 0, 0) + ${FIRST_SLOT_MIN + SLOT_MIN} * interval '1 minute'
      from users u where u.email like 'campo%@bench.demo.com.br'`);
    await run(sql`
      insert into revisions (periodicity_id, branch_id, hora_inicial, hora_final)
      select p.id, p.branch_id, p.hora_base_inicial + k * ${SLOT_STEP_MIN} * interval '1 minute',
        p.hora_base_inicial + (k * ${SLOT_STEP_MIN} + ${SLOT_MIN}) * interval '1 minute'
      from periodicities p cross join generate_series(1, ${SLOTS - 1}) k
      where p.nome like 'campo %'`);
    // Each cleaner's agenda in a room of their branch (the k-th cleaner of a branch in its (k mod n)-th new room).
    await run(sql`
      insert into agendas (company_id, branch_id, environment_id, periodicity_id, user_id, vig_ini, vig_fim)
      select ${company.id}, p.branch_id, r.id, p.id, split_part(p.nome, ' ', 2)::int, ${first}::date, ${last}::date
      from (select p.*, row_number() over (partition by p.branch_id order by p.id) - 1 k
            from periodicities p where p.nome like 'campo %') p
      join (select e.id, e.branch_id, row_number() over (partition by e.branch_id order by e.id) - 1 k,
              count(*) over (partition by e.branch_id) n
            from environments e where e.id >= ${firstRoom}) r
        on r.branch_id = p.branch_id and r.k = p.k % r.n`);
    // Times are business times: Fortaleza is UTC-3 all year, so the instant is the day and time plus 3 hours in UTC.
    await run(sql`
      insert into bookings (agenda_id, company_id, branch_id, environment_id, user_id, data_agend, slot, hora_ini,
        hora_fim, status, start_date, finished_at)
      select agenda_id, company_id, branch_id, environment_id, user_id, dia, slot, hora_ini, hora_fim,
        case when started > ${now}::timestamptz or (fate < 0.05 and dia < ${today}::date) then null
             when ended > ${now}::timestamptz then 'Andamento' else 'Completo' end,
        case when started > ${now}::timestamptz or (fate < 0.05 and dia < ${today}::date) then null else started end,
        case when started > ${now}::timestamptz or (fate < 0.05 and dia < ${today}::date) or ended > ${now}::timestamptz
             then null else ended end
      from (
        select *, (((dia + hora_ini)::timestamp + interval '3 hours') at time zone 'UTC') started,
          (((dia + hora_fim)::timestamp + interval '3 hours') at time zone 'UTC') ended
        from (
          select a.id agenda_id, a.company_id, a.branch_id, a.environment_id, a.user_id, d::date dia, s.slot,
            s.hora_ini, s.hora_fim, random() fate
          from agendas a
          join periodicities p on p.id = a.periodicity_id
          cross join generate_series(a.vig_ini, a.vig_fim, interval '1 day') d
          cross join lateral (
            select 0 slot, p.hora_base_inicial hora_ini, p.hora_base_final hora_fim
            union all
            select row_number() over (order by r.hora_inicial, r.id), r.hora_inicial, r.hora_final
            from revisions r where r.periodicity_id = p.id) s
          where p.nome like 'campo %'
        ) drawn
      ) timed`);
    await run(sql`
      insert into history (booking_id, procedure_id, user_id, created_at, updated_at)
      select b.id, ep.procedure_id, b.user_id, t.done_at, t.done_at
      from bookings b
      join (select environment_id, procedure_id,
              row_number() over (partition by environment_id order by mandatory desc, procedure_id) rank,
              count(*) over (partition by environment_id) n
            from environment_procedures) ep on ep.environment_id = b.environment_id
      cross join lateral (select least(${now}::timestamptz, b.start_date + interval '25 minutes' * ep.rank / (ep.n + 1))
        done_at) t
      where b.environment_id >= ${firstRoom} and b.status is not null
        and ep.rank <= case b.status when 'Completo' then ep.n else 1 end`);
    await setTriggers(trx, checks, "enable");
    const count = async (query: ReturnType<typeof sql<{ n: string }>>) => Number((await query.execute(trx)).rows[0].n);
    const cleaner = (
      await sql<{ email: string; environment_id: number }>`
        select u.email, a.environment_id from users u join agendas a on a.user_id = u.id
        where u.email like 'campo%@bench.demo.com.br' order by u.id limit 1`.execute(trx)
    ).rows[0];
    return {
      slotsToday: await count(sql`select count(*) n from bookings where data_agend = ${today}::date`),
      bookings: await count(sql`select count(*) n from bookings`),
      history: await count(sql`select count(*) n from history`),
      email: cleaner.email,
      roomId: cleaner.environment_id,
    };
  });
  await sql`analyze`.execute(db);
  return { today, cleaners: CLEANERS, ...written, ms: performance.now() - began };
}

type FieldCase = { name: string; path: (data: FieldData) => string; check: (body: unknown) => string | undefined };

const FIELD_CASES: FieldCase[] = [
  {
    name: "GET /api/execution/today ('Hoje')",
    path: () => "/api/execution/today",
    check: (body) => {
      const day = body as { today?: unknown[]; yesterday?: unknown[]; tomorrow?: unknown[] };
      return day?.today?.length === SLOTS && day.tomorrow?.length === SLOTS
        ? undefined
        : "not 8 slots today and tomorrow";
    },
  },
  {
    name: "GET /api/execution/environments/{id} (the room)",
    path: (data) => `/api/execution/environments/${data.roomId}?qr=0000000000000000`,
    check: (body) => {
      const room = body as { slots?: unknown[]; qr?: string };
      return room?.slots?.length === SLOTS && room.qr === "invalido" ? undefined : "not the cleaner's 8 slots";
    },
  },
];

type Measured = { db: string; name: string; path: string; bytes: number; aloneMs: number; load?: LoadResult };
export type FieldResult = { databases: { db: string; data: FieldData; seedMs: number }[]; cases: Measured[] };

export async function measureFieldDay(
  settings: FieldSettings,
  progress: (message: string) => void,
  problems: string[],
): Promise<FieldResult> {
  const result: FieldResult = { databases: [], cases: [] };
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const databases: { db: string; url?: string }[] = [{ db: "PGlite" }];
  if (adminUrl) databases.push({ db: "PostgreSQL", url: adminUrl });
  else progress("field: no BENCH_DATABASE_URL or DATABASE_URL, so PGlite only");

  for (const { db, url } of databases) {
    const dir = tempDir(`field-${db}`);
    const temporary = url ? await temporaryDatabase(url) : undefined;
    try {
      progress(`field ${db}: migrations, demo data without history, ${fmt.int(CLEANERS)} cleaners' days by SQL`);
      const database = await openDatabase(temporary ? { databaseUrl: temporary.url } : { dataDir: dir.dir });
      let data: FieldData;
      try {
        const seedBegan = performance.now();
        await migrate(database);
        await seedDemo(database, { history: false });
        const seedMs = performance.now() - seedBegan;
        data = await writeFieldData(database.db);
        result.databases.push({ db, data, seedMs });
      } finally {
        await database.close();
      }
      const server = await startServer({
        dataDir: dir.dir,
        databaseUrl: temporary?.url,
        demoData: false,
        label: `field-${db}`,
      });
      try {
        const signIn = await probe(server.url, {
          method: "POST",
          path: "/api/sessions/campo",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: data.email, password: PASSWORD }),
        });
        const token = (JSON.parse(signIn.body.toString("utf8")) as { token?: string }).token;
        if (signIn.status !== 200 || !token) {
          problems.push(`field ${db}: the field sign-in answered ${signIn.status}`);
          continue;
        }
        const headers = { "accept-encoding": settings.acceptEncoding, authorization: `Bearer ${token}` };
        for (const entry of FIELD_CASES) {
          const path = entry.path(data);
          await probe(server.url, { path, headers }, 60_000);
          const at = performance.now();
          const answer = await probe(server.url, { path, headers }, 60_000);
          const measured: Measured = {
            db,
            name: entry.name,
            path,
            bytes: answer.body.length,
            aloneMs: performance.now() - at,
          };
          result.cases.push(measured);
          let body: unknown;
          try {
            body = JSON.parse(answer.body.toString("utf8"));
          } catch {
            body = undefined;
          }
          const wrong = answer.status !== 200 ? `status ${answer.status}` : entry.check(body);
          if (wrong) {
            problems.push(`field ${db} ${entry.name}: ${wrong}`);
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
          if (measured.load.errors || measured.load.non2xx)
            problems.push(`field ${db} ${entry.name}: ${measured.load.errors} errors, ${measured.load.non2xx} non-2xx`);
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

export function fieldDayReport(result: FieldResult) {
  const lines = result.databases.map(
    ({ db, data, seedMs }) =>
      `${db}: ${fmt.int(data.cleaners)} cleaners, ${fmt.int(data.slotsToday)} slots today (${data.today}), ` +
      `${fmt.int(data.bookings)} bookings over ${DAYS} days, ${fmt.int(data.history)} history rows, written by SQL in ` +
      `${fmt.ms(data.ms / 1000)} s (demo data before it ${fmt.ms(seedMs / 1000)} s); the load signs in as ${data.email}`,
  );
  lines.push(
    formatTable(
      ["db", "case", ">body decoded", ">alone ms", ">req/s", ">p50 ms", ">p95 ms", ">p99 ms", ">server CPU ms/req"],
      result.cases
        .filter((entry) => entry.load)
        .map(({ db, name, bytes, aloneMs, load }) => [
          db,
          name,
          fmt.bytes(bytes),
          fmt.ms(aloneMs),
          fmt.ms(load!.rps),
          fmt.ms(load!.p50),
          fmt.ms(load!.p95),
          fmt.ms(load!.p99),
          fmt.ms(load!.cpuMsPerRequest),
        ]),
    ),
  );
  return lines.join("\n");
}
