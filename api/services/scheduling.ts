import { differenceInCalendarDays } from "date-fns";
import { sql, type Kysely } from "kysely";

import { assertBranchInScope, resolveBranchFilter, scopeBranch, type BranchQuery, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { diffBookings, type StoredBooking } from "../domain/schedule-bookings.ts";
import {
  bookingSlots,
  businessToday,
  dayOf,
  expandAgenda,
  type AgendaItem,
  type BookingSlot,
} from "../domain/schedule-expansion.ts";
import {
  agendaItemFromSave,
  agendaItemFromUpdate,
  periodicityName,
  periodicityToWire,
  saveAgendaIssues,
  updateAgendaIssues,
  type SaveAgendaPayload,
  type UpdateAgendaPayload,
} from "../domain/schedule-payloads.ts";
import { isSchedulable, SCHEDULE_TEXTS as T, type ScheduleIssue } from "../domain/schedule-rules.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { limitPageBounds, onePage } from "../lib/list-query.ts";

/**
 * Scheduling (spec 001 §2.1-2.5, §5, §7 agendas and bookings; issue 12; docs/scheduling.md): agendas, their
 * periodicity and revisions, and their bookings (one row per date and slot), called by the HTTP routes and, later, by
 * the execution API and the demo simulator, always with the caller's scope. Ids outside the scope are 404; whether the
 * caller may write is the route's permission check. Writes run in one transaction each.
 */

/** 'Today' is passed in by tests; everyone else gets today in America/Fortaleza. */
export type SchedulingOptions = { today?: string };

/** Rows per insert or update statement (9 parameters each: well under PostgreSQL's 65,535). */
const BATCH = 1000;

// ---------------------------------------------------------------------------------------------------------------
// Checks shared by create and update

function issuesError(issues: ScheduleIssue[], prefix = "") {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) (fieldErrors[prefix + issue.field] ??= []).push(issue.message);
  return new ApiError(400, issues[0].message, fieldErrors);
}

/** The branch-level narrowing of a scope (null for company-level callers). */

/** A live environment of the tenant (of the caller's branch for branch-level users, else 404) in `branchId` (else 400). */
async function assertEnvironment(db: Kysely<DB>, scope: Scope, id: number, branchId: number, field: string) {
  const branch = scopeBranch(scope);
  const environment = await db
    .selectFrom("environments")
    .select(["id", "name", "branch_id"])
    .where("id", "=", id)
    .where("company_id", "=", scope.companyId)
    .where("deleted_at", "is", null)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .executeTakeFirst();
  if (!environment) throw new ApiError(404, T.environmentNotFound, { [field]: [T.environmentNotFound] });
  if (environment.branch_id !== branchId)
    throw new ApiError(400, T.environmentOtherBranch, { [field]: [T.environmentOtherBranch] });
  return environment;
}

/** A user of the tenant (of the caller's branch for branch-level users, else 404), schedulable in `branchId` (else 400). */
async function assertCollaborator(db: Kysely<DB>, scope: Scope, id: number, branchId: number, field: string) {
  const branch = scopeBranch(scope);
  const user = await db
    .selectFrom("users")
    .select(["id", "nome", "role_id", "coordenador", "ativo", "branch_id"])
    .where("id", "=", id)
    .where("company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .executeTakeFirst();
  if (!user) throw new ApiError(404, T.collaboratorNotFound, { [field]: [T.collaboratorNotFound] });
  const schedulable = isSchedulable({ roleId: user.role_id, coordenador: user.coordenador, ativo: user.ativo });
  if (!schedulable || user.branch_id !== branchId)
    throw new ApiError(400, T.collaboratorNotSchedulable, { [field]: [T.collaboratorNotSchedulable] });
  return user;
}

type BookingRef = { agendaId: number; companyId: number; branchId: number; userId: number; environmentId: number };

async function insertBookings(db: Kysely<DB>, ref: BookingRef, slots: readonly BookingSlot[]) {
  for (let start = 0; start < slots.length; start += BATCH) {
    await db
      .insertInto("bookings")
      .values(
        slots.slice(start, start + BATCH).map((slot) => ({
          agenda_id: ref.agendaId,
          company_id: ref.companyId,
          branch_id: ref.branchId,
          user_id: ref.userId,
          environment_id: ref.environmentId,
          data_agend: slot.dataAgend,
          slot: slot.slot,
          hora_ini: slot.horaIni,
          hora_fim: slot.horaFim,
        })),
      )
      // A kept row (started, deleted) holds its key: never replaced.
      .onConflict((oc) => oc.columns(["agenda_id", "data_agend", "slot"]).doNothing())
      .execute();
  }
}

/** The slots an agenda item wants from `from` (today, or its start if later) to its end. */
const wantedSlots = (item: AgendaItem, from: string) =>
  expandAgenda(item, { from, to: item.vigFim }).flatMap(bookingSlots);

function periodicityColumns(item: AgendaItem) {
  const wire = periodicityToWire(item.periodicity);
  return {
    type: wire.type,
    dias_semana: wire.DIAS_SEMANA,
    dias_semana_2: wire.DIAS_SEMANA_2,
    dias_mes: wire.DIAS_MES,
    datas_anuais: wire.DATAS_ANUAIS,
    hora_base_inicial: item.main.horaIni,
    hora_base_final: item.main.horaFim,
  };
}

async function inTransaction<R>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

// ---------------------------------------------------------------------------------------------------------------
// Create

export type CreatedAgenda = { id: number; bookings: number };

/**
 * POST /agendas/v2/saveAgenda: each item an agenda with its periodicity, revisions and bookings from its start (today
 * or later) to its end, all items in one transaction: one refused item writes nothing. Items are checked first
 * (the rules of spec 001 §5, with fields named `{index}.{payload field}`), then the ids against the scope.
 */
export async function createAgendas(
  db: Kysely<DB>,
  scope: Scope,
  items: readonly SaveAgendaPayload[],
  options: SchedulingOptions = {},
): Promise<CreatedAgenda[]> {
  const today = options.today ?? businessToday();
  items.forEach((payload, index) => {
    const issues = saveAgendaIssues(payload, { today });
    if (issues.length) throw issuesError(issues, items.length > 1 ? `${index}.` : "");
  });
  return inTransaction(db, async (trx) => {
    const created: CreatedAgenda[] = [];
    for (const payload of items) {
      const item = agendaItemFromSave(payload);
      const branchId = payload.Id_EmpresasFilial;
      await assertBranchInScope(trx, scope, branchId, { active: true });
      const environment = await assertEnvironment(trx, scope, payload.Id_Environments, branchId, "Id_Environments");
      const user = await assertCollaborator(trx, scope, payload.Id_Users, branchId, "Id_Users");
      const periodicity = await trx
        .insertInto("periodicities")
        .values({
          branch_id: branchId,
          nome: payload.Periodicidade.nome?.trim() || periodicityName(environment.name, user.nome, today),
          ...periodicityColumns(item),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (item.revisions.length) {
        await trx
          .insertInto("revisions")
          .values(
            item.revisions.map((slot) => ({
              periodicity_id: periodicity.id,
              branch_id: branchId,
              hora_inicial: slot.horaIni,
              hora_final: slot.horaFim,
            })),
          )
          .execute();
      }
      const agenda = await trx
        .insertInto("agendas")
        .values({
          company_id: scope.companyId,
          branch_id: branchId,
          environment_id: environment.id,
          periodicity_id: periodicity.id,
          user_id: user.id,
          revision_photos: item.revisionPhotos,
          vig_ini: item.vigIni,
          vig_fim: item.vigFim,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const slots = wantedSlots(item, today);
      await insertBookings(
        trx,
        { agendaId: agenda.id, companyId: scope.companyId, branchId, userId: user.id, environmentId: environment.id },
        slots,
      );
      created.push({ id: agenda.id, bookings: slots.length });
    }
    return created;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Update

export type UpdatedAgenda = { id: number; inserted: number; updated: number; removed: number; kept: number };

/**
 * PUT /agendas/updateAgenda: the agenda (locked, so two edits queue), its periodicity and revisions (matched by
 * Revisoes[].ID; new ones inserted, missing ones deleted), then its bookings reconciled by `diffBookings`: only open
 * rows (today or later, not started, no history, not deleted) follow the edit. The branch does not change.
 */
export async function updateAgenda(
  db: Kysely<DB>,
  scope: Scope,
  payload: UpdateAgendaPayload,
  options: SchedulingOptions = {},
): Promise<UpdatedAgenda> {
  const today = options.today ?? businessToday();
  return inTransaction(db, async (trx) => {
    const branch = scopeBranch(scope);
    const agenda = await trx
      .selectFrom("agendas")
      .select(["id", "branch_id", "periodicity_id", "vig_ini"])
      .where("id", "=", payload.ID)
      .where("company_id", "=", scope.companyId)
      .where("deleted_at", "is", null)
      .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
      .forUpdate()
      .executeTakeFirst();
    if (!agenda) throw new ApiError(404, T.agendaNotFound, { ID: [T.agendaNotFound] });

    const issues = updateAgendaIssues(payload, { originalVigIni: agenda.vig_ini });
    if (issues.length) throw issuesError(issues);
    await assertBranchInScope(trx, scope, payload.Id_EmpresasFilial);
    if (payload.Id_EmpresasFilial !== agenda.branch_id)
      throw new ApiError(400, T.branchFixed, { Id_EmpresasFilial: [T.branchFixed] });
    const environment = await assertEnvironment(
      trx,
      scope,
      payload.Id_Environments,
      agenda.branch_id,
      "Id_Environments",
    );
    const user = await assertCollaborator(trx, scope, payload.Id_Users, agenda.branch_id, "Id_Users");
    const item = agendaItemFromUpdate(payload);

    await trx
      .updateTable("agendas")
      .set({
        environment_id: environment.id,
        user_id: user.id,
        revision_photos: item.revisionPhotos,
        vig_ini: item.vigIni,
        vig_fim: item.vigFim,
        ...(payload.ATIVO === undefined ? {} : { ativo: payload.ATIVO }),
      })
      .where("id", "=", agenda.id)
      .execute();
    await trx
      .updateTable("periodicities")
      .set({
        ...periodicityColumns(item),
        ...(payload.Periodicidade.nome?.trim() ? { nome: payload.Periodicidade.nome.trim() } : {}),
      })
      .where("id", "=", agenda.periodicity_id)
      .execute();
    await syncRevisions(trx, agenda.periodicity_id, agenda.branch_id, payload.Periodicidade.Revisoes);

    const existing = await storedBookings(trx, agenda.id, today);
    const diff = diffBookings(
      existing,
      wantedSlots(item, today),
      { userId: user.id, environmentId: environment.id },
      today,
    );
    for (let start = 0; start < diff.remove.length; start += BATCH) {
      await trx
        .deleteFrom("bookings")
        .where("id", "in", diff.remove.slice(start, start + BATCH))
        .where("data_agend", ">=", today)
        .execute();
    }
    for (let start = 0; start < diff.update.length; start += BATCH) {
      const rows = diff.update
        .slice(start, start + BATCH)
        .map(
          (change) =>
            sql`(${change.id}::integer, ${change.horaIni}::time, ${change.horaFim}::time, ${change.userId}::integer, ${change.environmentId}::integer)`,
        );
      await sql`
        update bookings b set hora_ini = v.hora_ini, hora_fim = v.hora_fim, user_id = v.user_id,
          environment_id = v.environment_id, updated_at = now()
        from (values ${sql.join(rows)}) as v (id, hora_ini, hora_fim, user_id, environment_id)
        where b.id = v.id and b.data_agend >= ${today}::date and b.status is null`.execute(trx);
    }
    await insertBookings(
      trx,
      {
        agendaId: agenda.id,
        companyId: scope.companyId,
        branchId: agenda.branch_id,
        userId: user.id,
        environmentId: environment.id,
      },
      diff.insert,
    );
    return {
      id: agenda.id,
      inserted: diff.insert.length,
      updated: diff.update.length,
      removed: diff.remove.length,
      kept: diff.kept,
    };
  });
}

/** The periodicity's revision rows made to match the payload's (by ID; the others inserted; missing ones deleted). */
async function syncRevisions(
  db: Kysely<DB>,
  periodicityId: number,
  branchId: number,
  revisions: UpdateAgendaPayload["Periodicidade"]["Revisoes"],
) {
  const stored = await db.selectFrom("revisions").select("id").where("periodicity_id", "=", periodicityId).execute();
  const storedIds = new Set(stored.map((row) => row.id));
  const keep = new Set<number>();
  for (const revision of revisions) {
    const id = revision.ID ?? undefined;
    if (id !== undefined && storedIds.has(id) && !keep.has(id)) {
      keep.add(id);
      await db
        .updateTable("revisions")
        .set({ hora_inicial: revision.HORA_INICIAL, hora_final: revision.HORA_FINAL })
        .where("id", "=", id)
        .execute();
    } else {
      await db
        .insertInto("revisions")
        .values({
          periodicity_id: periodicityId,
          branch_id: branchId,
          hora_inicial: revision.HORA_INICIAL,
          hora_final: revision.HORA_FINAL,
        })
        .execute();
    }
  }
  const gone = [...storedIds].filter((id) => !keep.has(id));
  if (gone.length) await db.deleteFrom("revisions").where("id", "in", gone).execute();
}

/** The agenda's rows from today on (older ones are never touched, so never read), with their 'has history' flag. */
async function storedBookings(db: Kysely<DB>, agendaId: number, today: string): Promise<StoredBooking[]> {
  const rows = await db
    .selectFrom("bookings as b")
    .select((eb) => [
      "b.id",
      "b.data_agend",
      "b.slot",
      "b.hora_ini",
      "b.hora_fim",
      "b.user_id",
      "b.environment_id",
      "b.status",
      "b.start_date",
      "b.active",
      eb
        .exists(
          eb
            .selectFrom("history as h")
            .select(sql`1`.as("one"))
            .whereRef("h.booking_id", "=", "b.id"),
        )
        .as("has_history"),
    ])
    .where("b.agenda_id", "=", agendaId)
    .where("b.data_agend", ">=", today)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    dataAgend: row.data_agend,
    slot: row.slot,
    horaIni: row.hora_ini,
    horaFim: row.hora_fim,
    userId: row.user_id,
    environmentId: row.environment_id,
    status: row.status,
    startDate: row.start_date,
    hasHistory: Boolean(row.has_history),
    active: row.active,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Delete a booking

/**
 * DELETE /agendas/Agendamentos/{id}: hides one booking (active false); its row and history stay for the reports, and
 * since it keeps its (agenda, date, slot) key a later edit never brings it back. An already deleted one is 404.
 */
export async function deleteBooking(db: Kysely<DB>, scope: Scope, id: number) {
  const branch = scopeBranch(scope);
  const result = await db
    .updateTable("bookings")
    .set({ active: false, updated_at: new Date() })
    .where("id", "=", id)
    .where("company_id", "=", scope.companyId)
    .where("active", "=", true)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .executeTakeFirst();
  if (!result.numUpdatedRows) throw notFound(T.bookingNotFound);
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

/** One agenda as GET /agendas/{id} and the edit form need it. */
export type AgendaRow = {
  id: number;
  ativo: boolean;
  finalizado: boolean;
  data_finalizacao: Date | null;
  branch_id: number;
  empresa: string;
  environment_id: number;
  environment: string;
  periodicity_id: number;
  user_id: number;
  user_nome: string;
  revision_photos: boolean;
  vig_ini: string;
  vig_fim: string;
  periodicity: {
    id: number;
    nome: string;
    ativo: boolean;
    type: "sem" | "12X";
    dias_semana: string;
    dias_semana_2: string;
    dias_mes: number[];
    datas_anuais: string[];
    qtd_dias: number | null;
    hora_base_inicial: string;
    hora_base_final: string;
    created_at: Date;
  };
  revisions: { id: number; hora_inicial: string; hora_final: string }[];
};

/** One live agenda in scope (its company, and its branch for branch-level users), or 404. */
export async function findAgenda(db: Kysely<DB>, scope: Scope, id: number): Promise<AgendaRow> {
  const branch = scopeBranch(scope);
  const row = await db
    .selectFrom("agendas as a")
    .innerJoin("branches as br", "br.id", "a.branch_id")
    .innerJoin("environments as e", "e.id", "a.environment_id")
    .innerJoin("users as u", "u.id", "a.user_id")
    .innerJoin("periodicities as p", "p.id", "a.periodicity_id")
    .select([
      "a.id",
      "a.ativo",
      "a.finalizado",
      "a.data_finalizacao",
      "a.branch_id",
      "br.nome as empresa",
      "a.environment_id",
      "e.name as environment",
      "a.periodicity_id",
      "a.user_id",
      "u.nome as user_nome",
      "a.revision_photos",
      "a.vig_ini",
      "a.vig_fim",
      "p.id as p_id",
      "p.nome as p_nome",
      "p.ativo as p_ativo",
      "p.type as p_type",
      "p.dias_semana",
      "p.dias_semana_2",
      "p.dias_mes",
      "p.datas_anuais",
      "p.qtd_dias",
      "p.hora_base_inicial",
      "p.hora_base_final",
      "p.created_at as p_created_at",
    ])
    .where("a.id", "=", id)
    .where("a.company_id", "=", scope.companyId)
    .where("a.deleted_at", "is", null)
    .$if(branch !== null, (qb) => qb.where("a.branch_id", "=", branch!))
    .executeTakeFirst();
  if (!row) throw notFound(T.agendaNotFound);
  const revisions = await db
    .selectFrom("revisions")
    .select(["id", "hora_inicial", "hora_final"])
    .where("periodicity_id", "=", row.periodicity_id)
    .orderBy("hora_inicial")
    .orderBy("id")
    .execute();
  return {
    id: row.id,
    ativo: row.ativo,
    finalizado: row.finalizado,
    data_finalizacao: row.data_finalizacao,
    branch_id: row.branch_id,
    empresa: row.empresa,
    environment_id: row.environment_id,
    environment: row.environment,
    periodicity_id: row.periodicity_id,
    user_id: row.user_id,
    user_nome: row.user_nome,
    revision_photos: row.revision_photos,
    vig_ini: row.vig_ini,
    vig_fim: row.vig_fim,
    periodicity: {
      id: row.p_id,
      nome: row.p_nome,
      ativo: row.p_ativo,
      type: row.p_type,
      dias_semana: row.dias_semana,
      dias_semana_2: row.dias_semana_2,
      dias_mes: row.dias_mes,
      datas_anuais: row.datas_anuais,
      qtd_dias: row.qtd_dias,
      hora_base_inicial: row.hora_base_inicial,
      hora_base_final: row.hora_base_final,
      created_at: row.p_created_at,
    },
    revisions,
  };
}

/** The query forms of GET agendas/v2/Agendamentos/company (spec 001 §7). */
export type BookingListQuery = BranchQuery & {
  dataIni: string;
  dataFim: string;
  /** Per collaborator: only this user's bookings. */
  asgId?: number;
  /** One agenda's bookings (ours: the dashboard's schedule detail); an agenda out of scope simply has none. */
  agendaId?: number;
  /** Paged (report fetch: 400, agenda page: 500): `limit` rows of page `page` (from 1). */
  limit?: number;
  page?: number;
};

export type HistoricRow = {
  id: number;
  tasksId: number;
  revisionId: number | null;
  userId: number;
  createdAt: string;
  updatedAt: string;
  image: string | null;
  observacao: string | null;
  ocorrencia: string | null;
  procedure: string;
};

export type BookingRow = {
  id: number;
  agenda_id: number;
  company_id: number;
  branch_id: number;
  user_id: number;
  environment_id: number;
  data_agend: string;
  slot: number;
  hora_ini: string;
  hora_fim: string;
  status: "Andamento" | "Completo" | "Incompleto" | null;
  start_date: Date | null;
  vira_noite: boolean;
  justificativa: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  user_nome: string;
  user_email: string;
  user_telefone: string;
  user_cpf: string;
  user_avatar: string | null;
  empresa: string;
  agenda_ativo: boolean;
  finalizado: boolean;
  data_finalizacao: Date | null;
  periodicity_id: number;
  revision_photos: boolean;
  vig_ini: string;
  vig_fim: string;
  environment: string;
  andar: string;
  category_id: number;
  categoria: string;
  sector_id: number;
  setor: string;
  p_nome: string;
  p_type: "sem" | "12X";
  dias_semana: string;
  hora_base_inicial: string;
  hora_base_final: string;
  historic: HistoricRow[];
  finished_at: Date | null;
};

/** A user id of the query: of the tenant, and of the caller's branch for branch-level users, else 404. */
async function assertUserInScope(db: Kysely<DB>, scope: Scope, id: number) {
  const branch = scopeBranch(scope);
  const user = await db
    .selectFrom("users")
    .select("id")
    .where("id", "=", id)
    .where("company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .executeTakeFirst();
  if (!user) throw notFound(T.collaboratorNotFound);
}

const MAX_UNPAGED_DAYS = 400;

/**
 * The bookings of a date range in scope (spec 001 §7 'GET agendas/v2/Agendamentos/company', every form): the
 * company or one branch (companyId / filialId / filialClientId, checked against the scope), one collaborator (asgId),
 * paged by `limit` + `page`. Only what the original client kept, filtered here in SQL: active bookings of active,
 * not removed agendas. In day order, then by the slot's start and end, then id (a stable order for the pages), read
 * along the (scope, data_agend, hora_ini, hora_fim, id) indexes of migration 007. Each row carries its history.
 */
export async function listBookings(db: Kysely<DB>, scope: Scope, query: BookingListQuery): Promise<BookingRow[]> {
  if (query.dataFim < query.dataIni) throw new ApiError(400, T.dateRangeInvalid);
  if (
    query.limit === undefined &&
    differenceInCalendarDays(dayOf(query.dataFim), dayOf(query.dataIni)) > MAX_UNPAGED_DAYS
  )
    throw new ApiError(400, T.dateRangeTooLong);
  const filter = await resolveBranchFilter(db, scope, query);
  if (query.asgId !== undefined) await assertUserInScope(db, scope, query.asgId);
  const historic = sql<HistoricRow[]>`coalesce((
    select json_agg(json_build_object('id', h.id, 'tasksId', h.procedure_id, 'revisionId', h.revision_id,
      'userId', h.user_id, 'createdAt', h.created_at, 'updatedAt', h.updated_at, 'image', h.image,
      'observacao', h.observacao, 'ocorrencia', h.ocorrencia, 'procedure', pr.name) order by h.created_at, h.id)
    from history h join procedures pr on pr.id = h.procedure_id
    where h.booking_id = b.id), '[]'::json)`;
  return db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .innerJoin("users as u", "u.id", "b.user_id")
    .innerJoin("branches as br", "br.id", "b.branch_id")
    .innerJoin("environments as e", "e.id", "b.environment_id")
    .innerJoin("categories as cat", "cat.id", "e.category_id")
    .innerJoin("sectors as sec", "sec.id", "e.sector_id")
    .innerJoin("periodicities as p", "p.id", "a.periodicity_id")
    .select([
      "b.id",
      "b.agenda_id",
      "b.company_id",
      "b.branch_id",
      "b.user_id",
      "b.environment_id",
      "b.data_agend",
      "b.slot",
      "b.hora_ini",
      "b.hora_fim",
      "b.status",
      "b.start_date",
      "b.finished_at",
      "b.vira_noite",
      "b.justificativa",
      "b.active",
      "b.created_at",
      "b.updated_at",
      "u.nome as user_nome",
      "u.email as user_email",
      "u.telefone as user_telefone",
      "u.cpf as user_cpf",
      "u.avatar as user_avatar",
      "br.nome as empresa",
      "a.ativo as agenda_ativo",
      "a.finalizado",
      "a.data_finalizacao",
      "a.periodicity_id",
      "a.revision_photos",
      "a.vig_ini",
      "a.vig_fim",
      "e.name as environment",
      "e.andar",
      "e.category_id",
      "cat.name as categoria",
      "e.sector_id",
      "sec.name as setor",
      "p.nome as p_nome",
      "p.type as p_type",
      "p.dias_semana",
      "p.hora_base_inicial",
      "p.hora_base_final",
      historic.as("historic"),
    ])
    .where("b.company_id", "=", filter.companyId)
    .$if(filter.branchId !== undefined, (qb) => qb.where("b.branch_id", "=", filter.branchId!))
    .$if(query.asgId !== undefined, (qb) => qb.where("b.user_id", "=", query.asgId!))
    .$if(query.agendaId !== undefined, (qb) => qb.where("b.agenda_id", "=", query.agendaId!))
    .where("b.data_agend", ">=", query.dataIni)
    .where("b.data_agend", "<=", query.dataFim)
    .where("b.active", "=", true)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    .orderBy("b.data_agend")
    .orderBy("b.hora_ini")
    .orderBy("b.hora_fim")
    .orderBy("b.id")
    .$call(onePage(limitPageBounds(query)))
    .execute();
}

export type AsgRow = {
  id: number;
  nome: string;
  email: string;
  cpf: string;
  telefone: string;
  avatar: string | null;
  company_id: number;
  branch_id: number | null;
  coordenador: number | null;
  role_id: number | null;
  filial_client_id: number | null;
};

/**
 * GET agendas/v2/Agendamentos/listaAsg: the collaborators an agenda may be for (`isSchedulable`: active ASGs, and
 * old-system users without a role marked coordenador 0) in scope, optionally of one branch; by name.
 */
export async function listSchedulableUsers(db: Kysely<DB>, scope: Scope, query: BranchQuery): Promise<AsgRow[]> {
  const filter = await resolveBranchFilter(db, scope, query);
  return db
    .selectFrom("users")
    .select([
      "id",
      "nome",
      "email",
      "cpf",
      "telefone",
      "avatar",
      "company_id",
      "branch_id",
      "coordenador",
      "role_id",
      "filial_client_id",
    ])
    .where("company_id", "=", filter.companyId)
    .$if(filter.branchId !== undefined, (qb) => qb.where("branch_id", "=", filter.branchId!))
    .where("ativo", "=", 1)
    .where((eb) => eb.or([eb("role_id", "=", 5), eb.and([eb("role_id", "is", null), eb("coordenador", "=", 0)])]))
    .where("branch_id", "is not", null)
    .orderBy("nome_folded")
    .orderBy("id")
    .execute();
}
