import { sql, type Kysely } from "kysely";

import type { Scope } from "../../auth/scope.ts";
import type { DB } from "../../db/schema.ts";
import {
  CLIENT_REPORT_INCIDENTS,
  CLIENT_REPORT_PHOTOS_PER_ROOM,
  CLIENT_REPORT_TEXTS,
  countedUntil,
  DEFAULT_LATE_TOLERANCE_MINUTES,
  emptyCounts,
  groupFigures,
  periodWeeks,
  sumCounts,
  type GroupFigures,
  type OutcomeCounts,
} from "../../domain/client-report.ts";
import { cleaningType, type CleaningType } from "../../domain/reports.ts";
import { BUSINESS_TIME_ZONE } from "../../domain/schedule-expansion.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { hhmm, iso } from "../../lib/openapi.ts";
import { bookingIncidentId } from "../booking-incident.ts";
import { bookingsOfQuery } from "../scheduling.ts";

/**
 * The client report (/relatorio-cliente, issue 24 part 3; docs/decisions/006-client-report.md): one branch, one
 * period. Every scheduled cleaning of the period up to today (one booking row: a day and a slot; active, of an active
 * agenda not removed, in scope) gets one outcome (api/domain/client-report.ts `slotOutcome`), counted in SQL per
 * (room, week) in one pass over the branch's (branch_id, data_agend) index; the rooms, the weeks and the summary are
 * sums of those few groups. Then the newest incidents ('Incompleto' with their reason) and the newest photos of each
 * room, each one bounded read.
 */

export type ClientReportQuery = {
  dataIni: string;
  dataFim: string;
  companyId?: number;
  filialId?: number;
  filialClientId?: number;
  /** Today in Fortaleza: days after it are not counted; today's open slots are 'pendentes'. */
  today: string;
};

export type ClientReportIncident = {
  bookingId: number;
  dataAgend: string;
  type: CleaningType;
  horaIni: string;
  horaFim: string;
  ambiente: string;
  colaborador: string;
  justificativa: string | null;
};

export type ClientReportPhoto = { image: string; dataAgend: string; procedure: string; createdAt: string };

export type ClientReport = {
  branch: { id: number; nome: string };
  period: { from: string; to: string; until: string };
  toleranceMinutes: number;
  summary: GroupFigures;
  environments: (GroupFigures & { environmentId: number; ambiente: string })[];
  weeks: (GroupFigures & { semana: string; inicio: string; fim: string })[];
  incidents: { items: ClientReportIncident[]; total: number };
  photos: { environmentId: number; ambiente: string; photos: ClientReportPhoto[] }[];
};

/** The outcome counts of a group of bookings `b` (the SQL twin of `slotOutcome`; `tolerance` in minutes). */
export const outcomeCounts = (today: string, tolerance: number) => {
  const late = sql`b.start_date > ((b.data_agend + b.hora_ini) at time zone ${BUSINESS_TIME_ZONE}) + make_interval(mins => ${tolerance}::int)`;
  return [
    sql<string>`count(*)`.as("agendadas"),
    sql<string>`count(*) filter (where b.status = 'Completo' and not coalesce(${late}, false))`.as("no_prazo"),
    sql<string>`count(*) filter (where b.status = 'Completo' and coalesce(${late}, false))`.as("atrasadas"),
    sql<string>`count(*) filter (where b.status is null and b.data_agend < ${today}::date)`.as("nao_iniciadas"),
    sql<string>`count(*) filter (where b.status = 'Incompleto')`.as("incompletas"),
    sql<string>`count(*) filter (where b.status = 'Andamento' and b.data_agend < ${today}::date)`.as("nao_concluidas"),
    sql<string>`count(*) filter (where (b.status is null or b.status = 'Andamento') and b.data_agend >= ${today}::date)`.as(
      "pendentes",
    ),
  ] as const;
};

type CountColumns = {
  agendadas: string;
  no_prazo: string;
  atrasadas: string;
  nao_iniciadas: string;
  incompletas: string;
  nao_concluidas: string;
  pendentes: string;
};

const countsOf = (row: CountColumns): OutcomeCounts => ({
  agendadas: Number(row.agendadas),
  noPrazo: Number(row.no_prazo),
  atrasadas: Number(row.atrasadas),
  naoIniciadas: Number(row.nao_iniciadas),
  incompletas: Number(row.incompletas),
  naoConcluidas: Number(row.nao_concluidas),
  pendentes: Number(row.pendentes),
});

/** The main company's tolerance (migration 013). */
export async function lateTolerance(db: Kysely<DB>, companyId: number) {
  const row = await db
    .selectFrom("companies")
    .select("late_tolerance_minutes")
    .where("id", "=", companyId)
    .executeTakeFirst();
  return row?.late_tolerance_minutes ?? DEFAULT_LATE_TOLERANCE_MINUTES;
}

export async function clientReport(db: Kysely<DB>, scope: Scope, query: ClientReportQuery): Promise<ClientReport> {
  if (query.companyId !== undefined && query.companyId !== scope.companyId) throw notFound();
  const requested = query.filialId ?? query.filialClientId;
  // A company-wide user reports on one branch they choose ('Todos' is no client's report); the others on their own.
  if (scope.level === "company" && (requested === undefined || requested === -1)) {
    throw new ApiError(400, CLIENT_REPORT_TEXTS.branchRequired, { filialId: [CLIENT_REPORT_TEXTS.branchRequired] });
  }
  const branchId = scope.level === "company" ? requested! : scope.branchId;
  const until = countedUntil({ from: query.dataIni, to: query.dataFim }, query.today);
  // The scope query of every list: another tenant's branch, or another branch for a client or a branch-level user,
  // is 404 here; field staff read only their own work.
  const bookings = await bookingsOfQuery(db, scope, {
    dataIni: query.dataIni,
    dataFim: until,
    companyId: query.companyId,
    filialId: requested,
  });
  const branch = await db
    .selectFrom("branches")
    .select(["id", "nome"])
    .where("id", "=", branchId)
    .where("company_id", "=", scope.companyId)
    .executeTakeFirst();
  if (!branch) throw notFound("Filial não encontrada");
  const tolerance = await lateTolerance(db, scope.companyId);

  const week = sql<string>`(b.data_agend - (extract(isodow from b.data_agend)::int - 1))`;
  const groups = await bookings
    .select(["b.environment_id", week.as("semana"), ...outcomeCounts(query.today, tolerance)])
    .groupBy(["b.environment_id", week])
    .execute();
  const names = new Map(
    groups.length === 0
      ? []
      : (
          await db
            .selectFrom("environments")
            .select(["id", "name"])
            .where(
              "id",
              "in",
              groups.map((group) => group.environment_id),
            )
            .execute()
        ).map((room) => [room.id, room.name]),
  );

  const byRoom = new Map<number, OutcomeCounts[]>();
  const byWeek = new Map<string, OutcomeCounts[]>();
  for (const group of groups) {
    const counts = countsOf(group);
    const monday = String(group.semana).slice(0, 10);
    byRoom.set(group.environment_id, [...(byRoom.get(group.environment_id) ?? []), counts]);
    byWeek.set(monday, [...(byWeek.get(monday) ?? []), counts]);
  }
  const environments = [...byRoom.entries()]
    .map(([environmentId, counts]) => ({
      environmentId,
      ambiente: names.get(environmentId) ?? "",
      ...groupFigures(sumCounts(counts)),
    }))
    .sort((a, b) => a.ambiente.localeCompare(b.ambiente, "pt-BR") || a.environmentId - b.environmentId);
  const weeks =
    query.dataIni > until
      ? []
      : periodWeeks({ from: query.dataIni, to: until }).map((entry) => ({
          ...entry,
          ...groupFigures(sumCounts(byWeek.get(entry.semana) ?? [emptyCounts()])),
        }));

  const incidentRows = await bookings
    .where("b.status", "=", "Incompleto")
    .innerJoin("environments as e", "e.id", "b.environment_id")
    .innerJoin("users as u", "u.id", "b.user_id")
    .select([
      "b.id",
      "b.data_agend",
      "b.slot",
      "b.hora_ini",
      "b.hora_fim",
      "b.justificativa",
      "e.name as ambiente",
      "u.nome as colaborador",
      bookingIncidentId,
      sql<string>`count(*) over ()`.as("total"),
    ])
    .orderBy("b.data_agend", "desc")
    .orderBy("b.hora_ini", "desc")
    .orderBy("b.id", "desc")
    .limit(CLIENT_REPORT_INCIDENTS)
    .execute();

  const sampled = bookings
    .innerJoin("history as h", "h.booking_id", "b.id")
    .innerJoin("procedures as p", "p.id", "h.procedure_id")
    .where("h.image", "is not", null)
    .select([
      "b.environment_id",
      "b.data_agend",
      "h.image",
      "h.created_at",
      "p.name as procedure",
      sql<string>`row_number() over (partition by b.environment_id order by h.created_at desc, h.id desc)`.as("n"),
    ]);
  const photoRows = await db
    .selectFrom(sampled.as("x"))
    .selectAll("x")
    .where(sql<boolean>`x.n <= ${CLIENT_REPORT_PHOTOS_PER_ROOM}`)
    .orderBy("x.environment_id")
    .orderBy("x.n")
    .execute();
  const photosByRoom = new Map<number, ClientReportPhoto[]>();
  for (const row of photoRows) {
    const list = photosByRoom.get(row.environment_id) ?? [];
    list.push({
      image: row.image!,
      dataAgend: row.data_agend,
      procedure: row.procedure,
      createdAt: iso(row.created_at) ?? "",
    });
    photosByRoom.set(row.environment_id, list);
  }

  return {
    branch,
    period: { from: query.dataIni, to: query.dataFim, until },
    toleranceMinutes: tolerance,
    summary: groupFigures(sumCounts(environments)),
    environments,
    weeks,
    incidents: {
      items: incidentRows.map((row) => ({
        bookingId: row.id,
        dataAgend: row.data_agend,
        type: cleaningType(row.slot, row.incident_id),
        horaIni: hhmm(row.hora_ini),
        horaFim: hhmm(row.hora_fim),
        ambiente: row.ambiente,
        colaborador: row.colaborador,
        justificativa: row.justificativa,
      })),
      total: incidentRows.length ? Number(incidentRows[0].total) : 0,
    },
    photos: environments
      .filter((room) => photosByRoom.has(room.environmentId))
      .map((room) => ({
        environmentId: room.environmentId,
        ambiente: room.ambiente,
        photos: photosByRoom.get(room.environmentId)!,
      })),
  };
}
