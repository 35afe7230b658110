import { sql, type Kysely } from "kysely";

import { assertEnvironmentInScope, type BranchQuery, type Scope } from "../../auth/scope.ts";
import type { DB } from "../../db/schema.ts";
import type { IncompleteSearchField } from "../../domain/incomplete-tasks.ts";
import { foldSearch, foldText, onePage, pageOf, type ListQuery } from "../../lib/list-query.ts";
import { iso } from "../../lib/openapi.ts";

import { reportBookingsQuery } from "./history.ts";

/**
 * The incomplete tasks report (spec 001 §2.11, issue 24 §1; docs/incomplete-tasks.md). An incomplete task is a
 * procedure of the room with no execution in a slot the collaborator closed as 'Incompleto' (with its reason). The
 * slots come from the reports' bookings query (scope, period, active agendas); the room's procedures are today's
 * list, as in the other reports. Every answer is one page, chosen and counted in SQL.
 */

export type IncompleteQuery = BranchQuery & {
  dataIni: string;
  dataFim: string;
  /** The list's search (§2.11 'Filtrar por'): in the collaborator's name, the room's or the procedure's. */
  campo?: IncompleteSearchField;
  q?: string;
};

/** The period's slots closed as 'Incompleto', in scope. */
async function incompleteSlots(db: Kysely<DB>, scope: Scope, query: IncompleteQuery & { environmentId?: number }) {
  const bookings = await reportBookingsQuery(db, scope, {
    dataIni: query.dataIni,
    dataFim: query.dataFim,
    companyId: query.companyId,
    filialId: query.filialId,
    filialClientId: query.filialClientId,
    environmentId: query.environmentId,
  });
  return bookings
    .where("b.status", "=", "Incompleto")
    .select([
      "b.id",
      "b.environment_id",
      "b.user_id",
      "b.data_agend",
      "b.start_date",
      "b.finished_at",
      "b.justificativa",
    ]);
}

/** The tasks not done in those slots, with the room, the collaborator and the procedure joined; searched. */
async function missingTasks(db: Kysely<DB>, scope: Scope, query: IncompleteQuery) {
  const slots = await incompleteSlots(db, scope, query);
  const term = query.q?.trim() ? foldSearch(query.q) : null;
  const searched = {
    colaborador: sql<boolean>`u.nome_folded like ${term}`,
    ambiente: sql<boolean>`e.name_folded like ${term}`,
    tarefa: sql<boolean>`p.name_folded like ${term}`,
  }[query.campo ?? "tarefa"];
  return db
    .selectFrom(slots.as("s"))
    .innerJoin("environment_procedures as ep", "ep.environment_id", "s.environment_id")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .innerJoin("environments as e", "e.id", "s.environment_id")
    .innerJoin("users as u", "u.id", "s.user_id")
    .where("p.deleted_at", "is", null)
    .where(sql<boolean>`not exists (select 1 from history h where h.booking_id = s.id and h.procedure_id = p.id)`)
    .$if(term !== null, (qb) => qb.where(searched));
}

/** The grid (§2.11): one entry per distinct procedure name with its count of incomplete tasks, by name, paged. */
export async function incompleteProcedures(db: Kysely<DB>, scope: Scope, query: IncompleteQuery & ListQuery) {
  const { page, size, limit, offset } = pageOf(query);
  const tasks = await missingTasks(db, scope, query);
  const rows = await tasks
    .groupBy("p.name")
    .select([
      "p.name as nome",
      sql<string>`count(*)`.as("tarefas"),
      sql<string>`min(p.name_folded)`.as("folded"),
      sql<string>`count(*) over ()`.as("total_rows"),
    ])
    .orderBy(sql`min(p.name_folded)`)
    .orderBy("p.name")
    .$call(onePage({ limit, offset }))
    .execute();
  const total = rows.length
    ? Number(rows[0].total_rows)
    : offset === 0
      ? 0
      : Number(
          (
            await db
              .selectFrom(tasks.groupBy("p.name").select("p.name").as("names"))
              .select(sql<string>`count(*)`.as("total"))
              .executeTakeFirstOrThrow()
          ).total,
        );
  return { rows: rows.map((row) => ({ nome: row.nome, tarefas: Number(row.tarefas) })), total, page, size };
}

export type IncompleteTaskRow = {
  bookingId: number;
  data: string;
  procedimento: string;
  inicio: string | null;
  fim: string | null;
  observacao: string | null;
  ambiente: { id: number; nome: string };
  colaborador: { id: number; nome: string; cpf: string; email: string; telefone: string; avatar: string | null };
};

/**
 * 'Histórico do Procedimento' (§2.11): the incomplete tasks of one procedure name (the list's search still applies),
 * newest first, with the modal's own search (`busca`) in the collaborator, the room and the reason; paged.
 */
export async function procedureHistory(
  db: Kysely<DB>,
  scope: Scope,
  query: IncompleteQuery & ListQuery & { nome: string; busca?: string },
) {
  const { page, size, limit, offset } = pageOf(query);
  const term = query.busca?.trim() ? foldSearch(query.busca) : null;
  const tasks = (await missingTasks(db, scope, query)).where("p.name", "=", query.nome).$if(term !== null, (qb) =>
    qb.where(
      sql<boolean>`(u.nome_folded like ${term} or e.name_folded like ${term}
          or ${foldText(sql`coalesce(s.justificativa, '')`)} like ${term})`,
    ),
  );
  const rows = await tasks
    .select([
      "s.id as booking_id",
      "s.data_agend",
      "p.name as procedimento",
      "s.start_date",
      "s.finished_at",
      "s.justificativa",
      "e.id as ambiente_id",
      "e.name as ambiente",
      "u.id as user_id",
      "u.nome",
      "u.cpf",
      "u.email",
      "u.telefone",
      "u.avatar",
      sql<string>`count(*) over ()`.as("total_rows"),
    ])
    .orderBy("s.data_agend", "desc")
    .orderBy(sql`s.finished_at desc nulls last`)
    .orderBy("s.id", "desc")
    .orderBy("p.id")
    .$call(onePage({ limit, offset }))
    .execute();
  const total = rows.length
    ? Number(rows[0].total_rows)
    : offset === 0
      ? 0
      : Number(
          (
            await db
              .selectFrom(tasks.select("s.id").as("tasks"))
              .select(sql<string>`count(*)`.as("total"))
              .executeTakeFirstOrThrow()
          ).total,
        );
  return {
    rows: rows.map((row): IncompleteTaskRow => ({
      bookingId: row.booking_id,
      data: row.data_agend,
      procedimento: row.procedimento,
      inicio: iso(row.start_date),
      fim: iso(row.finished_at),
      observacao: row.justificativa,
      ambiente: { id: row.ambiente_id, nome: row.ambiente },
      colaborador: {
        id: row.user_id,
        nome: row.nome,
        cpf: row.cpf,
        email: row.email,
        telefone: row.telefone,
        avatar: row.avatar,
      },
    })),
    total,
    page,
    size,
  };
}

export type RoomIncompleteSlot = {
  bookingId: number;
  data: string;
  colaborador: { id: number; nome: string; avatar: string | null };
  motivo: string | null;
  tarefas: { nome: string; feita: boolean }[];
};

/**
 * 'Tarefas Incompletas de {room}' (§2.11): the room's slots closed as 'Incompleto' in the period, newest first, each
 * with the collaborator, the reason and every procedure of the room marked done or not; searched (`busca`) in the
 * collaborator's name, the date as shown (dd/MM/yyyy) and the reason; paged. 404 for a room out of scope.
 */
export async function roomIncompleteSlots(
  db: Kysely<DB>,
  scope: Scope,
  query: IncompleteQuery & ListQuery & { environmentId: number; busca?: string },
) {
  await assertEnvironmentInScope(db, scope, query.environmentId);
  const room = await db
    .selectFrom("environments")
    .select("name")
    .where("id", "=", query.environmentId)
    .executeTakeFirstOrThrow();
  const { page, size, limit, offset } = pageOf(query);
  const term = query.busca?.trim() ? foldSearch(query.busca) : null;
  const slots = db
    .selectFrom((await incompleteSlots(db, scope, query)).as("s"))
    .innerJoin("users as u", "u.id", "s.user_id")
    .$if(term !== null, (qb) =>
      qb.where(
        sql<boolean>`(u.nome_folded like ${term} or to_char(s.data_agend, 'DD/MM/YYYY') like ${term}
          or ${foldText(sql`coalesce(s.justificativa, '')`)} like ${term})`,
      ),
    );
  const rows = await slots
    .select([
      "s.id",
      "s.data_agend",
      "s.justificativa",
      "u.id as user_id",
      "u.nome",
      "u.avatar",
      sql<{ nome: string; feita: boolean }[]>`coalesce((
        select json_agg(json_build_object('nome', p.name, 'feita',
          exists (select 1 from history h where h.booking_id = s.id and h.procedure_id = p.id))
          order by p.name_folded, p.id)
        from environment_procedures ep join procedures p on p.id = ep.procedure_id
        where ep.environment_id = s.environment_id and p.deleted_at is null), '[]')`.as("tarefas"),
      sql<string>`count(*) over ()`.as("total_rows"),
    ])
    .orderBy("s.data_agend", "desc")
    .orderBy(sql`s.finished_at desc nulls last`)
    .orderBy("s.id", "desc")
    .$call(onePage({ limit, offset }))
    .execute();
  const total = rows.length
    ? Number(rows[0].total_rows)
    : offset === 0
      ? 0
      : Number(
          (
            await db
              .selectFrom(slots.select("s.id").as("slots"))
              .select(sql<string>`count(*)`.as("total"))
              .executeTakeFirstOrThrow()
          ).total,
        );
  return {
    environment: room.name,
    rows: rows.map((row): RoomIncompleteSlot => ({
      bookingId: row.id,
      data: row.data_agend,
      colaborador: { id: row.user_id, nome: row.nome, avatar: row.avatar },
      motivo: row.justificativa,
      tarefas: row.tarefas,
    })),
    total,
    page,
    size,
  };
}
