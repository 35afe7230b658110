import { addDays, differenceInCalendarDays } from "date-fns";
import { sql, type Kysely, type RawBuilder } from "kysely";

import {
  assertBranchInScope,
  assertIdsInScope,
  assertUserInScope,
  ownWorkOf,
  resolveBranchFilter,
  scopeBranch,
  type BranchQuery,
  type Scope,
} from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import type { BookingStatusFilter } from "../domain/board.ts";
import { MAX_SUMMARY_DAYS, MAX_UNPAGED_DAYS } from "../domain/limits.ts";
import { diffBookings, type BookingDiff, type StoredBooking } from "../domain/schedule-bookings.ts";
import {
  bookingSlots,
  businessToday,
  dayOf,
  expandAgenda,
  isoDay,
  type AgendaItem,
  type BookingSlot,
} from "../domain/schedule-expansion.ts";
import {
  agendaItemFromSave,
  agendaItemFromStored,
  agendaItemFromUpdate,
  periodicityName,
  periodicityToWire,
  saveAgendaIssues,
  updateAgendaIssues,
  type SaveAgendaPayload,
  type UpdateAgendaPayload,
} from "../domain/schedule-payloads.ts";
import {
  isSchedulable,
  MAX_SAVE_BOOKINGS,
  MAX_SAVE_ITEMS,
  saveTooLargeMessage,
  type ScheduleIssue,
} from "../domain/schedule-rules.ts";
import { SCHEDULE_TEXTS as T } from "../domain/schedule-texts.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { cappedRows, foldSearch, limitPageBounds, limitPageRows, onePage } from "../lib/list-query.ts";

/**
 * Scheduling (spec 001 §2.1-2.5, §5, §7 agendas and bookings; issue 12; docs/scheduling.md): agendas, their
 * periodicity and revisions, and their bookings (one row per date and slot), called by the HTTP routes and, later, by
 * the execution API and the demo simulator, always with the caller's scope. Ids outside the scope are 404; whether the
 * caller may write is the route's permission check. Writes run in one transaction each.
 */

/** 'Today' is passed in by tests; everyone else gets today in America/Fortaleza. */
export type SchedulingOptions = { today?: string };

// ---------------------------------------------------------------------------------------------------------------
// Checks shared by create and update

function issuesError(issues: ScheduleIssue[], prefix = "") {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) (fieldErrors[prefix + issue.field] ??= []).push(issue.message);
  return new ApiError(400, issues[0].message, fieldErrors);
}

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

/** One step's new rows (at most STEP_ROWS) in one statement. */
async function insertBookings(db: Kysely<DB>, ref: BookingRef, slots: readonly BookingSlot[]) {
  if (!slots.length) return;
  // Four array parameters rather than nine per row: one short statement, planned once, whatever the count.
  await sql`
    insert into bookings (agenda_id, company_id, branch_id, user_id, environment_id, data_agend, slot, hora_ini, hora_fim)
    select ${ref.agendaId}::integer, ${ref.companyId}::integer, ${ref.branchId}::integer, ${ref.userId}::integer,
      ${ref.environmentId}::integer, v.data_agend, v.slot, v.hora_ini, v.hora_fim
    from unnest(${slots.map((slot) => slot.dataAgend)}::date[], ${slots.map((slot) => slot.slot)}::smallint[],
      ${slots.map((slot) => slot.horaIni)}::time[], ${slots.map((slot) => slot.horaFim)}::time[])
      as v (data_agend, slot, hora_ini, hora_fim)
    -- A kept row (started, deleted) holds its key: never replaced.
    on conflict (agenda_id, data_agend, slot) do nothing`.execute(db);
}

/** How many bookings an agenda item wants from `from` (today, or its start if later) to its end, without making them. */
const wantedCount = (item: AgendaItem, from: string) =>
  expandAgenda(item, { from, to: item.vigFim }).length * (1 + item.revisions.length);

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
// Bookings in steps (issue 22 item 2, docs/scheduling.md 'Writing bookings in steps')

/**
 * Rows one step may write: on the embedded database a transaction holds its only connection (and its thread), so a
 * step must be short (500 rows take about 30 ms there) for the requests queued behind it to get their turn.
 */
const STEP_ROWS = 500;

export type BookingChanges = { inserted: number; updated: number; removed: number; kept: number };

/** The agenda item an agenda's rows stand for (its periodicity and revisions as stored). */
async function storedAgendaItem(
  db: Kysely<DB>,
  agenda: { periodicity_id: number; revision_photos: boolean; vig_ini: string; vig_fim: string },
) {
  const [periodicity, revisions] = await Promise.all([
    db
      .selectFrom("periodicities")
      .select([
        "type",
        "dias_semana",
        "dias_semana_2",
        "dias_mes",
        "datas_anuais",
        "hora_base_inicial",
        "hora_base_final",
      ])
      .where("id", "=", agenda.periodicity_id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("revisions")
      .select(["hora_inicial", "hora_final"])
      .where("periodicity_id", "=", agenda.periodicity_id)
      .orderBy("hora_inicial")
      .orderBy("id")
      .execute(),
  ]);
  return agendaItemFromStored({ ...periodicity, ...agenda, revisions });
}

/**
 * One step: under the agenda's lock, the days from `from` on whose rows, stored or wanted, fit in STEP_ROWS are made
 * to match the agenda as it is now (`diffBookings`: only open rows change), and `pending_from` moves past them if no
 * newer edit reset it. Days with nothing stored before the validity starts are skipped, so a far start costs nothing.
 * Answers the next day to do, or null when the agenda is done (or removed).
 */
async function reconcileStep(db: Kysely<DB>, agendaId: number, from: string, today: string, changes: BookingChanges) {
  const agenda = await db
    .selectFrom("agendas")
    .select([
      "id",
      "company_id",
      "branch_id",
      "user_id",
      "environment_id",
      "periodicity_id",
      "revision_photos",
      "vig_ini",
      "vig_fim",
      "deleted_at",
    ])
    .where("id", "=", agendaId)
    .forUpdate()
    .executeTakeFirst();
  if (!agenda || agenda.deleted_at !== null) return null;
  const item = await storedAgendaItem(db, agenda);
  // What is stored from `from` on: rows past a shortened validity, or of more slots than the agenda now has, are
  // in the range too, until they are gone.
  const stored = await db
    .selectFrom("bookings")
    .select((eb) => [
      eb.fn.min("data_agend").as("first"),
      eb.fn.max("data_agend").as("last"),
      eb.fn.max("slot").as("slots"),
    ])
    .where("agenda_id", "=", agendaId)
    .where("data_agend", ">=", from)
    .executeTakeFirstOrThrow();
  const latest = (a: string, b: string | null) => (b !== null && b > a ? b : a);
  const earliest = (a: string, b: string | null) => (b !== null && b < a ? b : a);
  const last = latest(agenda.vig_fim, stored.last);
  const start = earliest(latest(from, agenda.vig_ini), stored.first);
  const done = async () => {
    await db
      .updateTable("agendas")
      .set({ pending_from: null, pending_at: null })
      .where("id", "=", agendaId)
      .where("pending_from", "=", from)
      .execute();
    return null;
  };
  if (start > last) return done();
  const slotsPerDay = Math.max(1 + item.revisions.length, 1 + (stored.slots ?? 0));
  const candidate = isoDay(addDays(dayOf(start), Math.max(1, Math.floor(STEP_ROWS / slotsPerDay)) - 1));
  const to = candidate < last ? candidate : last;
  const next = isoDay(addDays(dayOf(to), 1));

  const existing = await storedBookings(db, agendaId, start, to);
  const wanted = expandAgenda(item, { from: start, to }).flatMap(bookingSlots);
  const target = { userId: agenda.user_id, environmentId: agenda.environment_id };
  const diff = diffBookings(existing, wanted, target, today);
  await applyBookingDiff(
    db,
    { agendaId, companyId: agenda.company_id, branchId: agenda.branch_id, ...target },
    diff,
    today,
  );
  changes.inserted += diff.insert.length;
  changes.updated += diff.update.length;
  changes.removed += diff.remove.length;
  changes.kept += diff.kept;
  if (next > last) return done();
  // A newer edit may have moved pending_from back: then its own steps carry it, and this one leaves it.
  await db
    .updateTable("agendas")
    .set({ pending_from: next, pending_at: sql<Date>`now()` })
    .where("id", "=", agendaId)
    .where("pending_from", "=", from)
    .execute();
  return next;
}

/**
 * Writes a diff; the SQL re-checks that a row is still open, so a cleaning started after the diff was made is never
 * touched (exported for the test that shows it).
 */
export async function applyBookingDiff(db: Kysely<DB>, ref: BookingRef, diff: BookingDiff, today: string) {
  const stillOpen = sql<boolean>`b.data_agend >= ${today}::date and b.status is null and b.start_date is null and b.active
    and not exists (select 1 from history h where h.booking_id = b.id)`;
  if (diff.remove.length)
    await db.deleteFrom("bookings as b").where("b.id", "in", diff.remove).where(stillOpen).execute();
  if (diff.update.length) {
    const rows = diff.update.map(
      (change) =>
        sql`(${change.id}::integer, ${change.horaIni}::time, ${change.horaFim}::time, ${change.userId}::integer, ${change.environmentId}::integer)`,
    );
    await sql`
      update bookings b set hora_ini = v.hora_ini, hora_fim = v.hora_fim, user_id = v.user_id,
        environment_id = v.environment_id, updated_at = now()
      from (values ${sql.join(rows)}) as v (id, hora_ini, hora_fim, user_id, environment_id)
      where b.id = v.id and ${stillOpen}`.execute(db);
  }
  await insertBookings(db, ref, diff.insert);
}

/** Tries of one step: a step cut by a dropped connection (a PostgreSQL restart, a terminated backend) runs again. */
const STEP_TRIES = 3;
const stepRetryDelay = (attempt: number) => 200 * 4 ** attempt;

/**
 * Brings an agenda's bookings from `from` on in line with the agenda, a step (its own short transaction) at a time,
 * letting queued requests run between steps. Safe to run twice or side by side (each step locks the agenda and
 * reads it anew), so it also finishes what a stopped process left (`resumePendingBookings`).
 */
export async function reconcileBookings(
  db: Kysely<DB>,
  agendaId: number,
  options: { from: string; today: string },
): Promise<BookingChanges> {
  const changes: BookingChanges = { inserted: 0, updated: 0, removed: 0, kept: 0 };
  let from: string | null = options.from;
  while (from !== null) {
    const stepFrom: string = from;
    for (let attempt = 1; ; attempt++) {
      try {
        from = await inTransaction(db, (trx) => reconcileStep(trx, agendaId, stepFrom, options.today, changes));
        break;
      } catch (error) {
        if (db.isTransaction || attempt >= STEP_TRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, stepRetryDelay(attempt)));
      }
    }
    // Queued queries (the embedded database's other requests) run before the next step takes the connection.
    if (from !== null && !db.isTransaction) await new Promise((resolve) => setImmediate(resolve));
  }
  return changes;
}

/**
 * Finishes the agendas left half-written (pending_from set), from today on: at start, everything a stopped process
 * left; every minute (`idleFor`), those whose last step is older than that, so a save still writing is left to its
 * own request and a save cut by a lost connection is finished without a restart. One failing agenda does not stop
 * the others: its error is answered in `failed`, and the next run tries it again.
 */
export async function resumePendingBookings(
  db: Kysely<DB>,
  options: SchedulingOptions & { idleFor?: string } = {},
): Promise<{ finished: number[]; failed: { id: number; error: unknown }[] }> {
  const today = options.today ?? businessToday();
  const pending = await db
    .selectFrom("agendas")
    .select(["id", "pending_from"])
    .where("pending_from", "is not", null)
    .$if(options.idleFor !== undefined, (qb) =>
      qb.where(sql<boolean>`coalesce(pending_at, '-infinity') < now() - ${options.idleFor}::interval`),
    )
    .orderBy("id")
    .execute();
  const finished: number[] = [];
  const failed: { id: number; error: unknown }[] = [];
  for (const agenda of pending) {
    const from = agenda.pending_from! > today ? agenda.pending_from! : today;
    try {
      if (from !== agenda.pending_from)
        await db
          .updateTable("agendas")
          .set({ pending_from: from })
          .where("id", "=", agenda.id)
          .where("pending_from", "=", agenda.pending_from)
          .execute();
      await reconcileBookings(db, agenda.id, { from, today });
      finished.push(agenda.id);
    } catch (error) {
      failed.push({ id: agenda.id, error });
    }
  }
  return { finished, failed };
}

// ---------------------------------------------------------------------------------------------------------------
// Create

export type CreatedAgenda = { id: number; bookings: number };

/**
 * POST /agendas/v2/saveAgenda: each item an agenda with its periodicity, revisions and bookings from its start (today
 * or later) to its end. Every item is checked first (the rules of spec 001 §5, with fields named
 * `{index}.{payload field}`; at most MAX_SAVE_BOOKINGS bookings in all), then the agendas are written in one
 * transaction with the ids checked against the scope: one refused item writes nothing. Their bookings follow in steps
 * (`reconcileBookings`), so a large save never holds the database for long.
 */
export async function createAgendas(
  db: Kysely<DB>,
  scope: Scope,
  items: readonly SaveAgendaPayload[],
  options: SchedulingOptions & { incidentId?: number } = {},
): Promise<CreatedAgenda[]> {
  const today = options.today ?? businessToday();
  if (items.length > MAX_SAVE_ITEMS) throw new ApiError(400, T.itemsTooMany);
  let bookings = 0;
  items.forEach((payload, index) => {
    const issues = saveAgendaIssues(payload, { today });
    if (issues.length) throw issuesError(issues, items.length > 1 ? `${index}.` : "");
    bookings += wantedCount(agendaItemFromSave(payload), today);
  });
  if (bookings > MAX_SAVE_BOOKINGS) throw new ApiError(400, saveTooLargeMessage(bookings));
  const agendas = await inTransaction(db, async (trx) => {
    const ids: number[] = [];
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
          // A corrective cleaning (issue 28): its bookings are the incident's 'Extra'.
          incident_id: options.incidentId ?? null,
          pending_from: today,
          pending_at: sql<Date>`now()`,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(agenda.id);
    }
    return ids;
  });
  const created: CreatedAgenda[] = [];
  for (const id of agendas) {
    const changes = await reconcileBookings(db, id, { from: today, today });
    created.push({ id, bookings: changes.inserted });
  }
  return created;
}

// ---------------------------------------------------------------------------------------------------------------
// Update

export type UpdatedAgenda = { id: number } & BookingChanges;

/**
 * PUT /agendas/updateAgenda: the agenda (locked, so two edits queue), its periodicity and revisions (matched by
 * Revisoes[].ID; new ones inserted, missing ones deleted) in one transaction; then its bookings from today on follow in
 * steps (`reconcileBookings`, `diffBookings`): only open rows (today or later, not started, no history, not deleted)
 * change. The branch does not change.
 */
export async function updateAgenda(
  db: Kysely<DB>,
  scope: Scope,
  payload: UpdateAgendaPayload,
  options: SchedulingOptions = {},
): Promise<UpdatedAgenda> {
  const today = options.today ?? businessToday();
  const id = await inTransaction(db, async (trx) => {
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
        pending_from: today,
        pending_at: sql<Date>`now()`,
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
    return agenda.id;
  });
  return { id, ...(await reconcileBookings(db, id, { from: today, today })) };
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

/** The agenda's rows of a range of days (older ones are never touched, so never read), with their 'has history' flag. */
async function storedBookings(db: Kysely<DB>, agendaId: number, from: string, to: string): Promise<StoredBooking[]> {
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
    .where("b.data_agend", ">=", from)
    .where("b.data_agend", "<=", to)
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
  const own = ownWorkOf(scope);
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
    .$if(own !== null, (qb) => qb.where("a.user_id", "=", own!))
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

/** The fields the bookings' search (`q`) may look in (ours: the board's and the calendar's search boxes). */
export const BOOKING_SEARCH_FIELDS = ["colaborador", "email", "filial", "ambiente", "setor", "horario"] as const;
export type BookingSearchField = (typeof BOOKING_SEARCH_FIELDS)[number];

/** The query forms of GET agendas/v2/Agendamentos/company (spec 001 §7), with our search and status filter. */
export type BookingListQuery = BranchQuery & {
  dataIni: string;
  dataFim: string;
  /** Per collaborator: only this user's bookings. */
  asgId?: number;
  /** One agenda's bookings (ours: the dashboard's schedule detail); an agenda out of scope simply has none. */
  agendaId?: number;
  /** Ours: one booking (the remove page's look-up); out of scope, none. */
  id?: number;
  /** Ours: a case- and accent-insensitive search in `campos` (every field when none is given). */
  q?: string;
  campos?: readonly BookingSearchField[];
  /** Ours: one board column. */
  status?: BookingStatusFilter;
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
  /** Set on a corrective cleaning's agenda: the incident it answers ('Extra'). */
  incident_id: number | null;
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
  /** The field app's proof (docs/field-app.md 'Proof flags'). */
  iniciada_via_qr: boolean | null;
  envio_atraso_s: number | null;
  start_received_at: Date | null;
  finish_received_at: Date | null;
};

/**
 * The date range of the bookings and history lists: end on or after the start, and without `limit` at most
 * MAX_UNPAGED_DAYS (an unpaged answer is capped at MAX_BOOKING_ROWS rows as well).
 */
export function checkDateRange(range: { dataIni: string; dataFim: string; limit?: number }) {
  if (range.dataFim < range.dataIni) throw new ApiError(400, T.dateRangeInvalid);
  if (
    range.limit === undefined &&
    differenceInCalendarDays(dayOf(range.dataFim), dayOf(range.dataIni)) > MAX_UNPAGED_DAYS
  )
    throw new ApiError(400, T.dateRangeTooLong);
}

/**
 * The bookings a list or summary counts, filtered in SQL: the scope (checked: 404 outside it), the dates, active
 * bookings of active, not removed agendas (what the original client kept), a collaborator, an agenda, a status, and
 * the search. The search looks for the ids of the company's users, branches, rooms or sectors whose folded name
 * matches (sub-selects over the company, as the catalogue lists do), or in the slot's times, so no row is joined to
 * be searched.
 */
export async function bookingsOfQuery(db: Kysely<DB>, scope: Scope, query: BookingListQuery) {
  const filter = await resolveBranchFilter(db, scope, query);
  if (query.asgId !== undefined) await assertUserInScope(db, scope, query.asgId);
  if (query.agendaId !== undefined) await assertIdsInScope(db, scope, "agendas", [query.agendaId], T.agendaNotFound);
  if (query.id !== undefined) await assertIdsInScope(db, scope, "bookings", [query.id], T.bookingNotFound);
  const search = query.q?.trim() ? foldSearch(query.q) : null;
  const fields = query.campos?.length ? query.campos : BOOKING_SEARCH_FIELDS;
  const companyId = filter.companyId;
  const status = query.status;
  const own = ownWorkOf(scope);
  /** The ids of the company's rows of `table` whose folded `column` holds the search. */
  const idsMatching = (table: string, column: RawBuilder<string>) =>
    sql`(select m.id from ${sql.table(table)} m where m.company_id = ${companyId} and ${column} like ${search})`;
  const matches = (field: BookingSearchField) => {
    switch (field) {
      case "colaborador":
        return sql`b.user_id in ${idsMatching("users", sql`m.nome_folded`)}`;
      case "email":
        return sql`b.user_id in ${idsMatching("users", sql`lower(m.email)`)}`;
      case "filial":
        return sql`b.branch_id in ${idsMatching("branches", sql`m.nome_folded`)}`;
      case "ambiente":
        return sql`b.environment_id in ${idsMatching("environments", sql`m.name_folded`)}`;
      case "setor":
        return sql`b.environment_id in ${idsMatching("environments", sql`(select s.name_folded from sectors s where s.id = m.sector_id)`)}`;
      case "horario":
        return sql`(to_char(b.hora_ini, 'HH24:MI') like ${search} or to_char(b.hora_fim, 'HH24:MI') like ${search})`;
    }
  };
  return db
    .selectFrom("bookings as b")
    .innerJoin("agendas as a", "a.id", "b.agenda_id")
    .where("b.company_id", "=", companyId)
    .$if(own !== null, (qb) => qb.where("b.user_id", "=", own!))
    .$if(filter.branchId !== undefined, (qb) => qb.where("b.branch_id", "=", filter.branchId!))
    .$if(query.asgId !== undefined, (qb) => qb.where("b.user_id", "=", query.asgId!))
    .$if(query.agendaId !== undefined, (qb) => qb.where("b.agenda_id", "=", query.agendaId!))
    .$if(query.id !== undefined, (qb) => qb.where("b.id", "=", query.id!))
    .where("b.data_agend", ">=", query.dataIni)
    .where("b.data_agend", "<=", query.dataFim)
    .where("b.active", "=", true)
    .where("a.ativo", "=", true)
    .where("a.deleted_at", "is", null)
    .$if(status !== undefined, (qb) =>
      status === "aFazer" ? qb.where("b.status", "is", null) : qb.where("b.status", "=", status!),
    )
    .$if(search !== null, (qb) => qb.where(sql<boolean>`(${sql.join(fields.map(matches), sql` or `)})`));
}

/**
 * The bookings of a date range in scope (spec 001 §7 'GET agendas/v2/Agendamentos/company', every form), filtered as
 * `bookingsOfQuery` says, paged by `limit` + `page`; without `limit` at most MAX_BOOKING_ROWS rows, else 400 (issue 22
 * item 3). In day order, then by the slot's start and end, then id (a stable order for the pages), read along the
 * (scope, data_agend, hora_ini, hora_fim, id) indexes of migration 007. Each row carries its history.
 */
export async function listBookings(db: Kysely<DB>, scope: Scope, query: BookingListQuery): Promise<BookingRow[]> {
  checkDateRange(query);
  const bookings = await bookingsOfQuery(db, scope, query);
  const historic = sql<HistoricRow[]>`coalesce((
    select json_agg(json_build_object('id', h.id, 'tasksId', h.procedure_id, 'revisionId', h.revision_id,
      'userId', h.user_id, 'createdAt', h.created_at, 'updatedAt', h.updated_at, 'image', h.image,
      'observacao', h.observacao, 'ocorrencia', h.ocorrencia, 'procedure', pr.name) order by h.created_at, h.id)
    from history h join procedures pr on pr.id = h.procedure_id
    where h.booking_id = b.id), '[]'::json)`;
  const rows = await bookings
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
      "b.iniciada_via_qr",
      "b.envio_atraso_s",
      "b.start_received_at",
      "b.finish_received_at",
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
      "a.incident_id",
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
    .orderBy("b.data_agend")
    .orderBy("b.hora_ini")
    .orderBy("b.hora_fim")
    .orderBy("b.id")
    .$call(onePage(limitPageBounds(query)))
    .execute();
  return limitPageRows(rows, query);
}

export type BookingCountRow = { data_agend: string; status: BookingRow["status"]; total: number };

/**
 * GET agendas/v2/Agendamentos/resumo (ours): how many bookings `listBookings` would answer, per day and status, for
 * a range of at most MAX_SUMMARY_DAYS days: the calendar's marks and the board's column totals, counted in SQL so a
 * page never loads a month of rows to count them.
 */
export async function summariseBookings(
  db: Kysely<DB>,
  scope: Scope,
  query: Omit<BookingListQuery, "limit" | "page">,
): Promise<BookingCountRow[]> {
  checkDateRange(query);
  if (differenceInCalendarDays(dayOf(query.dataFim), dayOf(query.dataIni)) >= MAX_SUMMARY_DAYS)
    throw new ApiError(400, T.summaryRangeTooLong);
  const bookings = await bookingsOfQuery(db, scope, query);
  const rows = await bookings
    .select(["b.data_agend", "b.status", sql<string>`count(*)`.as("total")])
    .groupBy(["b.data_agend", "b.status"])
    .orderBy("b.data_agend")
    .orderBy("b.status")
    .execute();
  return rows.map((row) => ({ data_agend: row.data_agend, status: row.status, total: Number(row.total) }));
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
  const own = ownWorkOf(scope);
  return cappedRows(
    db
      .selectFrom("users")
      .$if(own !== null, (qb) => qb.where("id", "=", own!))
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
      .orderBy("id"),
  );
}
