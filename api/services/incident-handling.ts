import { sql, type Kysely } from "kysely";

import { scopeBranch, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { INCIDENT_HANDLING_TEXTS as T, type IncidentStatus } from "../domain/incidents.ts";
import { MAX_PAGE_ROWS } from "../domain/limits.ts";
import { ApiError, notFound } from "../lib/errors.ts";

import { moveOverdueAlert } from "./incident-alerts.ts";

/**
 * The managers' side of the incident loop (issue 28 §3–4, docs/incidents.md): the list with its filters, one
 * incident with its timeline, and the changes a manager makes (take it on, assign it, move its deadline, discard it
 * with a reason), each written with an event of the timeline in the same transaction. Scoped like every read: the
 * caller's main company, their branch for branch-level users and clients; any other id is 404.
 */

export type IncidentFilters = {
  status?: IncidentStatus;
  kindId?: number;
  branchId?: number;
  /** yyyy-MM-dd, the day reported, in America/Fortaleza. */
  from?: string;
  to?: string;
  overdue?: boolean;
  /** Open ones only ('aberta' and 'em_atendimento'): the board's strip. */
  open?: boolean;
  page: number;
  size: number;
};

const OPEN = ["aberta", "em_atendimento"] as const;

function scoped(db: Kysely<DB>, scope: Scope) {
  const branch = scopeBranch(scope);
  return db
    .selectFrom("incidents as i")
    .innerJoin("environments as e", "e.id", "i.environment_id")
    .innerJoin("branches as b", "b.id", "i.branch_id")
    .innerJoin("incident_kinds as k", "k.id", "i.kind_id")
    .leftJoin("users as o", "o.id", "i.owner_id")
    .where("i.company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("i.branch_id", "=", branch!));
}

const LIST_COLUMNS = [
  "i.id",
  "i.status",
  "i.relatos",
  "i.created_at",
  "i.prazo_at",
  "i.closed_at",
  "i.descricao",
  "e.id as environment_id",
  "e.name as ambiente",
  "b.id as branch_id",
  "b.nome as filial",
  "k.nome as tipo",
  "k.prova",
  "o.nome as responsavel",
] as const;

/** A page of the incidents in scope, newest first, with the total. */
export async function listIncidents(db: Kysely<DB>, scope: Scope, filters: IncidentFilters, now: Date) {
  const size = Math.min(filters.size || MAX_PAGE_ROWS, MAX_PAGE_ROWS);
  const query = scoped(db, scope)
    .$if(filters.status !== undefined, (qb) => qb.where("i.status", "=", filters.status!))
    .$if(filters.kindId !== undefined, (qb) => qb.where("i.kind_id", "=", filters.kindId!))
    .$if(filters.branchId !== undefined, (qb) => qb.where("i.branch_id", "=", filters.branchId!))
    .$if(filters.from !== undefined, (qb) =>
      qb.where("i.created_at", ">=", sql<Date>`(${filters.from}::date)::timestamp at time zone 'America/Fortaleza'`),
    )
    .$if(filters.to !== undefined, (qb) =>
      qb.where("i.created_at", "<", sql<Date>`((${filters.to}::date + 1)::timestamp) at time zone 'America/Fortaleza'`),
    )
    .$if(Boolean(filters.overdue), (qb) => qb.where("i.status", "in", OPEN).where("i.prazo_at", "<", now))
    .$if(Boolean(filters.open), (qb) => qb.where("i.status", "in", OPEN));
  const [rows, total] = await Promise.all([
    query
      .select(LIST_COLUMNS)
      .orderBy("i.created_at", "desc")
      .orderBy("i.id", "desc")
      .limit(size)
      .offset((filters.page - 1) * size)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((row) => withOverdue(row, now)), total: Number(total.n), page: filters.page, size };
}

const withOverdue = <Row extends { status: string; prazo_at: Date }>(row: Row, now: Date) => ({
  ...row,
  atrasada: (OPEN as readonly string[]).includes(row.status) && row.prazo_at < now,
});

/** One incident in scope with its whole timeline (at most a page of events: merged reports add one each). */
export async function readIncident(db: Kysely<DB>, scope: Scope, id: number, now: Date) {
  const row = await scoped(db, scope)
    .select([...LIST_COLUMNS, "i.foto", "i.motivo_descarte", "i.owner_id"])
    .where("i.id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound(T.notFound);
  const events = await db
    .selectFrom("incident_events as ev")
    .leftJoin("users as u", "u.id", "ev.user_id")
    .select(["ev.id", "ev.tipo", "ev.detalhe", "ev.foto", "ev.created_at", "u.nome as autor"])
    .where("ev.incident_id", "=", id)
    .orderBy("ev.id")
    .limit(MAX_PAGE_ROWS)
    .execute();
  return { ...withOverdue(row, now), eventos: events };
}

/** The collaborators a branch's incident may be assigned to: its coordinators and staff who manage registers. */
export async function incidentOwners(db: Kysely<DB>, scope: Scope, branchId: number) {
  return db
    .selectFrom("users")
    .select(["id", "nome"])
    .where("company_id", "=", scope.companyId)
    .where("ativo", "=", 1)
    .where((eb) =>
      eb.or([
        eb.and([eb("branch_id", "=", branchId), eb.or([eb("role_id", "=", 3), eb("role_id", "is", null)])]),
        eb("role_id", "in", [1, 2]),
      ]),
    )
    .where((eb) => eb.or([eb("coordenador", "is", null), eb("coordenador", "!=", 0)]))
    .orderBy("nome")
    .limit(MAX_PAGE_ROWS)
    .execute();
}

export type IncidentChange =
  | { tipo: "em_atendimento"; detalhe?: string }
  | { tipo: "descartada"; motivo: string }
  | { tipo: "prazo_alterado"; prazo: Date }
  | { tipo: "atribuida"; ownerId: number | null };

/** One manager's change to an open incident, and its event; a closed incident is 409. */
export async function changeIncident(
  db: Kysely<DB>,
  scope: Scope,
  userId: number,
  id: number,
  change: IncidentChange,
  now: Date,
) {
  const current = await readIncident(db, scope, id, now);
  if (!(OPEN as readonly string[]).includes(current.status)) throw new ApiError(409, T.closed);
  let detalhe = "";
  let set: Partial<{
    status: IncidentStatus;
    owner_id: number | null;
    prazo_at: Date;
    motivo_descarte: string;
    closed_at: Date;
  }>;
  switch (change.tipo) {
    case "em_atendimento":
      if (current.status === "em_atendimento") throw new ApiError(409, T.alreadyInProgress);
      set = { status: "em_atendimento" };
      detalhe = change.detalhe?.trim() ?? "";
      break;
    case "descartada": {
      const motivo = change.motivo.trim();
      if (!motivo) throw new ApiError(400, T.reasonRequired, { motivo: [T.reasonRequired] });
      if (motivo.length > 500) throw new ApiError(400, T.reasonTooLong, { motivo: [T.reasonTooLong] });
      set = { status: "descartada", motivo_descarte: motivo, closed_at: now };
      detalhe = motivo;
      break;
    }
    case "prazo_alterado":
      if (change.prazo <= now) throw new ApiError(400, T.deadlinePast, { prazo: [T.deadlinePast] });
      set = { prazo_at: change.prazo };
      detalhe = `Novo prazo: ${deadlineText(change.prazo)}`;
      break;
    case "atribuida": {
      if (change.ownerId !== null) {
        const owners = await incidentOwners(db, scope, current.branch_id);
        const owner = owners.find((candidate) => candidate.id === change.ownerId);
        if (!owner) throw notFound(T.ownerNotFound);
        detalhe = `Responsável: ${owner.nome}`;
      } else detalhe = "Responsável: coordenadores da filial";
      set = { owner_id: change.ownerId };
      break;
    }
  }
  await db.transaction().execute(async (trx) => {
    // Still open: two managers acting at once, the second finds it closed (409) instead of reopening it.
    const updated = await trx
      .updateTable("incidents")
      .set(set)
      .where("id", "=", id)
      .where("status", "in", change.tipo === "em_atendimento" ? ["aberta"] : OPEN)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n)
      throw new ApiError(409, change.tipo === "em_atendimento" ? T.alreadyInProgress : T.closed);
    await trx
      .insertInto("incident_events")
      .values({ incident_id: id, tipo: change.tipo, user_id: userId, detalhe, created_at: now })
      .execute();
    if (change.tipo === "prazo_alterado") await moveOverdueAlert(trx, id, change.prazo);
    if (change.tipo === "descartada") await dropCorrectiveBookings(trx, id);
  });
  return readIncident(db, scope, id, now);
}

/**
 * A closed incident needs no more corrective cleanings: its corrective bookings not started yet are removed (active
 * false, as 'Remover' does: the rows stay for the reports), so they leave the board, the calendar and the phones.
 */
export async function dropCorrectiveBookings(trx: Kysely<DB>, incidentId: number) {
  await trx
    .updateTable("bookings")
    .set({ active: false, updated_at: new Date() })
    .where("agenda_id", "in", (eb) =>
      eb.selectFrom("agendas").select("id").where("incident_id", "=", incidentId).where("deleted_at", "is", null),
    )
    .where("active", "=", true)
    .where("status", "is", null)
    .execute();
}

/** dd/MM/yyyy HH:mm in America/Fortaleza, as the timeline writes a deadline. */
export function deadlineText(value: Date) {
  return new Intl.DateTimeFormat("pt-BR", {
    timeZone: "America/Fortaleza",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  })
    .format(value)
    .replace(",", "");
}

/** The rooms a summary answers at most. */
const SUMMARY_ROOMS = MAX_PAGE_ROWS;

/**
 * Issue 28 §7, the numbers later reports read: per room of the scope, the visitors' ratings (count, mean) and the
 * incidents (reported, still open) of the period (days in America/Fortaleza). Rooms with neither are left out;
 * capped, those with most incidents first.
 */
export async function incidentSummary(
  db: Kysely<DB>,
  scope: Scope,
  filters: { from: string; to: string; branchId?: number },
) {
  const branch = filters.branchId ?? scopeBranch(scope);
  const start = sql<Date>`(${filters.from}::date)::timestamp at time zone 'America/Fortaleza'`;
  const end = sql<Date>`((${filters.to}::date + 1)::timestamp) at time zone 'America/Fortaleza'`;
  const ratings = db
    .selectFrom("room_ratings")
    .select([
      "environment_id",
      (eb) => eb.fn.countAll<string>().as("avaliacoes"),
      sql<string>`round(avg(nota), 2)`.as("media"),
    ])
    .where("company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .where("created_at", ">=", start)
    .where("created_at", "<", end)
    .groupBy("environment_id");
  const incidents = db
    .selectFrom("incidents")
    .select([
      "environment_id",
      (eb) => eb.fn.countAll<string>().as("ocorrencias"),
      sql<string>`count(*) filter (where status in ('aberta', 'em_atendimento'))`.as("abertas"),
    ])
    .where("company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .where("created_at", ">=", start)
    .where("created_at", "<", end)
    .groupBy("environment_id");
  const rows = await db
    .with("r", () => ratings)
    .with("i", () => incidents)
    .selectFrom("environments as e")
    .innerJoin("branches as b", "b.id", "e.branch_id")
    .leftJoin("r", "r.environment_id", "e.id")
    .leftJoin("i", "i.environment_id", "e.id")
    .select([
      "e.id",
      "e.name",
      "b.id as branch_id",
      "b.nome as filial",
      "r.avaliacoes",
      "r.media",
      "i.ocorrencias",
      "i.abertas",
    ])
    .where((eb) => eb.or([eb("r.environment_id", "is not", null), eb("i.environment_id", "is not", null)]))
    .orderBy(sql`coalesce(i.ocorrencias, 0)`, "desc")
    .orderBy(sql`coalesce(r.avaliacoes, 0)`, "desc")
    .orderBy("e.id")
    .limit(SUMMARY_ROOMS)
    .execute();
  return rows.map((row) => ({
    ambiente: { id: row.id, nome: row.name },
    filial: { id: row.branch_id, nome: row.filial },
    avaliacoes: Number(row.avaliacoes ?? 0),
    mediaAvaliacao: row.media === null ? null : Number(row.media),
    ocorrencias: Number(row.ocorrencias ?? 0),
    abertas: Number(row.abertas ?? 0),
  }));
}
