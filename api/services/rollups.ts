import { sql, type Kysely } from "kysely";

import type { BookingDays, DB } from "../db/schema.ts";

/**
 * The bookings roll-up's check and repair (docs/operations.md 'The bookings roll-up'): booking_days (migration 021,
 * kept by triggers on bookings) against the same figures grouped from the rows (its view booking_days_recount).
 */

/** A roll-up row's key: one company, branch, day, collaborator, room and agenda. */
export type RollupKey = {
  companyId: number;
  dia: string;
  branchId: number;
  userId: number;
  environmentId: number;
  agendaId: number;
};

export const ROLLUP_FIGURES = [
  "agendamentos",
  "completos",
  "incompletos",
  "andamento",
  "sem_status",
  "execucoes",
  "fotos",
  "tarefas_completas",
  "tarefas_incompletas",
  "tarefas_nenhuma",
  "iniciados",
  "medidos",
  "ms_reais",
  "ms_previstos",
] as const;
export type RollupFigures = Record<(typeof ROLLUP_FIGURES)[number], number>;

/** A key where the roll-up and the rows disagree; null: that side has no row for the key. */
export type RollupDifference = { key: RollupKey; stored: RollupFigures | null; expected: RollupFigures | null };

type KeyColumns = Pick<BookingDays, "company_id" | "dia" | "branch_id" | "user_id" | "environment_id" | "agenda_id">;

/** A key as booking_days names its columns. */
export const rollupKeyOf = (row: KeyColumns): RollupKey => ({
  companyId: row.company_id,
  dia: row.dia,
  branchId: row.branch_id,
  userId: row.user_id,
  environmentId: row.environment_id,
  agendaId: row.agenda_id,
});

const KEY = sql.raw("company_id, dia, branch_id, user_id, environment_id, agenda_id");
const figuresOf = (alias: "s" | "e") => sql.raw(ROLLUP_FIGURES.map((name) => `${alias}.${name}`).join(", "));
const asJson = (alias: "s" | "e") =>
  sql.raw(
    `case when ${alias}.agendamentos is null then null else ` +
      `json_build_object(${ROLLUP_FIGURES.map((name) => `'${name}', ${alias}.${name}`).join(", ")}) end`,
  );

/**
 * The keys where booking_days differs from the rows, in key order (all companies, or one): one statement, so on
 * PostgreSQL both sides are read at the same instant, while writers go on.
 */
export async function rollupDifferences(db: Kysely<DB>, companyId?: number): Promise<RollupDifference[]> {
  const company = companyId === undefined ? sql`true` : sql`company_id = ${companyId}`;
  const { rows } = await sql<
    KeyColumns & {
      stored: RollupFigures | null;
      expected: RollupFigures | null;
    }
  >`
    select ${KEY}, ${asJson("s")} stored, ${asJson("e")} expected
    from (select * from booking_days where ${company}) s
    full join (select * from booking_days_recount where ${company}) e using (${KEY})
    where (${figuresOf("s")}) is distinct from (${figuresOf("e")})
    order by ${KEY}`.execute(db);
  return rows.map((row) => ({
    key: rollupKeyOf(row),
    stored: row.stored,
    expected: row.expected,
  }));
}

/**
 * Writes one company's roll-up again from its rows (its slots' tasks first), in one transaction; answers how many
 * rows it holds now. The
 * table's EXCLUSIVE lock (readers go on) first waits for every transaction that has written bookings and not
 * committed (their triggers hold ROW EXCLUSIVE on booking_days), then holds back new writers' triggers until the
 * commit, so no write is counted twice or lost: one committed before is in the recount, one after adds to it.
 */
export async function rebuildRollup(db: Kysely<DB>, companyId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`lock table booking_days in exclusive mode`.execute(trx);
    // The slots' tasks first (bookings.tarefas_situacao, migration 022), from the history: the roll-up counts them.
    await sql`update bookings b set tarefas_situacao = t.situacao
      from booking_tasks(array(select e.id from environments e where e.company_id = ${companyId})) t
      where t.id = b.id and b.tarefas_situacao is distinct from t.situacao`.execute(trx);
    await sql`update bookings set tarefas_situacao = null
      where company_id = ${companyId} and executions = 0 and tarefas_situacao is not null`.execute(trx);
    await trx.deleteFrom("booking_days").where("company_id", "=", companyId).execute();
    const inserted =
      await sql`insert into booking_days select * from booking_days_recount where company_id = ${companyId}`.execute(
        trx,
      );
    return Number(inserted.numAffectedRows ?? 0);
  });
}
