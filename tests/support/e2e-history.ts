/**
 * History for the environment browser tests, written by e2e-prepare.ts before the server starts (no screen records
 * executions yet): kept apart from e2e-environments.ts, which needs the Playwright runner.
 */
import type { Database } from "../../api/db/connection.ts";

/** The environment e2e-prepare.ts gives a booking and an executed procedure: its removal is refused. */
export const ENVIRONMENT_WITH_HISTORY = { name: "E2E Ambiente com histórico", branch: "matriz" } as const;

/**
 * Run by e2e-prepare.ts before the server starts: ENVIRONMENT_WITH_HISTORY in Matriz Fortaleza with an agenda, a
 * completed booking and one history row (an executed procedure), as the execution app would leave them.
 */
export async function writeEnvironmentWithHistory(database: Database) {
  const { db } = database;
  const branch = await db
    .selectFrom("branches")
    .select(["id", "company_id"])
    .where("nome", "=", "Matriz Fortaleza")
    .executeTakeFirstOrThrow();
  const first = async (table: "categories" | "sectors" | "procedures" | "risks") =>
    db
      .selectFrom(table as "categories")
      .select("id")
      .where("branch_id", "=", branch.id)
      .orderBy("id")
      .executeTakeFirstOrThrow();
  const [category, sector, procedure, risk] = await Promise.all([
    first("categories"),
    first("sectors"),
    first("procedures"),
    first("risks"),
  ]);
  const user = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", "asg@demo.com.br")
    .executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    const environment = await trx
      .insertInto("environments")
      .values({
        name: ENVIRONMENT_WITH_HISTORY.name,
        andar: "Térreo",
        company_id: branch.company_id,
        branch_id: branch.id,
        category_id: category.id,
        sector_id: sector.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.insertInto("environment_risks").values({ environment_id: environment.id, risk_id: risk.id }).execute();
    await trx
      .insertInto("environment_procedures")
      .values({ environment_id: environment.id, procedure_id: procedure.id, mandatory: true })
      .execute();
    const periodicity = await trx
      .insertInto("periodicities")
      .values({
        branch_id: branch.id,
        nome: "E2E diária",
        type: "sem",
        dias_semana: "1,2,3,4,5",
        hora_base_inicial: "08:00",
        hora_base_final: "09:00",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const agenda = await trx
      .insertInto("agendas")
      .values({
        company_id: branch.company_id,
        branch_id: branch.id,
        environment_id: environment.id,
        periodicity_id: periodicity.id,
        user_id: user.id,
        vig_ini: "2026-01-01",
        vig_fim: "2026-01-31",
        ativo: false,
        finalizado: true,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const booking = await trx
      .insertInto("bookings")
      .values({
        agenda_id: agenda.id,
        company_id: branch.company_id,
        branch_id: branch.id,
        environment_id: environment.id,
        user_id: user.id,
        data_agend: "2026-01-05",
        hora_ini: "08:00",
        hora_fim: "09:00",
        status: "Completo",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("history")
      .values({ booking_id: booking.id, procedure_id: procedure.id, user_id: user.id, observacao: "Feito" })
      .execute();
  });
}
