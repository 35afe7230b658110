/**
 * What the bookings roll-up (booking_days, migrations 021 and 022; docs/operations.md 'The bookings roll-up') costs
 * the writes that keep it: `npx tsx bench/rollup-writes.ts`. Before and after in one process, on one database: its
 * four triggers on bookings are switched off (as before 021), and the slot's tasks the history's triggers work out
 * (022) replaced by a null, then both on again, in alternating rounds, so the machine's load falls on both sides alike.
 *
 * Data: the demo data without history, then the report benches' year (bench/history-data.ts: 182,500 bookings, ~1M
 * history rows; the roll-up's size for it is printed), then today's slots for asg@demo.com.br by SQL, 20 to a
 * one-day agenda. Cases, through the services in this process (no HTTP: the triggers' share of a call is the
 * largest it can look): a slot started, a procedure recorded in it (a history row, whose 014 trigger updates the
 * booking), the slot finished; and an agenda of a year with 20 cleanings a day saved (bench/scheduling.ts
 * `yearAgenda`, 7,300 bookings written in steps).
 */
import { sql } from "kysely";

import type { Scope } from "../api/auth/scope.ts";
import { openDatabase } from "../api/db/connection.ts";
import { migrate } from "../api/db/migrate.ts";
import { seedDemo } from "../api/db/seed.ts";
import { businessToday } from "../api/domain/schedule-expansion.ts";
import { SaveAgendaItem } from "../api/domain/schedule-payloads.ts";
import { finishSlot, recordProcedure, startSlot } from "../api/services/execution.ts";
import { rebuildRollup, rollupDifferences } from "../api/services/rollups.ts";
import { createAgendas } from "../api/services/scheduling.ts";
import { createDiskStorage } from "../api/services/storage.ts";

import { writeHistory } from "./history-data.ts";
import { fmt, formatTable, median, tempDir } from "./lib.ts";
import { yearAgenda } from "./scheduling.ts";

/** Short rounds, many of them: the machine's load drifts, and each side gets its share of every moment. */
const ROUNDS = Number(process.env.ROLLUP_BENCH_ROUNDS ?? 12);
/** Slots started, recorded in and finished per round, the first WARM_UP of each case not counted (after ALTER TABLE the plans are made again). */
const SLOTS_PER_ROUND = Number(process.env.ROLLUP_BENCH_SLOTS ?? 60);
const WARM_UP = 5;
/** Year saves on each side. */
const SAVES = Number(process.env.ROLLUP_BENCH_SAVES ?? 12);
const TRIGGERS = ["booking_days_ins", "booking_days_del", "booking_days_upd", "booking_days_truncate"];

const database = await openDatabase({ memory: true });
const db = database.db;
const log = (line: string) => console.log(line);
try {
  await migrate(database);
  await seedDemo(database, { history: false });
  log("the bench year (bench/history-data.ts) …");
  const year = await writeHistory(db);
  for (const step of year.steps) log(`  ${step.name}: ${fmt.int(step.ms)} ms`);
  const count = async (table: "bookings" | "booking_days") =>
    Number((await sql<{ n: string }>`select count(*) n from ${sql.table(table)}`.execute(db)).rows[0].n);
  const sizes = { bookings: await count("bookings"), bookingDays: await count("booking_days") };
  // The year was written by bulk SQL (an insert of 182,500 bookings, one update of their counts): the roll-up followed.
  log(`roll-up against the rows after the year: ${(await rollupDifferences(db)).length} difference(s)`);
  log(
    `bookings ${fmt.int(sizes.bookings)}, booking_days ${fmt.int(sizes.bookingDays)} ` +
      `(${fmt.ratio(sizes.bookings / sizes.bookingDays)} bookings a row)`,
  );

  const today = businessToday();
  const asg = await db
    .selectFrom("users")
    .select(["id", "company_id", "branch_id"])
    .where("email", "=", "asg@demo.com.br")
    .executeTakeFirstOrThrow();
  const room = await db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .select(["e.id", (eb) => eb.fn.min("ep.procedure_id").as("procedure_id")])
    .where("e.branch_id", "=", asg.branch_id!)
    .where("e.deleted_at", "is", null)
    .groupBy("e.id")
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  const slotsNeeded = ROUNDS * SLOTS_PER_ROUND;
  const agendas = Math.ceil(slotsNeeded / 20);
  await sql`
    with p as (
      insert into periodicities (branch_id, nome, type, hora_base_inicial, hora_base_final)
      select ${asg.branch_id}, 'rollup bench ' || n, '12X', '08:00', '09:00' from generate_series(1, ${agendas}) n
      returning id),
    a as (
      insert into agendas (company_id, branch_id, environment_id, periodicity_id, user_id, vig_ini, vig_fim)
      select ${asg.company_id}, ${asg.branch_id}, ${room.id}, p.id, ${asg.id}, ${today}::date, ${today}::date from p
      returning id)
    insert into bookings (agenda_id, company_id, branch_id, user_id, environment_id, data_agend, slot, hora_ini, hora_fim)
    select a.id, ${asg.company_id}, ${asg.branch_id}, ${asg.id}, ${room.id}, ${today}::date, s, '08:00', '09:00'
    from a cross join generate_series(0, 19) s`.execute(db);
  const slots = (
    await db
      .selectFrom("bookings")
      .select("id")
      .where("user_id", "=", asg.id)
      .where("data_agend", "=", today)
      .where("status", "is", null)
      .orderBy("id")
      .limit(slotsNeeded)
      .execute()
  ).map((row) => row.id);
  const saveRooms = (
    await db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", asg.branch_id!)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute()
  ).map((row) => row.id);
  await sql`analyze`.execute(db);

  const executor = { userId: asg.id, companyId: asg.company_id };
  const storage = createDiskStorage(tempDir("rollup-writes").dir);
  const scope: Scope = { level: "company", companyId: asg.company_id };
  type Mode = "without" | "with";
  // This process's CPU per call (PGlite runs in it): less moved by other processes' load than the wall time.
  const times: Record<Mode, Record<string, { wall: number[]; cpu: number[] }>> = { without: {}, with: {} };
  const timed = async (mode: Mode, name: string, work: () => Promise<unknown>, counted = true) => {
    const began = performance.now();
    const cpu = process.cpuUsage();
    await work();
    const used = process.cpuUsage(cpu);
    if (!counted) return;
    const entry = (times[mode][name] ??= { wall: [], cpu: [] });
    entry.wall.push(performance.now() - began);
    entry.cpu.push((used.user + used.system) / 1000);
  };
  // Without: also no slot's tasks worked out by the history's triggers (migration 022): a stand-in that answers null.
  const { rows: taskRule } = await sql<{ definition: string }>`
    select pg_get_functiondef('tarefas_situacao_of'::regproc) definition`.execute(db);
  const noTaskRule = `create or replace function tarefas_situacao_of(booking integer, environment integer)
    returns text language sql stable as $$ select null::text $$`;
  const switchTriggers = async (mode: Mode) => {
    for (const trigger of TRIGGERS)
      await sql`alter table bookings ${sql.raw(mode === "with" ? "enable" : "disable")} trigger ${sql.id(trigger)}`.execute(
        db,
      );
    await sql.raw(mode === "with" ? taskRule[0].definition : noTaskRule).execute(db);
  };
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const mode: Mode = round % 2 ? "with" : "without";
    await switchTriggers(mode);
    const batch = slots.slice(next, next + SLOTS_PER_ROUND);
    next += SLOTS_PER_ROUND;
    for (const [i, id] of batch.entries())
      await timed(mode, "start", () => startSlot(db, executor, id, new Date()), i >= WARM_UP);
    for (const [i, id] of batch.entries())
      await timed(
        mode,
        "record",
        () => recordProcedure({ db, storage }, executor, id, { procedureId: room.procedure_id as number }, new Date()),
        i >= WARM_UP,
      );
    for (const [i, id] of batch.entries())
      await timed(mode, "finish", () => finishSlot(db, executor, id, new Date()), i >= WARM_UP);
    log(`round ${round + 1}/${ROUNDS} (${mode} the triggers) done`);
  }
  // A save is ~1 s: the triggers switched at each one, so drift and the table's growth fall on both sides alike.
  for (let save = 0; save < 2 * SAVES; save++) {
    const mode: Mode = save % 2 ? "with" : "without";
    await switchTriggers(mode);
    const environment = saveRooms[save % saveRooms.length];
    const payload = SaveAgendaItem.parse(yearAgenda(asg.branch_id!, environment, asg.id, today));
    await timed(mode, "save a year (7,300 bookings)", () => createAgendas(db, scope, [payload]));
  }

  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  log("");
  log(
    formatTable(
      [
        "case",
        ">n",
        ">CPU ms without: median",
        ">mean",
        ">with: median",
        ">mean",
        ">with / without (median)",
        ">wall ms without: median",
        ">with: median",
      ],
      Object.keys(times.with).map((name) => {
        const [before, after] = [times.without[name], times.with[name]];
        return [
          name,
          `${before.cpu.length} + ${after.cpu.length}`,
          fmt.ms(median(before.cpu)),
          fmt.ms(mean(before.cpu)),
          fmt.ms(median(after.cpu)),
          fmt.ms(mean(after.cpu)),
          fmt.ratio(median(after.cpu) / median(before.cpu)),
          fmt.ms(median(before.wall)),
          fmt.ms(median(after.wall)),
        ];
      }),
    ),
  );
  // The 'without' rounds' writes left the roll-up behind (proof the triggers were off): the operator's commands
  // over the bench's year.
  let began = performance.now();
  const differences = await rollupDifferences(db);
  log(`\ncheck:rollups over the year: ${differences.length} difference(s) in ${fmt.int(performance.now() - began)} ms`);
  began = performance.now();
  await rebuildRollup(db, asg.company_id);
  log(`rebuild of the company: ${fmt.int(performance.now() - began)} ms; ${(await rollupDifferences(db)).length} left`);

  // The writes that make migration 022 work a room's executed slots out again: one room's list edited, and the
  // procedure most rooms ask removed from the catalogue and brought back (every executed slot of those rooms).
  await switchTriggers("with");
  const { rows: common } = await sql<{ procedure_id: number; rooms: string }>`
    select procedure_id, count(*) rooms from environment_procedures group by procedure_id
    order by count(*) desc, procedure_id limit 1`.execute(db);
  const { procedure_id: procedure, rooms } = common[0];
  const edited = (
    await db
      .selectFrom("environment_procedures")
      .select("environment_id")
      .where("procedure_id", "=", procedure)
      .orderBy("environment_id")
      .executeTakeFirstOrThrow()
  ).environment_id;
  const timedOnce = async (name: string, work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    log(`${name}: ${fmt.int(performance.now() - start)} ms`);
  };
  await timedOnce("a room's list: one procedure taken off", () =>
    db
      .deleteFrom("environment_procedures")
      .where("environment_id", "=", edited)
      .where("procedure_id", "=", procedure)
      .execute(),
  );
  await timedOnce("a room's list: put back", () =>
    db
      .insertInto("environment_procedures")
      .values({ environment_id: edited, procedure_id: procedure, mandatory: true })
      .execute(),
  );
  await timedOnce(`a procedure of ${rooms} rooms removed from the catalogue`, () =>
    sql`update procedures set deleted_at = now() where id = ${procedure}`.execute(db),
  );
  await timedOnce("brought back", () =>
    sql`update procedures set deleted_at = null where id = ${procedure}`.execute(db),
  );
  log(`after them: ${(await rollupDifferences(db)).length} difference(s)`);
} finally {
  await database.close();
}
