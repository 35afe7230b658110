/** Fixtures of the execution API's tests (tests/api/execution.test.ts, tests/api/field-execution.test.ts). */
import type { Kysely } from "kysely";

import type { DB } from "../../api/db/schema.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";

/** The first room of a branch with at least two procedures. */
export async function environmentWithProcedures(db: Kysely<DB>, branchId: number) {
  const row = await db
    .selectFrom("environments as e")
    .innerJoin("environment_procedures as ep", "ep.environment_id", "e.id")
    .select("e.id")
    .where("e.branch_id", "=", branchId)
    .where("e.deleted_at", "is", null)
    .groupBy("e.id")
    .having((eb) => eb.fn.countAll(), ">=", 2)
    .orderBy("e.id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A booking of today of the other tenant (Limpa Bem Serviços, branch Sede Recife) for `userId`, its administrator,
 * written directly: that tenant has no ASG.
 */
export async function otherTenantBooking(
  db: Kysely<DB>,
  ids: { other: number; recife: number },
  userId: number,
): Promise<number> {
  const today = businessToday();
  const environmentId = (
    await db
      .selectFrom("environments")
      .select("id")
      .where("branch_id", "=", ids.recife)
      .orderBy("id")
      .executeTakeFirstOrThrow()
  ).id;
  const periodicity = await db
    .insertInto("periodicities")
    .values({ branch_id: ids.recife, nome: "Outra", type: "12X", hora_base_inicial: "08:00", hora_base_final: "09:00" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const agendaRow = await db
    .insertInto("agendas")
    .values({
      company_id: ids.other,
      branch_id: ids.recife,
      environment_id: environmentId,
      periodicity_id: periodicity.id,
      user_id: userId,
      vig_ini: today,
      vig_fim: today,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const booking = await db
    .insertInto("bookings")
    .values({
      agenda_id: agendaRow.id,
      company_id: ids.other,
      branch_id: ids.recife,
      user_id: userId,
      environment_id: environmentId,
      data_agend: today,
      hora_ini: "08:00",
      hora_fim: "09:00",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return booking.id;
}
