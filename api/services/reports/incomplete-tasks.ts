import { sql, type Kysely, type RawBuilder } from "kysely";

import {
  assertEnvironmentInScope,
  ownWorkOf,
  resolveBranchFilter,
  type BranchQuery,
  type Scope,
} from "../../auth/scope.ts";
import type { DB } from "../../db/schema.ts";
import type { IncompleteSearchField } from "../../domain/incomplete-tasks.ts";
import { BUSINESS_TIME_ZONE } from "../../domain/schedule-expansion.ts";
import { foldSearch, foldText, onePage, pageOf, pageTotal, type ListQuery } from "../../lib/list-query.ts";
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
  /** 'Mostrar dados anteriores à Agosto/2022': the old system's rows too. */
  anteriores?: boolean;
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
  return bookings.where("b.status", "=", "Incompleto").select([
    "b.id",
    "b.environment_id",
    "b.user_id",
    "b.data_agend",
    "b.start_date",
    "b.finished_at",
    "b.justificativa",
    // The procedures recorded in the slot, read through history's booking index: a NOT EXISTS per task let the
    // planner hash the whole history table against a month's tasks (~0.6 s on a year of history).
    sql<number[]>`coalesce((select array_agg(h.procedure_id) from history h where h.booking_id = b.id), '{}')`.as(
      "done",
    ),
  ]);
}

/**
 * The list's search (§2.11 'Filtrar por': q in campo) on a task's collaborator (by id: every task has one), room or
 * procedure (folded names); null without a search.
 */
function listSearch(
  query: IncompleteQuery,
  on: { userId: RawBuilder<unknown>; room: RawBuilder<unknown>; procedure: RawBuilder<unknown> },
) {
  if (!query.q?.trim()) return null;
  const term = foldSearch(query.q);
  const field = query.campo ?? "tarefa";
  const condition = {
    colaborador: sql<boolean>`${on.userId} in (select u.id from users u where u.nome_folded like ${term})`,
    ambiente: sql<boolean>`${on.room} like ${term}`,
    tarefa: sql<boolean>`${on.procedure} like ${term}`,
  }[field];
  return { field, condition };
}

/**
 * The tasks not done in those slots, one row each in a shape the old system's rows share (`t`), with the list's
 * search applied. With `anteriores` the old system's rows of the period join them (docs/incomplete-tasks.md 'The old
 * system's data'): their booking id is the old row's, negative. The collaborator is joined by the caller, for the
 * rows of its page only.
 */
async function missingTasks(db: Kysely<DB>, scope: Scope, query: IncompleteQuery) {
  const slots = await incompleteSlots(db, scope, query);
  const current = db
    .selectFrom(slots.as("s"))
    .innerJoin("environment_procedures as ep", "ep.environment_id", "s.environment_id")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .innerJoin("environments as e", "e.id", "s.environment_id")
    .where("p.deleted_at", "is", null)
    .where(sql<boolean>`p.id <> all(s.done)`)
    .select([
      "s.id as booking_id",
      "s.data_agend",
      "p.name as procedimento",
      "p.name_folded as procedimento_folded",
      "s.start_date",
      "s.finished_at",
      "s.justificativa",
      "e.id as ambiente_id",
      "e.name as ambiente",
      "e.name_folded as ambiente_folded",
      "s.user_id",
    ]);
  const tasks = query.anteriores ? current.unionAll(await legacyTasks(db, scope, query)) : current;
  const search = listSearch(query, {
    userId: sql.ref("t.user_id"),
    room: sql.ref("t.ambiente_folded"),
    procedure: sql.ref("t.procedimento_folded"),
  });
  return db.selectFrom(tasks.as("t")).$if(search !== null, (qb) => qb.where(search!.condition));
}

/**
 * The old system's incomplete tasks of the period (§4 'Old-system rows': 'Incompleto' when an observation exists):
 * its rows with a procedure and an observation of their own, or one of the room's, collaborator's and day's old
 * observations; in the caller's scope, as the §7 old-system calls read them (api/services/legacy.ts).
 */
async function legacyTasks(db: Kysely<DB>, scope: Scope, query: IncompleteQuery) {
  const reach = await resolveBranchFilter(db, scope, query);
  const own = ownWorkOf(scope);
  const day = (column: string) => sql<string>`(${sql.ref(column)} at time zone ${BUSINESS_TIME_ZONE})::date`;
  const reason = sql<string | null>`coalesce(nullif(trim(lh.observacao), ''), (
    select lo.observacao from legacy_observations lo
    where lo.environment_id = lh.environment_id and lo.user_id = lh.user_id
      and ${day("lo.created_at")} = ${day("lh.inicio")} and trim(lo.observacao) <> ''
    order by lo.created_at, lo.id limit 1))`;
  return db
    .selectFrom("legacy_history as lh")
    .where("lh.company_id", "=", reach.companyId)
    .$if(reach.branchId !== undefined, (qb) => qb.where("lh.branch_id", "=", reach.branchId!))
    .$if(own !== null, (qb) => qb.where("lh.user_id", "=", own!))
    .where("lh.inicio", ">=", new Date(`${query.dataIni}T00:00:00-03:00`))
    .where("lh.inicio", "<", new Date(new Date(`${query.dataFim}T00:00:00-03:00`).getTime() + 86_400_000))
    .where("lh.procedimento_nome", "is not", null)
    .where(sql<boolean>`${reason} is not null`)
    .select([
      sql<number>`-lh.id`.as("booking_id"),
      day("lh.inicio").as("data_agend"),
      sql<string>`lh.procedimento_nome`.as("procedimento"),
      foldText("lh.procedimento_nome").as("procedimento_folded"),
      sql<Date | null>`lh.inicio`.as("start_date"),
      "lh.fim as finished_at",
      reason.as("justificativa"),
      "lh.environment_id as ambiente_id",
      "lh.ambiente_nome as ambiente",
      foldText("lh.ambiente_nome").as("ambiente_folded"),
      "lh.user_id",
    ]);
}

/**
 * The grid's counts per procedure name (more than one row per name with `anteriores`): the current system's tasks
 * counted from the slots, without a row per task nor the collaborator and room joined, and the old system's rows
 * grouped the same way. The slots are first grouped by room and recorded procedures (a room's slots left at the same
 * point collapse into one row), so each slot's `done` array is read once: with a row per task the planner evaluated
 * it once per (slot, room procedure) pair, 73,798 look-ups into history for the bench's 12,682 incomplete slots of a
 * year (~0.4 of the grid's 0.57 s; issue 24 part 1, docs/performance.md).
 */
async function procedureCounts(db: Kysely<DB>, scope: Scope, query: IncompleteQuery) {
  const slotSearch = listSearch(query, {
    userId: sql.ref("b.user_id"),
    room: sql`(select e.name_folded from environments e where e.id = b.environment_id)`,
    procedure: sql.ref("p.name_folded"),
  });
  // The collaborator's and the room's search narrow the slots before their look-ups; the procedure's, the tasks.
  const bySlot = slotSearch !== null && slotSearch.field !== "tarefa";
  const slots = (await incompleteSlots(db, scope, query)).$if(bySlot, (qb) => qb.where(slotSearch!.condition));
  const groups = db
    .selectFrom(slots.as("s"))
    .groupBy(["s.environment_id", "s.done"])
    .select(["s.environment_id", "s.done", sql<string>`count(*)`.as("slots")]);
  const current = db
    .selectFrom(groups.as("g"))
    .innerJoin("environment_procedures as ep", "ep.environment_id", "g.environment_id")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .where("p.deleted_at", "is", null)
    .where(sql<boolean>`p.id <> all(g.done)`)
    .$if(slotSearch !== null && !bySlot, (qb) => qb.where(slotSearch!.condition))
    .groupBy("p.name")
    .select([
      "p.name as nome",
      sql<string>`min(p.name_folded)`.as("nome_folded"),
      sql<string>`sum(g.slots)`.as("tarefas"),
    ]);
  if (!query.anteriores) return current;
  const search = listSearch(query, {
    userId: sql.ref("t.user_id"),
    room: sql.ref("t.ambiente_folded"),
    procedure: sql.ref("t.procedimento_folded"),
  });
  const legacy = db
    .selectFrom((await legacyTasks(db, scope, query)).as("t"))
    .$if(search !== null, (qb) => qb.where(search!.condition))
    .groupBy("t.procedimento")
    .select([
      "t.procedimento as nome",
      sql<string>`min(t.procedimento_folded)`.as("nome_folded"),
      sql<string>`count(*)`.as("tarefas"),
    ]);
  return current.unionAll(legacy);
}

/** The grid (§2.11): one entry per distinct procedure name with its count of incomplete tasks, by name, paged. */
export async function incompleteProcedures(db: Kysely<DB>, scope: Scope, query: IncompleteQuery & ListQuery) {
  const { page, size, limit, offset } = pageOf(query);
  const grid = db.selectFrom((await procedureCounts(db, scope, query)).as("c")).groupBy("c.nome");
  const rows = await grid
    .select(["c.nome", sql<string>`sum(c.tarefas)`.as("tarefas"), sql<string>`count(*) over ()`.as("total_rows")])
    .orderBy(sql`min(c.nome_folded)`)
    .orderBy("c.nome")
    .$call(onePage({ limit, offset }))
    .execute();
  const total = await pageTotal(db, rows, offset, () => grid.select("c.nome"));
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
 * newest first, with the modal's own search (`busca`) in the collaborator, the room and the reason; paged. The page
 * is chosen first and its 20 rows joined to their collaborators (not every task of the year: ~7,400 on the bench).
 */
export async function procedureHistory(
  db: Kysely<DB>,
  scope: Scope,
  query: IncompleteQuery & ListQuery & { nome: string; busca?: string },
) {
  const { page, size, limit, offset } = pageOf(query);
  const term = query.busca?.trim() ? foldSearch(query.busca) : null;
  const tasks = (await missingTasks(db, scope, query))
    .where("t.procedimento", "=", query.nome)
    .$if(term !== null, (qb) =>
      qb.where(
        sql<boolean>`(t.user_id in (select u.id from users u where u.nome_folded like ${term})
          or t.ambiente_folded like ${term} or ${foldText(sql`coalesce(t.justificativa, '')`)} like ${term})`,
      ),
    );
  const pageRows = tasks
    .select([
      "t.booking_id",
      "t.data_agend",
      "t.procedimento",
      "t.start_date",
      "t.finished_at",
      "t.justificativa",
      "t.ambiente_id",
      "t.ambiente",
      "t.user_id",
      sql<string>`count(*) over ()`.as("total_rows"),
    ])
    .orderBy("t.data_agend", "desc")
    .orderBy(sql`t.finished_at desc nulls last`)
    .orderBy("t.booking_id", "desc")
    .orderBy("t.procedimento")
    .$call(onePage({ limit, offset }));
  const rows = await db
    .selectFrom(pageRows.as("r"))
    .innerJoin("users as u", "u.id", "r.user_id")
    .selectAll("r")
    .select(["u.nome", "u.cpf", "u.email", "u.telefone", "u.avatar"])
    .orderBy("r.data_agend", "desc")
    .orderBy(sql`r.finished_at desc nulls last`)
    .orderBy("r.booking_id", "desc")
    .orderBy("r.procedimento")
    .execute();
  const total = await pageTotal(db, rows, offset, () => tasks.select("t.booking_id"));
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
  const total = await pageTotal(db, rows, offset, () => slots.select("s.id"));
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
