import { sql, type Kysely } from "kysely";

import type { BranchQuery, Scope } from "../../auth/scope.ts";
import type { DB } from "../../db/schema.ts";
import type { ActivityFilter } from "../../domain/activities.ts";
import { cleaningType, type CleaningType } from "../../domain/reports.ts";
import { notFound } from "../../lib/errors.ts";
import { onePage, pageOf, sqlInt, type ListQuery } from "../../lib/list-query.ts";
import { hhmm, iso } from "../../lib/openapi.ts";
import { bookingIncidentId } from "../booking-incident.ts";
import { bookingsOfQuery } from "../scheduling.ts";

/**
 * The activity reports (spec 001 §2.12, §4 'Activity report'; issue 24 part 2; docs/activity-reports.md): one row per
 * booking (a day's slot) in the period and scope, the same bookings every report reads (`bookingsOfQuery`: tenant,
 * branch, client branch, field staff's own work; active bookings of active agendas), 'Feito' when it has history.
 * The page's ids are chosen, filtered and paged in SQL first; names and counts are then read for those rows only.
 */

export const ACTIVITY_SORTS = ["data", "empresa", "ambiente"] as const;
type ActivitySort = (typeof ACTIVITY_SORTS)[number];

/** Where `q` looks (§2.12 'text filter'): the branch's name (Empresa), the room (Ambiente), the collaborator. */
const ACTIVITY_SEARCH_FIELDS = ["filial", "ambiente", "colaborador"] as const;

/**
 * Whether a booking has history, and history with a photo (the §4 rule's input, api/domain/activities.ts), read from the
 * counts the database keeps on the booking (migration 014: bookings.executions, bookings.photos). A per-booking look-up
 * into history made a period's total cost one look-up per booking (a year's 'imagens' page ~2.3 s alone over ~970,000
 * history rows; as EXISTS the planner hashed every photo of the company instead; docs/activity-reports.md).
 */
const hasHistory = sql<boolean>`b.executions > 0`;
const hasPhoto = sql<boolean>`b.photos > 0`;

export type ActivityQuery = BranchQuery & ListQuery & { dataIni: string; dataFim: string; atividade: ActivityFilter };

export type ActivityRow = {
  id: number;
  empresa: string;
  ambiente: string;
  data: string;
  horaIni: string;
  horaFim: string;
  tipo: CleaningType;
  colaborador: string;
  historico: number;
  fotos: number;
  foto: string | null;
};

/** The bookings of the report's view: scope, period, search, then the activity filter. */
async function activityBookings(db: Kysely<DB>, scope: Scope, query: ActivityQuery) {
  const bookings = await bookingsOfQuery(db, scope, {
    dataIni: query.dataIni,
    dataFim: query.dataFim,
    companyId: query.companyId,
    filialId: query.filialId,
    filialClientId: query.filialClientId,
    q: query.q,
    campos: ACTIVITY_SEARCH_FIELDS,
  });
  switch (query.atividade) {
    case "todos":
      return bookings;
    case "feitas":
      return bookings.where(hasHistory);
    case "pendentes":
      return bookings.where(sql<boolean>`b.executions = 0`);
    case "imagens":
      return bookings.where(hasPhoto);
  }
}

/** One page of the report's activities and its total. */
export async function activityReport(db: Kysely<DB>, scope: Scope, query: ActivityQuery) {
  const bookings = await activityBookings(db, scope, query);
  const sort: ActivitySort = (ACTIVITY_SORTS as readonly string[]).includes(query.sort ?? "")
    ? (query.sort as ActivitySort)
    : "data";
  const direction = query.dir === "desc" ? sql`desc` : sql`asc`;
  const { page, size, limit, offset } = pageOf(query);
  // The day and time order of the bookings' (scope, data_agend, hora_ini, hora_fim, id) indexes; a name sort keeps it
  // after the name.
  const byName = {
    empresa: sql`(select br.nome_folded from branches br where br.id = b.branch_id)`,
    ambiente: sql`(select e.name_folded from environments e where e.id = b.environment_id)`,
  };
  // The page alone first (read in index order, it stops after the page), then the count when the page cannot tell
  // it: a window count over the page's query made it sort every row of the period (a year: 1.7 s against 0.3 s).
  const ids = await bookings
    .select("b.id")
    .$if(sort !== "data", (qb) => qb.orderBy(sql`${byName[sort as "empresa" | "ambiente"]} ${direction}`))
    .orderBy(sql`b.data_agend ${direction}`)
    .orderBy(sql`b.hora_ini ${direction}`)
    .orderBy(sql`b.hora_fim ${direction}`)
    .orderBy(sql`b.id ${direction}`)
    .$call(onePage({ limit, offset }))
    .execute();
  const total =
    ids.length < limit && (ids.length > 0 || offset === 0)
      ? offset + ids.length
      : Number(
          (
            await db
              .selectFrom(bookings.select("b.id").as("activities"))
              .select(sql<string>`count(*)`.as("total"))
              .executeTakeFirstOrThrow()
          ).total,
        );
  const rows = await readActivities(
    db,
    ids.map((row) => row.id),
  );
  return { rows, total, page, size };
}

/** The rows of these bookings, in the order of `ids`, with their names, history and photo counts, the first photo. */
async function readActivities(db: Kysely<DB>, ids: readonly number[]): Promise<ActivityRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("bookings as b")
    .innerJoin("environments as e", "e.id", "b.environment_id")
    .innerJoin("users as u", "u.id", "b.user_id")
    .leftJoin("branches as br", "br.id", "b.branch_id")
    .where("b.id", "in", ids)
    .select([
      "b.id",
      "b.data_agend",
      "b.slot",
      "b.hora_ini",
      "b.hora_fim",
      "br.nome as empresa",
      "e.name as ambiente",
      "u.nome as colaborador",
      "b.executions as historico",
      "b.photos as fotos",
      bookingIncidentId,
      sql<string | null>`(select h.image from history h where h.booking_id = b.id and h.image is not null
        order by h.created_at, h.id limit 1)`.as("foto"),
    ])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        empresa: row.empresa ?? "",
        ambiente: row.ambiente,
        data: row.data_agend,
        horaIni: hhmm(row.hora_ini),
        horaFim: hhmm(row.hora_fim),
        tipo: cleaningType(row.slot, row.incident_id),
        colaborador: row.colaborador,
        historico: row.historico,
        fotos: row.fotos,
        foto: row.foto,
      },
    ];
  });
}

/** At most this many executions in one slot's detail (a slot holds one per procedure of the room, a few extra). */
const MAX_DETAIL_EXECUTIONS = 500;

export type ActivityDetail = ActivityRow & {
  inicio: string | null;
  execucoes: {
    id: number;
    procedimento: string;
    createdAt: string;
    observacao: string | null;
    ocorrencia: string | null;
    image: string | null;
  }[];
};

/**
 * One activity ('Detalhes' / 'Detalhes do Agendamento'): the booking with its names and its executions in recorded
 * order. A booking outside the caller's scope (or not active, as the list's) is 404.
 */
export async function activityDetail(
  db: Kysely<DB>,
  scope: Scope,
  query: BranchQuery & { id: number },
): Promise<ActivityDetail> {
  // The day first (the scope query reads a period), then the same scope as the list, narrowed to the one booking.
  const day = await db
    .selectFrom("bookings")
    .select("data_agend")
    .where("id", "=", query.id)
    .where("company_id", "=", scope.companyId)
    .executeTakeFirst();
  if (!day) throw notFound();
  const bookings = await bookingsOfQuery(db, scope, {
    dataIni: day.data_agend,
    dataFim: day.data_agend,
    companyId: query.companyId,
    filialId: query.filialId,
    filialClientId: query.filialClientId,
    id: query.id,
  });
  const found = await bookings.select(["b.id", "b.start_date"]).executeTakeFirst();
  if (!found) throw notFound();
  const [row] = await readActivities(db, [found.id]);
  const executions = await db
    .selectFrom("history as h")
    .innerJoin("procedures as p", "p.id", "h.procedure_id")
    .where("h.booking_id", "=", found.id)
    .select(["h.id", "p.name as procedimento", "h.created_at", "h.observacao", "h.ocorrencia", "h.image"])
    .orderBy("h.created_at")
    .orderBy("h.id")
    .limit(sqlInt(MAX_DETAIL_EXECUTIONS))
    .execute();
  return {
    ...row,
    inicio: iso(found.start_date),
    execucoes: executions.map(({ created_at, ...execution }) => ({
      ...execution,
      createdAt: created_at.toISOString(),
    })),
  };
}
