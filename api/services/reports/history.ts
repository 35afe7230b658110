import { sql, type Kysely } from "kysely";

import {
  assertEnvironmentInScope,
  assertUserInScope,
  ownWorkOf,
  resolveBranchFilter,
  type BranchQuery,
  type Scope,
} from "../../auth/scope.ts";
import type { BookingDays, DB } from "../../db/schema.ts";
import { dayStatus, reportSlot, type ReportBooking, type ReportSlot } from "../../domain/reports.ts";
import { ApiError } from "../../lib/errors.ts";
import {
  CURSOR_INVALID,
  decodeCursor,
  encodeCursor,
  onePage,
  pageOf,
  pageTotal,
  type ListQuery,
} from "../../lib/list-query.ts";
import { hhmm, iso, isoText } from "../../lib/openapi.ts";
import { bookingIncidentId } from "../booking-incident.ts";
import { rollupRows } from "../booking-months.ts";
import {
  legacyDayGroups,
  legacyDayRows,
  legacyDaySummaries,
  legacyRowsChunk,
  type LegacyHistoryRow,
} from "../legacy.ts";
import { bookingsOfQuery } from "../scheduling.ts";

import { environmentSearch, type EnvironmentSearchField } from "./environment-search.ts";

/**
 * The history the reports read (spec 001 §2.9, §2.10, §3 'Report row', §4; issue 23; docs/reports.md): the bookings
 * of a period in scope, narrowed to a collaborator, a room or the rooms a search finds, then read a bounded set at a
 * time (a page of groups, one day, a keyset chunk of slots) with each slot's procedures and executions, and shown by
 * the pure rules of api/domain/reports.ts. SQL chooses and pages; the rules decide statuses over one page of rows.
 */

export type ReportQuery = BranchQuery & {
  dataIni: string;
  dataFim: string;
  /** One collaborator's bookings (404 outside the scope). */
  userId?: number;
  /** One room's bookings (404 outside the scope). */
  environmentId?: number;
  /** The rooms' search (§2.15 'Environment dashboard'). */
  q?: string;
  campos?: readonly EnvironmentSearchField[];
};

/** The bookings a report reads: `bookingsOfQuery`'s scope and period, then the collaborator, the room, the search. */
export async function reportBookingsQuery(db: Kysely<DB>, scope: Scope, query: ReportQuery) {
  if (query.environmentId !== undefined) await assertEnvironmentInScope(db, scope, query.environmentId);
  const bookings = await bookingsOfQuery(db, scope, {
    dataIni: query.dataIni,
    dataFim: query.dataFim,
    companyId: query.companyId,
    filialId: query.filialId,
    filialClientId: query.filialClientId,
    asgId: query.userId,
  });
  const search = environmentSearch(query.q, query.campos);
  return bookings
    .$if(query.environmentId !== undefined, (qb) => qb.where("b.environment_id", "=", query.environmentId!))
    .$if(search !== null, (qb) =>
      qb.where(
        sql<boolean>`b.environment_id in (select e.id from environments e
          where e.company_id = ${scope.companyId} and ${search!(sql`e`)})`,
      ),
    );
}

/**
 * The same slots as `reportBookingsQuery`, read from the daily roll-up (migration 021, docs/reports.md 'The daily
 * roll-up'): one row per day, collaborator, room and agenda instead of one per slot, the agendas joined for their own
 * state (switched off or removed, their slots leave every report at once). For the grouped counts only; the rows
 * themselves (a day's detail, the exports) read the bookings. With `months`, a closed month's days are one row at its
 * first day (api/services/booking-months.ts): for the counts that group by no day.
 */
export async function reportDaysQuery(db: Kysely<DB>, scope: Scope, query: ReportQuery, months?: { today: string }) {
  if (query.environmentId !== undefined) await assertEnvironmentInScope(db, scope, query.environmentId);
  const filter = await resolveBranchFilter(db, scope, query);
  if (query.userId !== undefined) await assertUserInScope(db, scope, query.userId);
  const own = ownWorkOf(scope);
  const search = environmentSearch(query.q, query.campos);
  const rows = months
    ? await rollupRows(db, filter.companyId, { ...query, today: months.today })
    : sql<BookingDays>`booking_days`;
  return db
    .selectFrom(rows.as("b"))
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .leftJoin(roomTasks(db, filter.companyId), "rt.environment_id", "b.environment_id")
    .where("b.company_id", "=", filter.companyId)
    .$if(filter.branchId !== undefined, (qb) => qb.where("b.branch_id", "=", filter.branchId!))
    .$if(own !== null, (qb) => qb.where("b.user_id", "=", own!))
    .$if(query.userId !== undefined, (qb) => qb.where("b.user_id", "=", query.userId!))
    .$if(query.environmentId !== undefined, (qb) => qb.where("b.environment_id", "=", query.environmentId!))
    .where("b.dia", ">=", query.dataIni)
    .where("b.dia", "<=", query.dataFim)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    .$if(search !== null, (qb) =>
      qb.where(
        sql<boolean>`b.environment_id in (select e.id from environments e
          where e.company_id = ${scope.companyId} and ${search!(sql`e`)})`,
      ),
    );
}

/**
 * How many tasks each room of the company asks of a slot (its procedures not removed from the catalogue), as `rt`:
 * what a slot without any execution is read against (docs/reports.md 'One status for a slot').
 */
export const roomTasks = (db: Kysely<DB>, companyId: number) =>
  db
    .selectFrom("environment_procedures as ep")
    .innerJoin("procedures as p", "p.id", "ep.procedure_id")
    .where("p.company_id", "=", companyId)
    .where("p.deleted_at", "is", null)
    .select(["ep.environment_id", sql<number>`count(*)::int`.as("tarefas")])
    .groupBy("ep.environment_id")
    .as("rt");

/** A slot with no execution: done when its room asks for nothing (`rt` joined), else nothing done. */
const askedNothing = sql<boolean>`coalesce(rt.tarefas, 0) = 0`;

/**
 * `bookingCounts` over the roll-up's days: the same four figures, summed. The slots of a key without an execution are
 * its slots less those the roll-up sorted by their tasks (migration 022).
 */
export const dayCounts = (today: string) => {
  const unrecorded = sql`(b.agendamentos - b.tarefas_completas - b.tarefas_incompletas - b.tarefas_nenhuma)`;
  return [
    sql<string>`sum(b.agendamentos)::bigint`.as("agendamentos"),
    sql<string>`sum(b.tarefas_completas + case when ${askedNothing} then ${unrecorded} else 0 end)::bigint`.as(
      "completos",
    ),
    sql<string>`sum(b.tarefas_incompletas)::bigint`.as("incompletos"),
    sql<string>`coalesce(sum(b.tarefas_nenhuma + case when ${askedNothing} then 0 else ${unrecorded} end)
      filter (where b.dia < ${today}::date), 0)::bigint`.as("nao_realizados"),
  ] as const;
};

/**
 * A group's slot counts by §4's status of a slot (docs/reports.md 'One status for a slot'; the collaborator and room
 * cards): all; every task done ('Completo' or 'Cancelado'); some ('Incompleto'); none, on a day before today ('Não
 * Realizado'). Needs `roomTasks` joined as `rt`.
 */
export const bookingCounts = (today: string) => {
  const situation = sql`coalesce(b.tarefas_situacao, case when ${askedNothing} then 'completa' else 'nenhuma' end)`;
  return [
    sql<string>`count(*)`.as("agendamentos"),
    sql<string>`count(*) filter (where ${situation} = 'completa')`.as("completos"),
    sql<string>`count(*) filter (where ${situation} = 'incompleta')`.as("incompletos"),
    sql<string>`count(*) filter (where ${situation} = 'nenhuma' and b.data_agend < ${today}::date)`.as(
      "nao_realizados",
    ),
  ] as const;
};

/** A slot as the exports list it: the booking and the names a report row carries (§3 'Report row'). */
export type ReportBookingRow = ReportBooking & {
  agendaId: number;
  environmentId: number;
  userId: number;
  filial: string;
  ambiente: string;
  categoria: string;
  setor: string;
  andar: string;
  colaborador: string;
};

type ExecutionJson = {
  id: number;
  procedureId: number;
  procedure: string;
  observacao: string | null;
  ocorrencia: string | null;
  image: string | null;
  createdAt: unknown;
  receivedAt: unknown;
};

/**
 * The slots of these bookings, each with the room's procedures (today's list, by name: a procedure removed since
 * shows its executions as 'Extra') and the executions recorded in it, in the order of `ids`.
 */
export async function readReportBookings(db: Kysely<DB>, ids: readonly number[]): Promise<ReportBookingRow[]> {
  if (ids.length === 0) return [];
  // The slots first, then each room's procedures once (not once per slot), the names by joins.
  const rows = await db
    .with("bk", (qb) => qb.selectFrom("bookings").selectAll().where("id", "in", ids))
    .with("procs", (qb) =>
      qb
        .selectFrom("environment_procedures as ep")
        .innerJoin("procedures as p", "p.id", "ep.procedure_id")
        .where("ep.environment_id", "in", qb.selectFrom("bk").select("bk.environment_id"))
        .where("p.deleted_at", "is", null)
        .groupBy("ep.environment_id")
        .select([
          "ep.environment_id",
          sql<
            { id: number; name: string }[]
          >`json_agg(json_build_object('id', p.id, 'name', p.name) order by p.name_folded, p.id)`.as("list"),
        ]),
    )
    .selectFrom("bk as b")
    .innerJoin("environments as e", "e.id", "b.environment_id")
    .innerJoin("users as u", "u.id", "b.user_id")
    .leftJoin("branches as br", "br.id", "b.branch_id")
    .leftJoin("categories as c", "c.id", "e.category_id")
    .leftJoin("sectors as s", "s.id", "e.sector_id")
    .leftJoin("procs", "procs.environment_id", "b.environment_id")
    .select([
      "b.id",
      "b.agenda_id",
      "b.environment_id",
      "b.user_id",
      "b.data_agend",
      "b.slot",
      "b.hora_ini",
      "b.hora_fim",
      "b.start_date",
      "b.finished_at",
      "b.justificativa",
      "b.iniciada_via_qr",
      "b.envio_atraso_s",
      "b.start_received_at",
      "b.finish_received_at",
      bookingIncidentId,
      "e.name as ambiente",
      "e.andar",
      "u.nome as colaborador",
      "br.nome as filial",
      "c.name as categoria",
      "s.name as setor",
      sql<{ id: number; name: string }[]>`coalesce(procs.list, '[]')`.as("procedures"),
      sql<ExecutionJson[]>`coalesce((
        select json_agg(json_build_object('id', h.id, 'procedureId', h.procedure_id, 'procedure', pr.name,
          'observacao', h.observacao, 'ocorrencia', h.ocorrencia, 'image', h.image, 'createdAt', h.created_at,
          'receivedAt', h.received_at)
          order by h.created_at, h.id)
        from history h join procedures pr on pr.id = h.procedure_id where h.booking_id = b.id), '[]')`.as("executions"),
    ])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        agendaId: row.agenda_id,
        environmentId: row.environment_id,
        userId: row.user_id,
        dataAgend: row.data_agend,
        slot: row.slot,
        incidentId: row.incident_id,
        horaIni: hhmm(row.hora_ini),
        horaFim: hhmm(row.hora_fim),
        startDate: iso(row.start_date),
        finishedAt: iso(row.finished_at),
        justificativa: row.justificativa,
        viaQr: row.iniciada_via_qr,
        envioAtrasoS: row.envio_atraso_s,
        startReceivedAt: iso(row.start_received_at),
        finishReceivedAt: iso(row.finish_received_at),
        filial: row.filial ?? "",
        ambiente: row.ambiente,
        categoria: row.categoria ?? "",
        setor: row.setor ?? "",
        andar: row.andar,
        colaborador: row.colaborador,
        procedures: row.procedures,
        executions: row.executions.map((execution) => ({
          ...execution,
          createdAt: new Date(isoText(execution.createdAt)).toISOString(),
          receivedAt: execution.receivedAt === null ? null : new Date(isoText(execution.receivedAt)).toISOString(),
        })),
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------------------------
// A collaborator's days (§2.9 'History modal'; §2.10's second level: one room)

export type ReportDay = {
  data: string;
  environmentId: number;
  ambiente: string;
  slots: number;
  tarefas: number;
  feitas: number;
  status: ReturnType<typeof dayStatus>;
  /** A day of the old system (before August 2022, docs/legacy-data.md): its status is §4's old-system rule. */
  anterior?: boolean;
};

/**
 * One page of a collaborator's (room, day) groups in the period, newest day first, each with its §4 day status: the
 * groups are chosen and paged in SQL over the daily roll-up (a row per day, room and agenda: docs/reports.md 'The daily
 * roll-up'), then only the page's slots are read from the bookings.
 */
export async function reportDays(
  db: Kysely<DB>,
  scope: Scope,
  query: ReportQuery & ListQuery & { userId: number; today: string; anteriores?: boolean },
) {
  const { page, size, limit, offset } = pageOf(query);
  // The groups of the roll-up carry no slot ids (their slots are read for the page only, below); the old system's
  // carry their rows' ids.
  const bookingDays = (await reportDaysQuery(db, scope, query))
    .select([
      "b.dia as data_agend",
      "b.environment_id",
      sql<number[] | null>`null::int[]`.as("ids"),
      sql<boolean>`false`.as("anterior"),
    ])
    .groupBy(["b.dia", "b.environment_id"]);
  // 'Mostrar dados anteriores à Agosto/2022': the old system's days of the period, paged with the others.
  const days = query.anteriores
    ? bookingDays.unionAll(await legacyDayGroups(db, scope, { ...query, userId: query.userId }))
    : bookingDays;
  const groups = await db
    .selectFrom(days.as("g"))
    .innerJoin("environments as e", "e.id", "g.environment_id")
    .select([
      "g.data_agend",
      "g.environment_id",
      "e.name",
      "g.ids",
      "g.anterior",
      sql<string>`count(*) over ()`.as("total_rows"),
    ])
    .orderBy("g.data_agend", "desc")
    .orderBy("e.name_folded")
    .orderBy("g.environment_id")
    .$call(onePage({ limit, offset }))
    .execute();
  const slotIds = await pageSlotIds(
    await reportBookingsQuery(db, scope, query),
    groups.filter((group) => !group.anterior),
  );
  const slots = await readReportBookings(db, [...slotIds.values()].flat());
  const byId = new Map(slots.map((slot) => [slot.id, slot]));
  const old = await legacyDaySummaries(
    db,
    groups.filter((group) => group.anterior).map((group) => ({ ids: group.ids ?? [] })),
  );
  const items = groups.map((group): ReportDay => {
    const summary = group.anterior ? old.get(group.ids![0]) : undefined;
    if (summary) {
      return {
        data: group.data_agend,
        environmentId: group.environment_id,
        ambiente: group.name,
        ...summary,
        anterior: true,
      };
    }
    const ids = slotIds.get(groupKey(group.data_agend, group.environment_id)) ?? [];
    const day = ids.flatMap((id) => byId.get(id) ?? []);
    const shown = day.map((booking) => reportSlot(booking, query.today));
    const tasks = shown.flatMap((slot) => slot.tasks.filter((task) => task.type !== "Extra"));
    return {
      data: group.data_agend,
      environmentId: group.environment_id,
      ambiente: group.name,
      slots: day.length,
      tarefas: tasks.length,
      feitas: tasks.filter((task) => task.execution !== null).length,
      status: dayStatus(day, query.today),
    };
  });
  const total = await pageTotal(db, groups, offset, () => days);
  const { nome } = await db.selectFrom("users").select("nome").where("id", "=", query.userId).executeTakeFirstOrThrow();
  return { collaborator: nome, items, total, page, size };
}

/**
 * One collaborator's day in one room ('Detalhes do Histórico', §2.10's procedure details): its slots in order, each
 * with its tasks, status and times. Empty when nothing was scheduled (the page says 'Dados não encontrados…').
 */
export async function reportDay(
  db: Kysely<DB>,
  scope: Scope,
  query: BranchQuery & { data: string; userId: number; environmentId: number; today: string; anteriores?: boolean },
): Promise<{ environment: string; collaborator: string; slots: ReportSlot[]; legacy: LegacyHistoryRow[] }> {
  const bookings = await reportBookingsQuery(db, scope, { ...query, dataIni: query.data, dataFim: query.data });
  const ids = await bookings.select("b.id").orderBy("b.slot").orderBy("b.id").limit(100).execute();
  const day = await readReportBookings(
    db,
    ids.map((row) => row.id),
  );
  const names = day[0]
    ? { environment: day[0].ambiente, collaborator: day[0].colaborador }
    : await namesOf(db, query.environmentId, query.userId);
  // 'Mostrar dados anteriores à Agosto/2022': an old day's rows (the old system recorded what was done, one row each).
  const legacy = query.anteriores ? await legacyDayRows(db, scope, query) : [];
  return { ...names, slots: day.map((booking) => reportSlot(booking, query.today)), legacy };
}

const groupKey = (day: string, environmentId: number) => `${day}|${environmentId}`;

/** The slot ids of a page's (day, room) groups, each group's in slot order: one read of the bookings. */
async function pageSlotIds(
  bookings: Awaited<ReturnType<typeof reportBookingsQuery>>,
  groups: readonly { data_agend: string; environment_id: number }[],
) {
  const byGroup = new Map<string, number[]>();
  if (groups.length === 0) return byGroup;
  const rows = await bookings
    .where("b.data_agend", "in", [...new Set(groups.map((group) => group.data_agend))])
    .where("b.environment_id", "in", [...new Set(groups.map((group) => group.environment_id))])
    .select(["b.id", "b.data_agend", "b.environment_id"])
    .orderBy("b.slot")
    .orderBy("b.id")
    .execute();
  for (const row of rows) {
    const key = groupKey(row.data_agend, row.environment_id);
    byGroup.set(key, [...(byGroup.get(key) ?? []), row.id]);
  }
  return byGroup;
}

async function namesOf(db: Kysely<DB>, environmentId: number, userId: number) {
  const row = await db
    .selectFrom("environments as e")
    .innerJoin("users as u", (join) => join.on("u.id", "=", userId))
    .where("e.id", "=", environmentId)
    .select(["e.name as environment", "u.nome as collaborator"])
    .executeTakeFirst();
  return row ?? { environment: "", collaborator: "" };
}

// ---------------------------------------------------------------------------------------------------------------
// The export rows (§3 'Report row'): keyset chunks of slots

/** The chunk key: the slot's day and times (the bookings' (scope, data_agend, hora_ini, hora_fim, id) index order). */
const KEY = /^(\d{4}-\d{2}-\d{2})\|(\d{2}:\d{2}:\d{2})\|(\d{2}:\d{2}:\d{2})$/;
/** The old rows' keyset (their start instant) and the cursor that starts the bookings after the last old row. */
const LEGACY_KEY = "anterior|";
const BOOKINGS_FIRST = { key: "agendamentos", id: 0 };

/**
 * One chunk of the report's slots in day and time order, after the cursor `after` ('' for the first), at most
 * `size` slots (each brings its tasks), and the cursor of the next chunk (null after the last).
 */
export async function reportRowsChunk(
  db: Kysely<DB>,
  scope: Scope,
  query: ReportQuery & { after: string; size: number; anteriores?: boolean },
): Promise<{ slots: ReportBookingRow[]; legacy: LegacyHistoryRow[]; next: string | null }> {
  const cursor = query.after === "" ? null : decodeCursor(query.after);
  // 'Mostrar dados anteriores à Agosto/2022': the old system's rows first (they are older), then the bookings.
  if (query.anteriores && (cursor === null || cursor.key.startsWith(LEGACY_KEY))) {
    if (query.environmentId !== undefined) await assertEnvironmentInScope(db, scope, query.environmentId);
    if (query.userId !== undefined) await assertUserInScope(db, scope, query.userId);
    const inicio = cursor ? new Date(cursor.key.slice(LEGACY_KEY.length)) : null;
    if (inicio && Number.isNaN(inicio.getTime())) throw new ApiError(400, CURSOR_INVALID, { after: [CURSOR_INVALID] });
    const { rows, more } = await legacyRowsChunk(db, scope, {
      ...query,
      after: inicio && cursor ? { inicio, id: cursor.id } : null,
    });
    const last = rows.at(-1);
    const next = more && last ? { key: `${LEGACY_KEY}${last.inicio.toISOString()}`, id: last.id } : BOOKINGS_FIRST;
    return { slots: [], legacy: rows, next: encodeCursor(next) };
  }
  const key = cursor && cursor.key !== BOOKINGS_FIRST.key ? KEY.exec(cursor.key) : null;
  if (cursor && cursor.key !== BOOKINGS_FIRST.key && !key) {
    throw new ApiError(400, CURSOR_INVALID, { after: [CURSOR_INVALID] });
  }
  const bookings = await reportBookingsQuery(db, scope, query);
  const page = await bookings
    .select(["b.id", "b.data_agend", sql<string>`b.hora_ini::text`.as("ini"), sql<string>`b.hora_fim::text`.as("fim")])
    .$if(key !== null, (qb) =>
      qb.where(
        sql<boolean>`(b.data_agend, b.hora_ini, b.hora_fim, b.id) > (${key![1]}::date, ${key![2]}::time, ${key![3]}::time, ${cursor!.id})`,
      ),
    )
    .orderBy("b.data_agend")
    .orderBy("b.hora_ini")
    .orderBy("b.hora_fim")
    .orderBy("b.id")
    .limit(query.size + 1)
    .execute();
  const more = page.length > query.size;
  const chunk = more ? page.slice(0, query.size) : page;
  const last = chunk.at(-1);
  return {
    slots: await readReportBookings(
      db,
      chunk.map((row) => row.id),
    ),
    legacy: [],
    next:
      more && last
        ? encodeCursor({ key: `${last.data_agend}|${last.ini.slice(0, 8)}|${last.fim.slice(0, 8)}`, id: last.id })
        : null,
  };
}
