import type { Kysely } from "kysely";

import {
  assertEnvironmentInScope,
  ownWorkOf,
  resolveBranchFilter,
  scopeBranch,
  type BranchQuery,
  type Scope,
} from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { SCHEDULE_TEXTS as T } from "../domain/schedule-texts.ts";
import { notFound } from "../lib/errors.ts";
import { limitPageBounds, limitPageRows, onePage } from "../lib/list-query.ts";

import { bookingIncidentId } from "./booking-incident.ts";
import { checkDateRange } from "./scheduling.ts";

/**
 * History reads (spec 001 §7 'GET /historic/v2/*'; docs/scheduling.md 'History and the execution API'): the executed
 * procedures (history rows) of the bookings of a date range, by company or branch, by agenda, or by environment,
 * always within the caller's scope. The range is the bookings' business dates (data_agend, America/Fortaleza), so a
 * read follows the bookings' (scope, data_agend) indexes and then history_booking_idx. History is what was done: it
 * shows whatever became of its booking later (deleted, agenda deactivated or removed).
 */

export type HistoryRange = { dataIni: string; dataFim: string; limit?: number; page?: number };

export type HistoryRow = {
  id: number;
  booking_id: number;
  procedure_id: number;
  procedure: string;
  revision_id: number | null;
  user_id: number;
  user_nome: string;
  created_at: Date;
  /** When the server received it (null before the field app; docs/field-app.md 'Proof flags'). */
  received_at: Date | null;
  updated_at: Date;
  image: string | null;
  observacao: string | null;
  ocorrencia: string | null;
  branch_id: number;
  agenda_id: number;
  environment_id: number;
  environment: string;
  data_agend: string;
  slot: number;
  /** Set on a corrective cleaning (its agenda's incident). */
  incident_id: number | null;
  hora_ini: string;
  hora_fim: string;
  status: "Andamento" | "Completo" | "Incompleto" | null;
  start_date: Date | null;
  finished_at: Date | null;
  justificativa: string | null;
};

function historyQuery(db: Kysely<DB>, scope: Scope, range: HistoryRange) {
  const own = ownWorkOf(scope);
  return db
    .selectFrom("bookings as b")
    .innerJoin("history as h", "h.booking_id", "b.id")
    .innerJoin("procedures as pr", "pr.id", "h.procedure_id")
    .innerJoin("users as u", "u.id", "h.user_id")
    .innerJoin("environments as e", "e.id", "b.environment_id")
    .select([
      "h.id",
      "h.booking_id",
      "h.procedure_id",
      "pr.name as procedure",
      "h.revision_id",
      "h.user_id",
      "u.nome as user_nome",
      "h.created_at",
      "h.received_at",
      "h.updated_at",
      "h.image",
      "h.observacao",
      "h.ocorrencia",
      "b.branch_id",
      "b.agenda_id",
      "b.environment_id",
      "e.name as environment",
      "b.data_agend",
      "b.slot",
      bookingIncidentId,
      "b.hora_ini",
      "b.hora_fim",
      "b.status",
      "b.start_date",
      "b.finished_at",
      "b.justificativa",
    ])
    .$if(own !== null, (qb) => qb.where("b.user_id", "=", own!))
    .where("b.data_agend", ">=", range.dataIni)
    .where("b.data_agend", "<=", range.dataFim)
    .orderBy("b.data_agend")
    .orderBy("b.hora_ini")
    .orderBy("h.created_at")
    .orderBy("h.id")
    .$call(onePage(limitPageBounds(range)));
}

/** GET /historic/v2/company: the history of the company, or one branch (companyId / filialId / filialClientId). */
export async function listCompanyHistory(
  db: Kysely<DB>,
  scope: Scope,
  query: BranchQuery & HistoryRange,
): Promise<HistoryRow[]> {
  checkDateRange(query);
  const filter = await resolveBranchFilter(db, scope, query);
  const rows = await historyQuery(db, scope, query)
    .where("b.company_id", "=", filter.companyId)
    .$if(filter.branchId !== undefined, (qb) => qb.where("b.branch_id", "=", filter.branchId!))
    .execute();
  return limitPageRows(rows, query);
}

/** GET /historic/v2/agenda: the history of one agenda in scope (a removed one too: its past stays readable). */
export async function listAgendaHistory(
  db: Kysely<DB>,
  scope: Scope,
  query: HistoryRange & { agendaId: number },
): Promise<HistoryRow[]> {
  checkDateRange(query);
  // The original client never asks for agenda -1 ('no agenda chosen'); answering nothing keeps it harmless.
  if (query.agendaId === -1) return [];
  const branch = scopeBranch(scope);
  const own = ownWorkOf(scope);
  const agenda = await db
    .selectFrom("agendas")
    .select("id")
    .where("id", "=", query.agendaId)
    .where("company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .$if(own !== null, (qb) => qb.where("user_id", "=", own!))
    .executeTakeFirst();
  if (!agenda) throw notFound(T.agendaNotFound);
  return limitPageRows(await historyQuery(db, scope, query).where("b.agenda_id", "=", agenda.id).execute(), query);
}

/** GET /historic/v2/byEnvironment/{id}: the history of one environment in scope (the room page: today, tomorrow). */
export async function listEnvironmentHistory(
  db: Kysely<DB>,
  scope: Scope,
  environmentId: number,
  range: HistoryRange,
): Promise<HistoryRow[]> {
  checkDateRange(range);
  await assertEnvironmentInScope(db, scope, environmentId);
  const rows = await historyQuery(db, scope, range)
    .where("b.environment_id", "=", environmentId)
    .where("b.company_id", "=", scope.companyId)
    .execute();
  return limitPageRows(rows, range);
}
