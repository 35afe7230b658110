/**
 * A year of history for the report benches (issue 23, bench/README.md §8), written with set-based SQL
 * (`insert … select … from generate_series`), not through the services: the demo simulator writes ~3,000 rows in
 * 20-100 s (one service call per execution), so ~1,000,000 rows that way would take hours. The rows are shaped as the
 * execution service writes them (api/services/execution.ts: a booking per agenda, day and slot with its own copy of
 * the slot's times; one history row per procedure of the room recorded in a slot, with the revision of that slot).
 *
 * On a database that holds the demo data without history (seedDemo with `history: false`), in the demo company:
 * - `ENVIRONMENTS` (50) new environments spread over its active branches, each linked to most of its branch's
 *   procedures (one in three optional);
 * - `COLLABORATORS` (40) new ASGs (roleId 5), spread over the same branches;
 * - two agendas per environment (a morning and an afternoon shift), each a main slot and four revisions a day, every
 *   day of the year that ends today (America/Fortaleza), each agenda given to a collaborator of the room's branch;
 * - bookings for every day and slot: on past days 88 % done ('Completo': every procedure recorded), 7 % left
 *   'Incompleto' with a reason (half of the procedures recorded), 5 % never started; today's slots by the clock
 *   (not yet begun: never started; under way: 'Andamento' with its first procedure);
 * - history: ~1,000,000 rows (182,500 bookings × ~5.4 procedures), with photos named on about a third of them
 *   (no file behind: the reports link photos, they do not read them) and an observation on 3 %.
 *
 * The random draws are seeded (setseed) inside the one transaction, so a run writes the same figures each time. The
 * bookings' executions and photos counts (migration 014) are filled by one update after the history insert, its
 * trigger being off for that insert (see below).
 */
import { addDays } from "date-fns";
import { sql, type Kysely } from "kysely";

import { DEMO_COMPANY } from "../api/db/demo-simulator.ts";
import type { DB } from "../api/db/schema.ts";
import { businessToday, dayOf, isoDay } from "../api/domain/schedule-expansion.ts";

export const ENVIRONMENTS = 50;
export const COLLABORATORS = 40;
/** Days of history, ending today: the longest period a report may ask (MAX_REPORT_DAYS is 366). */
export const DAYS = 365;
const SHIFTS = [6 * 60, 13 * 60]; // 06:00 and 13:00
const SLOTS_PER_SHIFT = 5; // the main cleaning and four revisions, 80 minutes apart
const SLOT_STEP_MIN = 80;
const MAIN_MIN = 40;
const REVISION_MIN = 25;

const PLACES = ["Banheiro", "Enfermaria", "Consultório", "Corredor", "Sala de espera", "Copa", "Recepção", "Posto"];
const FLOORS = ["Térreo", "1º andar", "2º andar", "3º andar", "4º andar"];
const SURNAMES = ["Silva", "Souza", "Oliveira", "Pereira", "Lima", "Carvalho", "Ferreira", "Rodrigues", "Almeida"];
const FIRST_NAMES = ["Maria", "José", "Francisca", "Antônio", "Raimunda", "Francisco", "Ana", "João", "Luzia", "Pedro"];
const REASONS = ["Sala ocupada por paciente", "Falta de material de limpeza", "Acesso bloqueado pela equipe médica"];
const OBSERVATIONS = ["Lixeira quebrada", "Vazamento na pia", "Piso molhado sinalizado", "Falta de papel toalha"];

export type HistoryData = {
  today: string;
  dataIni: string;
  companyId: number;
  environments: number;
  collaborators: number;
  agendas: number;
  bookings: number;
  history: number;
  /** Wall time of each step (ms), and of the whole. */
  steps: { name: string; ms: number }[];
  ms: number;
  /** For the drill-downs: the collaborator with the most bookings, a past day of theirs and a room of that day. */
  busyUserId: number;
  busyUserBookings: number;
  day: string;
  environmentId: number;
};

/** The internal triggers that check a table's own foreign keys on insert and update (RI_FKey_check_*). */
export async function foreignKeyChecks(db: Kysely<DB>, tables: string[]) {
  const rows = await sql<{ table: string; trigger: string }>`
    select c.relname "table", t.tgname "trigger"
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc f on f.oid = t.tgfoid
    where t.tgisinternal and f.proname in ('RI_FKey_check_ins', 'RI_FKey_check_upd')
      and c.relname = any(${tables}::text[]) and c.relnamespace = current_schema()::regnamespace`.execute(db);
  return rows.rows;
}

/** Switching an internal trigger needs a superuser (PGlite's user; the bench's PostgreSQL user, postgres). */
export async function setTriggers(
  db: Kysely<DB>,
  triggers: { table: string; trigger: string }[],
  to: "enable" | "disable",
) {
  for (const { table, trigger } of triggers)
    await sql`alter table ${sql.table(table)} ${sql.raw(to)} trigger ${sql.id(trigger)}`.execute(db);
}

/** Writes the year of history into the demo company (see the module's comment), then ANALYZE. */
export async function writeHistory(db: Kysely<DB>, now = new Date()): Promise<HistoryData> {
  const today = businessToday(now);
  const dataIni = isoDay(addDays(dayOf(today), -(DAYS - 1)));
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
    const firstEnvironment = Number(before.id ?? 0) + 1;
    await run(sql`select setseed(0.23)`);
    // The rows are made by joins over the rows they reference, so the foreign keys' row-by-row checks (most of the
    // time: 1,000,000 history rows are 4,000,000 look-ups) are switched off for the two bulk inserts and on again in
    // the same transaction. Only those checks (and the counts' trigger below): every other trigger (list versions) runs.
    const checks = await foreignKeyChecks(trx, ["bookings", "history"]);
    await setTriggers(trx, checks, "disable");
    // Migration 014's insert trigger keeps bookings.executions / photos from its transition table; for ~970,000 rows
    // in one statement that cost more than the insert itself (PGlite: history 36-63 s with it, 17.5 s without + 10.6 s
    // for one update after the commit, at load 7-9). So it is off for the insert, as the foreign keys' checks (not
    // session_replication_role, which would stop every trigger), and the counts are filled by one update after the
    // transaction (below).
    await setTriggers(trx, [{ table: "history", trigger: "history_counts_ins" }], "disable");

    await step("environments, their procedures, collaborators, agendas", async () => {
      // Rooms: branch n % branches; category and sector among the branch's, by n.
      await run(sql`
        insert into environments (company_id, branch_id, name, andar, category_id, sector_id)
        select ${company.id}, b.id,
          (${PLACES}::text[])[1 + n % ${PLACES.length}] || ' ' || lpad(n::text, 2, '0'),
          (${FLOORS}::text[])[1 + n % ${FLOORS.length}],
          (select array_agg(c.id order by c.id) from categories c where c.branch_id = b.id and c.deleted_at is null)
            [1 + n % (select count(*) from categories c where c.branch_id = b.id and c.deleted_at is null)::int],
          (select array_agg(s.id order by s.id) from sectors s where s.branch_id = b.id and s.deleted_at is null)
            [1 + n % (select count(*) from sectors s where s.branch_id = b.id and s.deleted_at is null)::int]
        from generate_series(1, ${ENVIRONMENTS}) n
        join branches b on b.id = (${branches}::int[])[1 + n % ${branches.length}]`);
      // Most of the branch's procedures: one in eight left out (a different one per room), one in three optional.
      await run(sql`
        insert into environment_procedures (environment_id, procedure_id, mandatory)
        select e.id, p.id, p.rank % 3 <> 2
        from environments e
        join (select id, branch_id, row_number() over (partition by branch_id order by id) rank
              from procedures where deleted_at is null) p on p.branch_id = e.branch_id
        where e.id >= ${firstEnvironment} and (p.rank + e.id) % 8 <> 0`);
      await run(sql`
        insert into users (company_id, branch_id, nome, email, cpf, telefone, role_id, password_hash)
        select ${company.id}, (${branches}::int[])[1 + n % ${branches.length}],
          (${FIRST_NAMES}::text[])[1 + n % ${FIRST_NAMES.length}] || ' ' ||
            (${SURNAMES}::text[])[1 + (n / ${FIRST_NAMES.length}) % ${SURNAMES.length}] || ' ' || lpad(n::text, 2, '0'),
          'colaborador' || n || '@bench.demo.com.br', '9' || lpad(n::text, 10, '0'), '8599' || lpad(n::text, 7, '0'), 5,
          (select password_hash from users where email = 'admin@demo.com.br')
        from generate_series(1, ${COLLABORATORS}) n`);
      // Two agendas per room (one per shift), each with its own periodicity: the main slot and four revisions.
      await run(sql`
        insert into periodicities (branch_id, nome, type, dias_semana, hora_base_inicial, hora_base_final)
        select e.branch_id, 'bench ' || e.id || ' ' || shift, 'sem',
          'Domingo - Segunda - Terça - Quarta - Quinta - Sexta - Sábado',
          make_time(0, 0, 0) + (${SHIFTS}::int[])[shift] * interval '1 minute',
          make_time(0, 0, 0) + ((${SHIFTS}::int[])[shift] + ${MAIN_MIN}) * interval '1 minute'
        from environments e cross join generate_series(1, ${SHIFTS.length}) shift
        where e.id >= ${firstEnvironment}`);
      await run(sql`
        insert into revisions (periodicity_id, branch_id, hora_inicial, hora_final)
        select p.id, p.branch_id, p.hora_base_inicial + k * ${SLOT_STEP_MIN} * interval '1 minute',
          p.hora_base_inicial + (k * ${SLOT_STEP_MIN} + ${REVISION_MIN}) * interval '1 minute'
        from periodicities p cross join generate_series(1, ${SLOTS_PER_SHIFT - 1}) k
        where p.nome like 'bench %'`);
      // Each agenda goes to a collaborator of the room's branch, in turn (the k-th agenda of a branch to its
      // (k mod n)-th collaborator), so every collaborator has two or three agendas.
      await run(sql`
        insert into agendas (company_id, branch_id, environment_id, periodicity_id, user_id, vig_ini, vig_fim)
        select ${company.id}, p.branch_id, split_part(p.nome, ' ', 2)::int, p.id, u.id, ${dataIni}::date, ${today}::date
        from (select p.*, row_number() over (partition by p.branch_id order by p.id) - 1 k
              from periodicities p where p.nome like 'bench %') p
        join (select u.id, u.branch_id, row_number() over (partition by u.branch_id order by u.id) - 1 k,
                count(*) over (partition by u.branch_id) n
              from users u where u.email like '%@bench.demo.com.br') u
          on u.branch_id = p.branch_id and u.k = p.k % u.n`);
    });

    await step("bookings (every day and slot of the year)", () =>
      // One draw per booking decides its fate; a second its delay (-5 to +19 minutes). Times are business times:
      // Fortaleza is UTC-3 all year, so the instant is the day and time plus 3 hours in UTC.
      run(sql`
        insert into bookings (agenda_id, company_id, branch_id, environment_id, user_id, data_agend, slot, hora_ini,
          hora_fim, status, start_date, finished_at, justificativa)
        select agenda_id, company_id, branch_id, environment_id, user_id, dia, slot, hora_ini, hora_fim,
          case when started > ${now}::timestamptz or (fate < 0.05 and dia < ${today}::date) then null
               when fate < 0.12 then 'Incompleto'
               when ended > ${now}::timestamptz then 'Andamento'
               else 'Completo' end,
          case when started > ${now}::timestamptz or (fate < 0.05 and dia < ${today}::date) then null else started end,
          case when started > ${now}::timestamptz or (fate < 0.05 and dia < ${today}::date) or
                    (fate >= 0.12 and ended > ${now}::timestamptz) then null
               else ended end,
          case when started <= ${now}::timestamptz and fate < 0.12 and not (fate < 0.05 and dia < ${today}::date)
               then (${REASONS}::text[])[1 + floor(fate * 1000)::int % ${REASONS.length}] end
        from (
          select *, (((dia + hora_ini)::timestamp + interval '3 hours' + delay * interval '1 minute') at time zone 'UTC') started,
            (((dia + hora_fim)::timestamp + interval '3 hours' + delay * interval '1 minute') at time zone 'UTC') ended
          from (
            select a.id agenda_id, a.company_id, a.branch_id, a.environment_id, a.user_id, d::date dia, s.slot,
              s.hora_ini, s.hora_fim, random() fate, floor(random() * 25)::int - 5 delay
            from agendas a
            join periodicities p on p.id = a.periodicity_id
            cross join generate_series(a.vig_ini, a.vig_fim, interval '1 day') d
            cross join lateral (
              select 0 slot, p.hora_base_inicial hora_ini, p.hora_base_final hora_fim
              union all
              select row_number() over (order by r.hora_inicial, r.id), r.hora_inicial, r.hora_final
              from revisions r where r.periodicity_id = p.id) s
            where p.nome like 'bench %'
          ) drawn
        ) timed`),
    );

    await step("history (the procedures recorded in each slot)", () =>
      // Done: every procedure of the room; incomplete: the first half; under way: the first. Spread evenly over the
      // slot's span, in the room's order (mandatory first, then by id).
      run(sql`
        insert into history (booking_id, procedure_id, revision_id, user_id, image, observacao, created_at, updated_at)
        select b.id, ep.procedure_id, r.id, b.user_id,
          case when random() < 0.35 then md5(b.id::text || '.' || ep.procedure_id) || '.jpg' end,
          case when random() < 0.03 then (${OBSERVATIONS}::text[])[1 + (b.id + ep.procedure_id) % ${OBSERVATIONS.length}] end,
          t.done_at, t.done_at
        from bookings b
        join agendas a on a.id = b.agenda_id
        join (select environment_id, procedure_id,
                row_number() over (partition by environment_id order by mandatory desc, procedure_id) rank,
                count(*) over (partition by environment_id) n
              from environment_procedures) ep on ep.environment_id = b.environment_id
        left join (select id, periodicity_id, row_number() over (partition by periodicity_id order by hora_inicial, id) slot
                   from revisions) r on r.periodicity_id = a.periodicity_id and r.slot = b.slot
        cross join lateral (select least(${now}::timestamptz, b.start_date +
          (coalesce(b.finished_at, b.start_date + interval '20 minutes') - b.start_date) * ep.rank / (ep.n + 1)) done_at) t
        where b.environment_id >= ${firstEnvironment} and b.status is not null
          and ep.rank <= case b.status when 'Completo' then ep.n when 'Incompleto' then (ep.n + 1) / 2 else 1 end`),
    );

    await setTriggers(trx, [...checks, { table: "history", trigger: "history_counts_ins" }], "enable");
    // The demo data was written without history, so every booking and history row is ours.
    const count = async (table: "agendas" | "bookings" | "history") =>
      Number((await sql<{ n: string }>`select count(*) n from ${sql.table(table)}`.execute(trx)).rows[0].n);
    const busy = (
      await sql<{ user_id: number; n: string }>`
        select user_id, count(*) n from bookings where environment_id >= ${firstEnvironment}
        group by user_id order by count(*) desc, user_id limit 1`.execute(trx)
    ).rows[0];
    const day = isoDay(addDays(dayOf(today), -1));
    const room = (
      await sql<{ environment_id: number }>`
        select environment_id from bookings where user_id = ${busy.user_id} and data_agend = ${day}::date
        order by environment_id limit 1`.execute(trx)
    ).rows[0];
    return {
      companyId: company.id,
      agendas: await count("agendas"),
      bookings: await count("bookings"),
      history: await count("history"),
      busyUserId: busy.user_id,
      busyUserBookings: Number(busy.n),
      day,
      environmentId: room.environment_id,
    };
  });
  // After the commit: the same update inside the inserting transaction took ~45 s on PGlite (with or without an
  // ANALYZE of history first), against ~11 s here.
  // The slots' tasks (migration 022's bookings.tarefas_situacao, which the history's trigger keeps) in the same update,
  // worked out by the migration's own set-based rule: without them the roll-up counted every slot as unrecorded.
  await step("bookings' execution and photo counts (migration 014) and tasks (022)", () =>
    sql`
      update bookings b set executions = c.executions, photos = c.photos, tarefas_situacao = t.situacao
      from (select booking_id, count(*) executions, count(image) photos from history group by booking_id) c
      join booking_tasks(array(select id from environments where company_id = ${written.companyId})) t
        on t.id = c.booking_id
      where b.id = c.booking_id`.execute(db),
  );
  // That update left a dead version of 173,000 bookings, which every report's scan of the year then read (the year's
  // 'todos' page: 1,077 ms of server CPU against 235 before): the bench's rows are otherwise written once, so VACUUM.
  await step("VACUUM bookings", () => sql`vacuum bookings`.execute(db));
  // PGlite gathers no statistics on its own (DESIGN.md 'Data'): ANALYZE after bulk writes.
  await step("ANALYZE", () => sql`analyze`.execute(db));
  return {
    today,
    dataIni,
    environments: ENVIRONMENTS,
    collaborators: COLLABORATORS,
    ...written,
    steps,
    ms: performance.now() - began,
  };
}
