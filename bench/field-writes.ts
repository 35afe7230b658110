/**
 * The field app's writes with an Idempotency-Key (docs/field-app.md 'Idempotency'; `BENCH_ONLY=field-writes npx tsx
 * bench/run.ts`): what the key costs on a first send, and what a replay (a phone resending what it never saw answered)
 * costs, at `connections` connections. On PGlite and, with BENCH_DATABASE_URL or DATABASE_URL, on PostgreSQL.
 *
 * Data, by SQL over the demo data without history: `CLEANERS` (30) ASGs of Filial Aldeota in one room with procedures,
 * each with `SLOTS` slots of today (08:00-09:00, in one-day agendas of 20 slots each), a part of them already started. Thirty cleaners because one user may make at most 1,000 new keys a day (KEYS_PER_USER_DAY): each
 * cleaner makes under 1,000 here. Each first send goes to a slot of its own (a start to a slot 'A fazer', a procedure
 * to a started slot), the cleaners taking turns; the replays cycle over keys answered before the run.
 *
 * Cases: POST …/start without a key (the call as before), with a new key (first send), with an answered key (replay);
 * POST …/procedures with a 1,600 × 1,200 JPEG (the size the phone shrinks a photo to) with a new key and replayed.
 */
import { randomUUID } from "node:crypto";

import autocannon from "autocannon";
import { sql, type Kysely } from "kysely";
import sharp from "sharp";

import { hashPassword } from "../api/auth/password.ts";
import { openDatabase } from "../api/db/connection.ts";
import { DEMO_COMPANY } from "../api/db/demo-simulator.ts";
import { migrate } from "../api/db/migrate.ts";
import type { DB } from "../api/db/schema.ts";
import { seedDemo } from "../api/db/seed.ts";
import { businessToday } from "../api/domain/schedule-expansion.ts";
import { KEYS_PER_USER_DAY } from "../api/services/idempotency.ts";

import { fmt, formatTable, probe, processCpuMs, startServer, tempDir, temporaryDatabase } from "./lib.ts";

const CLEANERS = 30;
/** Per cleaner: slots for starts (no key, first sends, replays), then started slots (first sends, replays). */
const PER_CASE = 450;
const REPLAYS = 10;
const SLOTS = 2 * PER_CASE + REPLAYS + PER_CASE + REPLAYS;
const STARTED_FROM = 2 * PER_CASE + REPLAYS;
/** A booking's slot number is 0-19 (migration 007): each cleaner has several one-day agendas of 20 slots. */
const SLOTS_PER_AGENDA = 20;
const AGENDAS = Math.ceil(SLOTS / SLOTS_PER_AGENDA);
const PASSWORD = "escrita1234";

export type FieldWritesSettings = { connections: number; durationS: number; warmupS: number };

/** `bookings[i]`: the cleaner's i-th slot of today. */
type Cleaner = { id: number; email: string; token: string; bookings: number[] };
type Sent = { path: string; headers: Record<string, string>; body?: Buffer };

type Measured = {
  db: string;
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  statuses: Record<string, number>;
  cpuMsPerRequest?: number;
};
export type FieldWritesResult = { cases: Measured[]; photoBytes: number; setup: string[] };

/** The cleaners, their agendas and slots of today (consecutive ids per cleaner), some started; then ANALYZE. */
async function writeData(db: Kysely<DB>, now: Date) {
  const today = businessToday(now);
  const company = await db
    .selectFrom("companies")
    .select("id")
    .where("nome", "=", DEMO_COMPANY)
    .executeTakeFirstOrThrow();
  const branch = await db
    .selectFrom("branches")
    .select("id")
    .where("nome", "=", "Filial Aldeota")
    .executeTakeFirstOrThrow();
  const room = await db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .select("e.id")
    .where("e.branch_id", "=", branch.id)
    .where("e.deleted_at", "is", null)
    .groupBy("e.id")
    .having((eb) => eb.fn.countAll(), ">=", 2)
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  const procedure = await db
    .selectFrom("environment_procedures")
    .select("procedure_id")
    .where("environment_id", "=", room.id)
    .orderBy("procedure_id")
    .executeTakeFirstOrThrow();
  const passwordHash = await hashPassword(PASSWORD);
  await db.transaction().execute(async (trx) => {
    const run = (query: ReturnType<typeof sql>) => query.execute(trx);
    await run(sql`
      insert into users (company_id, branch_id, nome, email, cpf, telefone, role_id, password_hash)
      select ${company.id}, ${branch.id}, 'Colaborador escrita ' || n, 'escrita' || n || '@bench.demo.com.br',
        '7' || lpad(n::text, 10, '0'), '8597' || lpad(n::text, 7, '0'), 5, ${passwordHash}
      from generate_series(1, ${CLEANERS}) n`);
    await run(sql`
      insert into periodicities (branch_id, nome, type, hora_base_inicial, hora_base_final)
      select ${branch.id}, 'escrita ' || u.id, '12X', '08:00', '09:00'
      from users u where u.email like 'escrita%@bench.demo.com.br'`);
    await run(sql`
      insert into agendas (company_id, branch_id, environment_id, periodicity_id, user_id, vig_ini, vig_fim)
      select ${company.id}, ${branch.id}, ${room.id}, p.id, split_part(p.nome, ' ', 2)::int, ${today}::date,
        ${today}::date
      from periodicities p cross join generate_series(1, ${AGENDAS}) k where p.nome like 'escrita %'`);
    await run(sql`
      insert into bookings (agenda_id, company_id, branch_id, environment_id, user_id, data_agend, slot, hora_ini,
        hora_fim, status, start_date)
      select agenda_id, company_id, branch_id, environment_id, user_id, ${today}::date, s, '08:00', '09:00',
        case when i >= ${STARTED_FROM} then 'Andamento' end, case when i >= ${STARTED_FROM} then ${now}::timestamptz end
      from (
        select a.id agenda_id, a.company_id, a.branch_id, a.environment_id, a.user_id, s,
          row_number() over (partition by a.user_id order by a.id, s) - 1 i
        from agendas a join periodicities p on p.id = a.periodicity_id
        cross join generate_series(0, ${SLOTS_PER_AGENDA - 1}) s
        where p.nome like 'escrita %'
      ) ranked
      order by user_id, agenda_id, s`);
  });
  await sql`analyze`.execute(db);
  const rows = await db
    .selectFrom("users as u")
    .innerJoin("bookings as b", "b.user_id", "u.id")
    .select(["u.id", "u.email", "b.id as bookingId"])
    .where("u.email", "like", "escrita%@bench.demo.com.br")
    .orderBy("u.id")
    .orderBy("b.agenda_id")
    .orderBy("b.slot")
    .execute();
  const cleaners = new Map<number, { id: number; email: string; bookings: number[] }>();
  for (const row of rows) {
    const cleaner = cleaners.get(row.id) ?? { id: row.id, email: row.email, bookings: [] };
    cleaner.bookings.push(row.bookingId);
    cleaners.set(row.id, cleaner);
  }
  return { cleaners: [...cleaners.values()], procedureId: procedure.procedure_id, today };
}

/** A phone photo as the field app sends it: shrunk to 1,600 × 1,200, JPEG 80 %. */
async function phonePhoto() {
  const width = 1600;
  const height = 1200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 7 + y) & 0xff;
      pixels[at + 1] = (x ^ y) & 0xff;
      pixels[at + 2] = ((x * y) >> 6) & 0xff;
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** The procedure's multipart body (one for every send: only the path and the key differ). */
async function procedureBody(procedureId: number, photo: Buffer) {
  const form = new FormData();
  form.set("procedureId", String(procedureId));
  form.set("photo", new File([new Uint8Array(photo)], "foto.jpg", { type: "image/jpeg" }));
  const request = new Request("http://bench.local/", { method: "POST", body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get("content-type")! };
}

/**
 * Load from a list of requests, each sent once in order (`next` answers the next one), over `connections`
 * connections for warmup + duration; the latencies of the measured part only.
 */
async function load(
  url: string,
  settings: FieldWritesSettings,
  serverPid: number | undefined,
  next: () => Sent,
): Promise<Omit<Measured, "db" | "name">> {
  const run = (duration: number, onResponse?: (ms: number) => void) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: settings.connections,
          duration,
          timeout: 30,
          requests: [
            {
              method: "POST",
              setupRequest: (request) => {
                const sent = next();
                return { ...request, path: sent.path, headers: sent.headers, body: sent.body };
              },
            },
          ],
        },
        (error, done) => (error ? reject(error as Error) : resolve(done)),
      );
      if (onResponse) instance.on("response", (_client, _status, _bytes, ms) => onResponse(ms));
    });
  if (settings.warmupS > 0) await run(settings.warmupS);
  const times: number[] = [];
  const cpuBefore = processCpuMs(serverPid);
  const result = await run(settings.durationS, (ms) => times.push(ms));
  const cpuAfter = processCpuMs(serverPid);
  const sorted = Float64Array.from(times).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const statuses: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count?.count ?? 0;
  return {
    requests: times.length,
    rps: times.length / settings.durationS,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    statuses,
    cpuMsPerRequest:
      cpuBefore !== undefined && cpuAfter !== undefined && times.length
        ? (cpuAfter - cpuBefore) / times.length
        : undefined,
  };
}

export async function measureFieldWrites(
  settings: FieldWritesSettings,
  progress: (message: string) => void,
  problems: string[],
): Promise<FieldWritesResult> {
  const result: FieldWritesResult = { cases: [], photoBytes: 0, setup: [] };
  const photo = await phonePhoto();
  result.photoBytes = photo.length;
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const databases: { db: string; url?: string }[] = [{ db: "PGlite" }];
  if (adminUrl) databases.push({ db: "PostgreSQL", url: adminUrl });
  else progress("field-writes: no BENCH_DATABASE_URL or DATABASE_URL, so PGlite only");

  for (const { db, url } of databases) {
    const dir = tempDir(`field-writes-${db}`);
    const temporary = url ? await temporaryDatabase(url) : undefined;
    try {
      progress(`field-writes ${db}: demo data without history, ${CLEANERS} cleaners × ${fmt.int(SLOTS)} slots by SQL`);
      const began = performance.now();
      const database = await openDatabase(temporary ? { databaseUrl: temporary.url } : { dataDir: dir.dir });
      let data: Awaited<ReturnType<typeof writeData>>;
      try {
        await migrate(database);
        await seedDemo(database, { history: false });
        data = await writeData(database.db, new Date());
      } finally {
        await database.close();
      }
      result.setup.push(
        `${db}: ${CLEANERS} cleaners, ${fmt.int(CLEANERS * SLOTS)} slots of ${data.today} written in ` +
          `${fmt.ms((performance.now() - began) / 1000)} s`,
      );
      const server = await startServer({
        dataDir: dir.dir,
        databaseUrl: temporary?.url,
        demoData: false,
        label: `field-writes-${db}`,
      });
      try {
        const cleaners: Cleaner[] = [];
        for (const row of data.cleaners) {
          const signIn = await probe(server.url, {
            method: "POST",
            path: "/api/sessions/campo",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: row.email, password: PASSWORD }),
          });
          const token = (JSON.parse(signIn.body.toString("utf8")) as { token?: string }).token;
          if (signIn.status !== 200 || !token) throw new Error(`the field sign-in answered ${signIn.status}`);
          cleaners.push({ ...row, token });
        }
        const json = (cleaner: Cleaner, key?: string) => ({
          authorization: `Bearer ${cleaner.token}`,
          "content-type": "application/json",
          ...(key ? { "idempotency-key": key } : {}),
        });
        const multipart = await procedureBody(data.procedureId, photo);
        const form = (cleaner: Cleaner, key: string) => ({
          authorization: `Bearer ${cleaner.token}`,
          "content-type": multipart.type,
          "idempotency-key": key,
        });
        const start = (cleaner: Cleaner, slot: number, key?: string): Sent => ({
          path: `/api/execution/bookings/${cleaner.bookings[slot]}/start`,
          headers: json(cleaner, key),
          body: Buffer.from("{}"),
        });
        const record = (cleaner: Cleaner, slot: number, key: string): Sent => ({
          path: `/api/execution/bookings/${cleaner.bookings[slot]}/procedures`,
          headers: form(cleaner, key),
          body: multipart.body,
        });
        /** The cleaners take turns; each one's slots of a case in order, from `offset`. */
        const turns = (make: (cleaner: Cleaner, slot: number) => Sent, offset: number) => {
          let sent = 0;
          return () => {
            const n = sent++;
            const slot = Math.floor(n / CLEANERS);
            if (slot >= PER_CASE) throw new Error("field-writes: more requests than slots; raise PER_CASE");
            return make(cleaners[n % CLEANERS], offset + slot);
          };
        };
        /** Keys answered before the run (one send each, in turn), for the replays to cycle over. */
        const answered = async (make: (cleaner: Cleaner, slot: number, key: string) => Sent, offset: number) => {
          const sends: Sent[] = [];
          for (let slot = 0; slot < REPLAYS; slot++)
            for (const cleaner of cleaners) {
              const sent = make(cleaner, offset + slot, randomUUID());
              const answer = await probe(server.url, { method: "POST", ...sent });
              if (answer.status >= 300) throw new Error(`a first send answered ${answer.status}`);
              sends.push(sent);
            }
          const again = await probe(server.url, { method: "POST", ...sends[0] });
          if (again.headers["idempotent-replayed"] !== "true")
            problems.push(`field-writes ${db}: a resend not replayed`);
          let n = 0;
          return () => sends[n++ % sends.length];
        };
        const cases: { name: string; next: () => Sent }[] = [
          { name: "POST …/start, no key", next: turns((cleaner, slot) => start(cleaner, slot), 0) },
          {
            name: "POST …/start, new key (first send)",
            next: turns((cleaner, slot) => start(cleaner, slot, randomUUID()), PER_CASE),
          },
          { name: "POST …/start, answered key (replay)", next: await answered(start, 2 * PER_CASE) },
          {
            name: "POST …/procedures + photo, new key (first send)",
            next: turns((cleaner, slot) => record(cleaner, slot, randomUUID()), STARTED_FROM),
          },
          {
            name: "POST …/procedures + photo, answered key (replay)",
            next: await answered(record, STARTED_FROM + PER_CASE),
          },
        ];
        for (const entry of cases) {
          progress(`field-writes ${db}: ${entry.name}`);
          const measured = await load(server.url, settings, server.child.pid, entry.next);
          result.cases.push({ db, name: entry.name, ...measured });
          const refused = Object.entries(measured.statuses).filter(([code]) => Number(code) >= 300);
          if (refused.length)
            problems.push(
              `field-writes ${db}: ${entry.name} answered ${refused.map(([c, n]) => `${c}×${n}`).join(", ")}`,
            );
        }
      } finally {
        await server.stop();
      }
    } catch (error) {
      problems.push(`field-writes ${db}: ${(error as Error).message}`);
    } finally {
      await temporary?.drop();
      dir.remove();
    }
  }
  if (KEYS_PER_USER_DAY < PER_CASE * 2 + REPLAYS * 2) problems.push("field-writes: more keys per cleaner than the cap");
  return result;
}

export function fieldWritesReport(result: FieldWritesResult) {
  return [
    ...result.setup,
    `photo: ${fmt.int(result.photoBytes / 1024)} KB JPEG 1,600 × 1,200; each first send to a slot of its own`,
    formatTable(
      ["db", "case", ">requests", ">req/s", ">p50 ms", ">p95 ms", ">p99 ms", ">server CPU ms/req", "statuses"],
      result.cases.map((entry) => [
        entry.db,
        entry.name,
        fmt.int(entry.requests),
        fmt.ms(entry.rps),
        fmt.ms(entry.p50),
        fmt.ms(entry.p95),
        fmt.ms(entry.p99),
        fmt.ms(entry.cpuMsPerRequest),
        Object.entries(entry.statuses)
          .map(([code, count]) => `${code}×${count}`)
          .join(" "),
      ]),
    ),
  ].join("\n");
}
