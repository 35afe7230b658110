import { addDays, addMonths, format, min, startOfMonth } from "date-fns";
import { sql, type Kysely, type RawBuilder } from "kysely";

import type { BookingDays, DB } from "../db/schema.ts";
import { dayOf } from "../domain/schedule-expansion.ts";

import { ROLLUP_FIGURES } from "./rollups.ts";

/**
 * The bookings roll-up as the grouped reports read it (migration 024, docs/operations.md 'Closed months'): a period's
 * whole months that are over come from booking_months (a row per month, collaborator, room and agenda), its other days
 * from booking_days. A month's row stands at its first day (`dia`), so a reader that compares `dia` with today and
 * the period reads either alike; one that groups by day must read booking_days itself.
 */

export type RollupPeriod = { dataIni: string; dataFim: string; today: string };

const KEY = ["company_id", "branch_id", "user_id", "environment_id", "agenda_id"] as const;
const columns = (alias: string, day: string) =>
  sql.raw(
    [`${alias}.company_id`, `${day} as dia`, ...KEY.slice(1).map((name) => `${alias}.${name}`)]
      .concat(ROLLUP_FIGURES.map((name) => `${alias}.${name}`))
      .join(", "),
  );
const sums = sql.raw(
  ROLLUP_FIGURES.map((name) => `sum(d.${name})::${name.startsWith("ms_") ? "bigint" : "int"}`).join(", "),
);

/**
 * Writes the rows of the period's closed whole months that are missing or stale (one statement, so the versions and
 * the days are read at one instant), and answers those months' range, [from, to): empty when the period holds no whole
 * month before today's. Closed is judged by the database's clock as well as `today`, as the trigger that bumps the
 * versions judges it. Rows and months are written in key order, as the trigger bumps them: concurrent fills and
 * writes wait for each other rather than deadlock.
 */
async function fillClosedMonths(db: Kysely<DB>, companyId: number, period: RollupPeriod) {
  // No whole month before today's in the period (a day, a week, the last 31 days): nothing to ask the database.
  const firstWhole = format(addMonths(startOfMonth(addDays(dayOf(period.dataIni), -1)), 1), "yyyy-MM-dd");
  const lastEnd = format(
    min([startOfMonth(addDays(dayOf(period.dataFim), 1)), startOfMonth(dayOf(period.today))]),
    "yyyy-MM-dd",
  );
  if (firstWhole >= lastEnd) return null;
  const { rows } = await sql<{ cover_from: string; cover_to: string }>`
    with cover as (
      select (date_trunc('month', ${period.dataIni}::date - 1) + interval '1 month')::date as cover_from,
        least(date_trunc('month', ${period.dataFim}::date + 1),
          date_trunc('month', least(${period.today}::date, (now() at time zone 'America/Fortaleza')::date)))::date
          as cover_to
    ),
    todo as (
      select g.mes::date as mes, coalesce(s.version, 0) as version
      from cover
      cross join generate_series(cover.cover_from::timestamp, cover.cover_to::timestamp - interval '1 month',
        interval '1 month') as g(mes)
      left join booking_month_state s on s.company_id = ${companyId} and s.mes = g.mes::date
      where s.filled is null or s.filled <> s.version
    ),
    gone as (
      delete from booking_months m using todo
      where m.company_id = ${companyId} and m.mes = todo.mes and m.version < todo.version
    ),
    added as (
      insert into booking_months
      select ${companyId}, todo.mes, todo.version, d.branch_id, d.user_id, d.environment_id, d.agenda_id, ${sums}
      from todo join booking_days d
        on d.company_id = ${companyId} and d.dia >= todo.mes and d.dia < (todo.mes + interval '1 month')::date
      group by todo.mes, todo.version, d.branch_id, d.user_id, d.environment_id, d.agenda_id
      order by todo.mes, todo.version, d.branch_id, d.user_id, d.environment_id, d.agenda_id
      on conflict do nothing
    ),
    marked as (
      insert into booking_month_state as s (company_id, mes, version, filled)
      select ${companyId}, mes, version, version from todo order by mes
      on conflict (company_id, mes) do update set filled = excluded.filled where s.version = excluded.version
    )
    select to_char(cover_from, 'YYYY-MM-DD') as cover_from, to_char(cover_to, 'YYYY-MM-DD') as cover_to from cover`.execute(
    db,
  );
  const [{ cover_from: from, cover_to: to }] = rows;
  return from < to ? { from, to } : null;
}

/**
 * The company's roll-up rows of the period, as a table with booking_days' columns (`dia` a month's first day for a
 * closed month's row). A month whose version moved after the fill above is read from its days: the choice is made in
 * the reading statement's snapshot.
 */
export async function rollupRows(
  db: Kysely<DB>,
  companyId: number,
  period: RollupPeriod,
): Promise<RawBuilder<BookingDays>> {
  const days = sql`select ${columns("d", "d.dia")} from booking_days d where d.company_id = ${companyId}`;
  const cover = await fillClosedMonths(db, companyId, period);
  if (!cover) return sql<BookingDays>`(${days} and d.dia between ${period.dataIni}::date and ${period.dataFim}::date)`;
  return sql<BookingDays>`(
    select ${columns("m", "m.mes")} from booking_months m
      join booking_month_state s on s.company_id = m.company_id and s.mes = m.mes
      where m.company_id = ${companyId} and m.mes >= ${cover.from}::date and m.mes < ${cover.to}::date
        and m.version = s.version and s.filled = s.version
    union all
    ${days} and d.dia >= ${period.dataIni}::date and d.dia < ${cover.from}::date
    union all
    ${days} and d.dia >= ${cover.to}::date and d.dia <= ${period.dataFim}::date
    union all
    select ${columns("d", "d.dia")}
      from generate_series(${cover.from}::timestamp, ${cover.to}::timestamp - interval '1 month', interval '1 month')
        as g(mes)
      left join booking_month_state s on s.company_id = ${companyId} and s.mes = g.mes::date
      join booking_days d on d.company_id = ${companyId} and d.dia >= g.mes::date
        and d.dia < (g.mes + interval '1 month')::date
      where s.filled is null or s.filled <> s.version
  )`;
}
