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

/** Where a written slot lives and whose it is: a company, a branch, a room of it, a person. */
export type SlotOwner = { company: number; branch: number; room: number; user: number };

/**
 * An agenda of today written directly for `owner`, with a periodicity of its own (`nome`, `type`, its hours);
 * `incidentId` makes it an incident's corrective agenda.
 */
export async function writtenAgenda(
  db: Kysely<DB>,
  owner: SlotOwner,
  periodicity: { nome: string; type: "12X" | "sem"; hours: readonly [string, string] },
  incidentId?: number,
): Promise<number> {
  const today = businessToday();
  const { id: periodicityId } = await db
    .insertInto("periodicities")
    .values({
      branch_id: owner.branch,
      nome: periodicity.nome,
      type: periodicity.type,
      hora_base_inicial: periodicity.hours[0],
      hora_base_final: periodicity.hours[1],
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const agenda = await db
    .insertInto("agendas")
    .values({
      company_id: owner.company,
      branch_id: owner.branch,
      environment_id: owner.room,
      periodicity_id: periodicityId,
      user_id: owner.user,
      ...(incidentId === undefined ? {} : { incident_id: incidentId }),
      vig_ini: today,
      vig_fim: today,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return agenda.id;
}

/**
 * A booking of today, 08:00-09:00, written directly with its agenda (`periodicity` names the agenda's periodicity):
 * any owner, also one no API call writes. 'started': 'Andamento' since now, as a start leaves it.
 */
export async function writtenBooking(
  db: Kysely<DB>,
  owner: SlotOwner,
  options: { periodicity: string; state?: "todo" | "started" },
): Promise<number> {
  const agendaId = await writtenAgenda(db, owner, {
    nome: options.periodicity,
    type: "12X",
    hours: ["08:00", "09:00"],
  });
  const now = new Date();
  const booking = await db
    .insertInto("bookings")
    .values({
      agenda_id: agendaId,
      company_id: owner.company,
      branch_id: owner.branch,
      user_id: owner.user,
      environment_id: owner.room,
      data_agend: businessToday(),
      hora_ini: "08:00",
      hora_fim: "09:00",
      ...(options.state === "started" ? { status: "Andamento", start_date: now, start_received_at: now } : {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return booking.id;
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
  const room = await db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", ids.recife)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return writtenBooking(
    db,
    { company: ids.other, branch: ids.recife, room: room.id, user: userId },
    { periodicity: "Outra" },
  );
}
