/**
 * The closed months of the bookings roll-up (migration 024, api/services/booking-months.ts, docs/operations.md
 * 'Closed months'): a period's whole months before today's are read from booking_months, written by the first report
 * that needs them and read only while no write has changed their days since.
 */
import { addDays, addMonths, format, startOfMonth } from "date-fns";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";

import { businessToday, dayOf, isoDay } from "../../api/domain/schedule-expansion.ts";
import { rollupRows, type RollupPeriod } from "../../api/services/booking-months.ts";
import { rebuildRollup, ROLLUP_FIGURES } from "../../api/services/rollups.ts";
import { saveDayAgenda } from "../support/agendas.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const TODAY = businessToday();
const today = dayOf(TODAY);
const month = (offset: number) => format(addMonths(startOfMonth(today), offset), "yyyy-MM-dd");
/** From the middle of the month four months ago to today: three whole closed months, two partial ones. */
const PERIOD: RollupPeriod = {
  dataIni: isoDay(addDays(addMonths(startOfMonth(today), -4), 14)),
  dataFim: TODAY,
  today: TODAY,
};
const CLOSED = [month(-3), month(-2), month(-1)];

let ids: Awaited<ReturnType<typeof demoIds>>;
const agendas: number[] = [];

/** The period's figures per key (day left out), summed from the rows a reader gets. */
async function summed(from: ReturnType<typeof sql>) {
  const figures = sql.raw(ROLLUP_FIGURES.map((name) => `sum(${name})::bigint::text ${name}`).join(", "));
  const { rows } = await sql<Record<string, string>>`
    select branch_id, user_id, environment_id, agenda_id, ${figures}
    from ${from} r where company_id = ${ids.hospital}
    group by branch_id, user_id, environment_id, agenda_id
    order by branch_id, user_id, environment_id, agenda_id`.execute(t.db);
  return rows;
}
const fromDays = () =>
  summed(sql`(select * from booking_days where dia between ${PERIOD.dataIni}::date and ${PERIOD.dataFim}::date)`);
const fromReader = async () => summed(await rollupRows(t.db, ids.hospital, PERIOD));

/** The months a fill marked as written at their current version. */
const filledMonths = async () =>
  (
    await sql<{ mes: string }>`select to_char(mes, 'YYYY-MM-DD') mes from booking_month_state
      where company_id = ${ids.hospital} and filled = version order by mes`.execute(t.db)
  ).rows.map((row) => row.mes);

/** The demo company's booking on a closed month's day, its first by id. */
const closedMonthBooking = async (monthStart: string) =>
  (
    await sql<{ id: number }>`select id from bookings where company_id = ${ids.hospital} and active
      and data_agend >= ${monthStart}::date and data_agend < (${monthStart}::date + interval '1 month')::date
      order by id limit 1`.execute(t.db)
  ).rows[0].id;

beforeAll(async () => {
  ids = await demoIds(t.db);
  const admin = await t.signIn("admin@demo.com.br");
  const rooms = await t.db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", ids.aldeota)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .limit(3)
    .execute();
  for (const [index, email] of ["asg@demo.com.br", "ana@demo.com.br", "cicero@demo.com.br"].entries())
    agendas.push(
      await saveDayAgenda(t, admin, {
        branch: ids.aldeota,
        environment: rooms[index].id,
        user: (await userByEmail(t.db, email)).id,
        slots: [["07:00", "07:40"]],
      }),
    );
  // Five months of past slots of three agendas, three a day, of every status (as the old system's import writes
  // them: past days in one statement).
  await sql`
    insert into bookings (agenda_id, company_id, branch_id, user_id, environment_id, data_agend, slot, hora_ini,
      hora_fim, status, active)
    select a.id, a.company_id, a.branch_id, a.user_id, a.environment_id, ${TODAY}::date - d, s, '08:00', '08:30',
      (array['Completo', 'Incompleto', 'Andamento', null])[1 + (d + s + a.id) % 4], (d + s) % 7 <> 0
    from agendas a cross join generate_series(1, 150) d cross join generate_series(0, 2) s
    where a.id in (${sql.join(agendas)})
    on conflict (agenda_id, data_agend, slot) do nothing`.execute(t.db);
});

describe("a period's closed months", () => {
  test("are read from booking_months with the same figures as their days, and only the whole closed months are", async () => {
    const expected = await fromDays();
    expect(expected.length).toBeGreaterThan(2);
    expect(await fromReader()).toEqual(expected);
    expect(await filledMonths()).toEqual(CLOSED);
    const written = await sql<{ mes: string; rows: number }>`
      select to_char(mes, 'YYYY-MM-DD') mes, count(*)::int rows from booking_months
      where company_id = ${ids.hospital} group by mes order by mes`.execute(t.db);
    expect(written.rows.map((row) => row.mes)).toEqual(CLOSED);
  });

  test("a month's rows are what the reader sums while their version stands", async () => {
    await fromReader();
    // A figure changed in the months' rows alone (no write to the days): the reader shows it, so it read them.
    await sql`update booking_months set agendamentos = agendamentos + 1000
      where company_id = ${ids.hospital} and mes = ${CLOSED[0]}::date`.execute(t.db);
    const read = await fromReader();
    const days = await fromDays();
    const total = (rows: Record<string, string>[]) => rows.reduce((sum, row) => sum + Number(row.agendamentos), 0);
    expect(total(read) - total(days)).toBe(
      1000 *
        Number(
          (
            await sql<{ n: number }>`select count(*)::int n from booking_months m join booking_month_state s
              using (company_id, mes, version) where m.company_id = ${ids.hospital} and m.mes = ${CLOSED[0]}::date
              and s.filled = s.version`.execute(t.db)
          ).rows[0].n,
        ),
    );
    // Mended for the tests below: the month's next write bumps it.
    await sql`update booking_month_state set version = version + 1 where company_id = ${ids.hospital}`.execute(t.db);
  });

  test("each kind of write to a closed month's days is seen by the next read", async () => {
    await fromReader();
    const booking = await closedMonthBooking(CLOSED[1]);
    const writes = [
      sql`update bookings set status = 'Completo', executions = executions + 2 where id = ${booking}`,
      sql`update bookings set active = false where id = ${booking}`,
      sql`update bookings set active = true, data_agend = ${month(-1)}::date + 3, slot = 8 where id = ${booking}`,
      sql`delete from bookings where id = ${await closedMonthBooking(CLOSED[0])}`,
      sql`insert into bookings (agenda_id, company_id, branch_id, user_id, environment_id, data_agend, slot, hora_ini,
          hora_fim, status, active)
        select id, company_id, branch_id, user_id, environment_id, ${month(-2)}::date + 5, 9, '10:00', '10:30',
          'Incompleto', true from agendas where id = ${agendas[0]}`,
    ];
    for (const write of writes) {
      await write.execute(t.db);
      expect(await fromReader(), write.compile(t.db).sql).toEqual(await fromDays());
    }
  });

  test("the roll-up's rebuild, which writes booking_days itself, is seen by the next read", async () => {
    await fromReader();
    // A status changed with the bookings' triggers off (as a load without them): the days are wrong until rebuilt.
    const booking = await closedMonthBooking(CLOSED[2]);
    await sql`alter table bookings disable trigger user`.execute(t.db);
    await sql`update bookings set status = case when status = 'Completo' then 'Incompleto' else 'Completo' end
      where id = ${booking}`.execute(t.db);
    await sql`alter table bookings enable trigger user`.execute(t.db);
    await rebuildRollup(t.db, ids.hospital);
    expect(await fromReader()).toEqual(await fromDays());
  });

  test("a month written after the fill is read from its days by the reading statement itself", async () => {
    const rows = await rollupRows(t.db, ids.hospital, PERIOD);
    // Between the fill and the read (another connection's write on PostgreSQL): the month's version moves on.
    await sql`update bookings set executions = executions + 5 where id = ${await closedMonthBooking(CLOSED[1])}`.execute(
      t.db,
    );
    expect(await summed(rows)).toEqual(await fromDays());
  });

  test("a write to today's month bumps no month, and a 'today' ahead of the database's fills no open month", async () => {
    const before = await sql<{ v: string }>`select coalesce(sum(version), 0)::text v from booking_month_state`.execute(
      t.db,
    );
    await sql`update bookings set status = 'Completo' where company_id = ${ids.hospital} and data_agend = ${TODAY}::date`.execute(
      t.db,
    );
    const after = await sql<{ v: string }>`select coalesce(sum(version), 0)::text v from booking_month_state`.execute(
      t.db,
    );
    expect(after.rows[0].v).toBe(before.rows[0].v);

    const ahead = isoDay(addMonths(today, 3));
    await rollupRows(t.db, ids.hospital, { dataIni: month(-1), dataFim: ahead, today: ahead });
    expect(await filledMonths()).not.toContain(month(0));
  });

  test("the collaborators list of the period counts the closed months' slots as the rows do", async () => {
    const token = await t.signIn("admin@demo.com.br");
    const query = `dataIni=${PERIOD.dataIni}&dataFim=${PERIOD.dataFim}&filialId=${ids.aldeota}&size=80`;
    const first = (await t.get(`/api/relatorios/colaboradores?${query}`, { token })).body;
    // One slot of a closed month moved from 'Completo'-free to done, then read again through the API.
    const booking = await closedMonthBooking(CLOSED[0]);
    const { user_id } = await t.db
      .selectFrom("bookings")
      .select("user_id")
      .where("id", "=", booking)
      .executeTakeFirstOrThrow();
    await sql`update bookings set active = false where id = ${booking}`.execute(t.db);
    const second = (await t.get(`/api/relatorios/colaboradores?${query}`, { token })).body;
    const slots = (page: { items: { id: number; agendamentos: number }[] }) =>
      page.items.find((item) => item.id === user_id)!.agendamentos;
    expect(slots(first) - slots(second)).toBe(1);
    const counted = await sql<{ n: number }>`select count(*)::int n from bookings b join agendas a on a.id = b.agenda_id
      where b.user_id = ${user_id} and b.active and a.ativo and a.deleted_at is null
        and b.data_agend between ${PERIOD.dataIni}::date and ${PERIOD.dataFim}::date`.execute(t.db);
    expect(slots(second)).toBe(counted.rows[0].n);
  });
});
