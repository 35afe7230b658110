/**
 * Migrations 021, 022 and 023's backfill (docs/operations.md 'The bookings roll-up'): a database migrated up to 020 gets
 * the demo simulator's bookings and history (statuses of every kind, executions and photos counted by 014's triggers)
 * and some bookings switched off; 021 and 022 then apply, and booking_days holds exactly the groups of the active
 * rows, as counted here in TypeScript (not by the migrations' own recount view, which the backfill reads), the slots'
 * tasks (022) included: each slot's executions against its room's procedures.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";

import { openDatabase, type Database } from "../../api/db/connection.ts";
import { listMigrations, migrate } from "../../api/db/migrate.ts";
import { seedDemo } from "../../api/db/seed.ts";

const ROLLUP = "021_booking_days";
const TASKS = "022_task_status";
const TIMES = "023_booking_times";
/** Adds no rows: a closed month is written by the first report that reads it. */
const MONTHS = "024_booking_months";
/** api/domain/audit.ts ITEM_CAP_MS: a slot's time counts at most a day. */
const DAY_MS = 86_400_000;
let database: Database;

beforeAll(async () => {
  database = await openDatabase({ memory: true });
  await database.execScript(
    "create table schema_migrations (name text primary key, applied_at timestamptz not null default now())",
  );
  for (const migration of listMigrations().filter((each) => each.name < ROLLUP))
    await database.execScript(
      `begin; ${migration.script}; insert into schema_migrations (name) values ('${migration.name}'); commit;`,
    );
  await seedDemo(database, { history: true });
  // Switched off (cancelled): the roll-up counts active bookings only.
  await sql`update bookings set active = false where id % 9 = 0`.execute(database.db);
}, 180_000);

afterAll(() => database?.close());

test("021, 022 and 023 fill booking_days with the active bookings' groups, their slots' tasks and times", async () => {
  const before = await sql<{ name: string }>`select to_regclass('booking_days')::text name`.execute(database.db);
  expect(before.rows[0].name).toBeNull();
  expect(await migrate(database)).toEqual([ROLLUP, TASKS, TIMES, MONTHS]);

  const rows = await database.db
    .selectFrom("bookings")
    .select([
      "company_id",
      "data_agend",
      "branch_id",
      "user_id",
      "environment_id",
      "agenda_id",
      "status",
      "executions",
      "photos",
      "active",
      "id",
      "start_date",
      "finished_at",
      "hora_ini",
      "hora_fim",
    ])
    .execute();
  // Each slot's tasks (spec 001 §4): the room's procedures not removed from the catalogue, done when executed.
  const lists = new Map<number, Set<number>>();
  for (const row of await database.db
    .selectFrom("environment_procedures as ep")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .where("p.deleted_at", "is", null)
    .select(["ep.environment_id", "ep.procedure_id"])
    .execute())
    lists.set(row.environment_id, (lists.get(row.environment_id) ?? new Set()).add(row.procedure_id));
  const executed = new Map<number, number[]>();
  for (const row of await database.db.selectFrom("history").select(["booking_id", "procedure_id"]).execute())
    executed.set(row.booking_id, [...(executed.get(row.booking_id) ?? []), row.procedure_id]);
  const situationOf = (booking: { id: number; environment_id: number }) => {
    const done = executed.get(booking.id) ?? [];
    if (done.length === 0) return null;
    const asked = lists.get(booking.environment_id) ?? new Set<number>();
    const tasks = new Set(done.filter((procedure) => asked.has(procedure))).size;
    return tasks === asked.size ? "completa" : tasks === 0 ? "nenhuma" : "incompleta";
  };
  const groups = new Map<string, Record<string, number | string>>();
  for (const row of rows.filter((each) => each.active)) {
    const key = [row.company_id, row.data_agend, row.branch_id, row.user_id, row.environment_id, row.agenda_id];
    const group = groups.get(key.join()) ?? {
      company_id: row.company_id,
      dia: row.data_agend,
      branch_id: row.branch_id,
      user_id: row.user_id,
      environment_id: row.environment_id,
      agenda_id: row.agenda_id,
      agendamentos: 0,
      completos: 0,
      incompletos: 0,
      andamento: 0,
      sem_status: 0,
      execucoes: 0,
      fotos: 0,
      tarefas_completas: 0,
      tarefas_incompletas: 0,
      tarefas_nenhuma: 0,
      iniciados: 0,
      medidos: 0,
      ms_reais: 0,
      ms_previstos: 0,
    };
    const add = (name: string, by: number) => (group[name] = (group[name] as number) + by);
    add("agendamentos", 1);
    add("completos", Number(row.status === "Completo"));
    add("incompletos", Number(row.status === "Incompleto"));
    add("andamento", Number(row.status === "Andamento"));
    add("sem_status", Number(row.status === null));
    add("execucoes", row.executions);
    add("fotos", row.photos);
    const situation = situationOf(row);
    add("tarefas_completas", Number(situation === "completa"));
    add("tarefas_incompletas", Number(situation === "incompleta"));
    add("tarefas_nenhuma", Number(situation === "nenhuma"));
    // The audit dashboard's times (023): measured when finished after the start; each slot capped at a day.
    add("iniciados", Number(row.start_date !== null));
    const measured = row.start_date !== null && row.finished_at !== null && row.finished_at >= row.start_date;
    add("medidos", Number(measured));
    if (measured) {
      const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
      const span = minutes(row.hora_fim) - minutes(row.hora_ini);
      const planned = Math.min((span < 0 ? span + 1440 : span) * 60_000, DAY_MS);
      const actual = Math.min(row.finished_at!.getTime() - row.start_date!.getTime(), DAY_MS);
      add("ms_reais", actual);
      add("ms_previstos", planned);
    }
    groups.set(key.join(), group);
  }
  const stored = await database.db
    .selectFrom("booking_days")
    .selectAll()
    .orderBy("company_id")
    .orderBy("dia")
    .orderBy("branch_id")
    .orderBy("user_id")
    .orderBy("environment_id")
    .orderBy("agenda_id")
    .execute();
  const order = (a: Record<string, number | string>, b: Record<string, number | string>) => {
    for (const name of ["company_id", "dia", "branch_id", "user_id", "environment_id", "agenda_id"])
      if (a[name] !== b[name]) return a[name] < b[name] ? -1 : 1;
    return 0;
  };
  // bigint columns: a number on PGlite, a string through node-postgres.
  const asNumbers = stored.map((row) => ({
    ...row,
    ms_reais: Number(row.ms_reais),
    ms_previstos: Number(row.ms_previstos),
  }));
  expect(asNumbers).toEqual([...groups.values()].sort(order));

  // The demo's rows make it a test: slots of every state, some switched off, several slots in a key, executions.
  const statuses = new Set(rows.map((row) => row.status));
  expect([...statuses].sort()).toEqual(["Andamento", "Completo", "Incompleto", null].sort());
  expect(rows.some((row) => !row.active)).toBe(true);
  expect(stored.length).toBeLessThan(rows.filter((row) => row.active).length);
  expect(stored.some((row) => row.fotos > 0 && row.execucoes > row.fotos)).toBe(true);
  expect(stored.some((row) => row.tarefas_completas > 0)).toBe(true);
  expect(stored.some((row) => row.tarefas_incompletas > 0)).toBe(true);
  expect(stored.some((row) => row.medidos > 0 && Number(row.ms_reais) > 0)).toBe(true);
  expect(stored.some((row) => row.iniciados > row.medidos)).toBe(true);
}, 60_000);
