import { sql, type Kysely } from "kysely";

import {
  assertIdsInScope,
  ownWorkOf,
  resolveBranchFilter,
  type BranchFilter,
  type BranchQuery,
  type IdTable,
  type Scope,
} from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import {
  AUDIT_BOARDS,
  AUDIT_MAX_WEEKS,
  AUDIT_STATUSES,
  INSPECTION_BOARD,
  OPEN_STATUSES,
  TOP,
  TOP_BRANCHES,
  TOP_PLANNED,
  type AuditAggregates,
  type AuditStatus,
  type BoardId,
  type OpenStatus,
} from "../domain/audit.ts";
import { notFound } from "../lib/errors.ts";

import { rollupRows } from "./booking-months.ts";

/**
 * The audit dashboard's aggregates (spec 001 §2.13; issue 25; docs/audit-dashboard.md): one SQL statement per request
 * reads the period's slots in scope and under the filters once and groups them four ways (GROUPING SETS), a few
 * hundred groups whatever the period; every enabled board is summed, ranked and named from those groups, the names
 * read for the few shown only. So a year costs one pass over the year's slots, and nothing but the charts' numbers
 * leaves the database. Board 9 (ours, issue 29) reads the inspections instead: one more statement, a row per week.
 */

/**
 * The 'Filtros' choices. Board 9 (inspections) takes `filiais`, `ambientes`, `categorias` and `setores` (the inspected
 * room's); an inspection is nobody's slot and checks items rather than the room's procedures, so `colaboradores` and
 * `procedimentos` narrow the slot boards only (docs/audit-dashboard.md).
 */
export type AuditFilters = {
  /** 'Empresa': branches of the tenant. */
  filiais?: readonly number[];
  /** Slot boards only. */
  colaboradores?: readonly number[];
  ambientes?: readonly number[];
  categorias?: readonly number[];
  setores?: readonly number[];
  /** Rooms that have any of these procedures (slot boards only). */
  procedimentos?: readonly number[];
};

export type AuditQuery = BranchQuery & AuditFilters & { dataIni: string; dataFim: string; today: string };

/** The boards the company has enabled (§7 empresas/quadros), in order. */
export async function enabledBoards(db: Kysely<DB>, companyId: number): Promise<BoardId[]> {
  const rows = await db
    .selectFrom("company_boards")
    .select("board_id")
    .where("company_id", "=", companyId)
    .orderBy("board_id")
    .execute();
  const known = new Set<number>(AUDIT_BOARDS.map((board) => board.id));
  return rows.map((row) => row.board_id).filter((id): id is BoardId => known.has(id));
}

const FILTER_TABLES = {
  filiais: "branches",
  colaboradores: "users",
  ambientes: "environments",
  categorias: "categories",
  setores: "sectors",
  procedimentos: "procedures",
} as const;

/**
 * Every id a filter names is one the caller may read (assertIdsInScope), else 404 like any id; with a branch chosen
 * in the scope query, `filiais` may name that branch only.
 */
async function assertFilterIds(db: Kysely<DB>, scope: Scope, filters: AuditFilters, branchId: number | undefined) {
  if (branchId !== undefined && filters.filiais?.some((id) => id !== branchId)) throw notFound();
  for (const [name, table] of Object.entries(FILTER_TABLES) as [keyof AuditFilters, IdTable][]) {
    await assertIdsInScope(db, scope, table, filters[name] ?? []);
  }
}

const list = (ids: readonly number[] | undefined) => (ids?.length ? sql.join([...new Set(ids)]) : null);

/**
 * The enabled boards' aggregates of the period, in scope and under the filters. Each board's rule (docs/audit-
 * dashboard.md): 1 every slot by status; 2 open slots per collaborator (top 10); 3 open slots per branch by status;
 * 4 and 5 execution time per room, total and average (top 10); 6 planned and actual hours per room (top 8 by
 * planned); 7 slots due and started in the app per collaborator (top 10 by slots due); 8 done and not done per
 * collaborator (top 10 by both); 9 the inspections' mean score per week. Ties go to the lower id (the same order on
 * PGlite and on any PostgreSQL collation).
 */
export async function auditAggregates(
  db: Kysely<DB>,
  scope: Scope,
  query: AuditQuery,
  boards: readonly BoardId[],
): Promise<Partial<AuditAggregates>> {
  const filter = await resolveBranchFilter(db, scope, query);
  await assertFilterIds(db, scope, query, filter.branchId);
  const slotBoards = boards.filter((id) => id !== INSPECTION_BOARD);
  const [slots, inspections] = await Promise.all([
    slotBoards.length > 0 ? slotAggregates(db, scope, filter, query, slotBoards) : {},
    boards.includes(INSPECTION_BOARD) ? inspectionWeeks(db, scope, filter, query) : null,
  ]);
  return inspections ? { ...slots, [INSPECTION_BOARD]: inspections } : slots;
}

/** The slot boards' aggregates (1 to 8): one pass over the period's slots, then ranked and named. */
async function slotAggregates(
  db: Kysely<DB>,
  scope: Scope,
  filter: BranchFilter,
  query: AuditQuery,
  boards: readonly BoardId[],
): Promise<Partial<AuditAggregates>> {
  const own = ownWorkOf(scope);
  const [filiais, colaboradores, ambientes, categorias, setores, procedimentos] = [
    list(query.filiais),
    list(query.colaboradores),
    list(query.ambientes),
    list(query.categorias),
    list(query.setores),
    list(query.procedimentos),
  ];
  const where = sql.join(
    [
      sql`d.company_id = ${filter.companyId}`,
      sql`d.dia between ${query.dataIni}::date and ${query.dataFim}::date`,
      sql`a.ativo and a.deleted_at is null`,
      filter.branchId !== undefined ? sql`d.branch_id = ${filter.branchId}` : null,
      own !== null ? sql`d.user_id = ${own}` : null,
      filiais ? sql`d.branch_id in (${filiais})` : null,
      colaboradores ? sql`d.user_id in (${colaboradores})` : null,
      ambientes ? sql`d.environment_id in (${ambientes})` : null,
      categorias || setores
        ? sql`d.environment_id in (select e.id from environments e where e.company_id = ${filter.companyId}
            ${categorias ? sql`and e.category_id in (${categorias})` : sql``}
            ${setores ? sql`and e.sector_id in (${setores})` : sql``})`
        : null,
      procedimentos
        ? sql`d.environment_id in (select ep.environment_id from environment_procedures ep
            where ep.procedure_id in (${procedimentos}))`
        : null,
    ].filter((part) => part !== null),
    sql` and `,
  );
  const today = sql`${query.today}::date`;
  // One pass over the bookings roll-up (booking_days: a row per day, collaborator, room and agenda; a closed month's
  // days one row at its first day, api/services/booking-months.ts; docs/audit-dashboard.md 'Read from the roll-up'),
  // grouped four ways at once (all; by collaborator; by branch; by room), a few hundred groups whatever the period.
  // A slot without a recorded status is 'A iniciar' from today on and 'Não Realizado' before, by its day: nothing is
  // stored for it, so nothing changes at midnight.
  const rest = sql`d.agendamentos - d.completos - d.andamento - d.incompletos`;
  const { rows } = await sql<GroupRow>`
    select d.user_id, d.branch_id, d.environment_id, grouping(d.user_id, d.branch_id, d.environment_id) as g,
      sum(d.completos)::int as completo, sum(d.andamento)::int as andamento, sum(d.incompletos)::int as incompleto,
      coalesce(sum(${rest}) filter (where d.dia >= ${today}), 0)::int as a_iniciar,
      coalesce(sum(${rest}) filter (where d.dia < ${today}), 0)::int as nao_realizado,
      coalesce(sum(d.agendamentos) filter (where d.dia <= ${today}), 0)::int as due,
      coalesce(sum(d.iniciados) filter (where d.dia <= ${today}), 0)::int as started,
      sum(d.ms_reais)::float8 as actual, sum(d.medidos)::int as measured, sum(d.ms_previstos)::float8 as planned
    from ${await rollupRows(db, filter.companyId, query)} d join agendas a on a.id = d.agenda_id
    where ${where}
    group by grouping sets ((), (d.user_id), (d.branch_id), (d.environment_id))`.execute(db);
  return rankedBoards(db, rows, new Set(boards));
}

/**
 * Board 9: the period's inspections in scope per week (Monday first, America/Fortaleza), each week's mean score by the
 * inspections' own rule (api/services/inspections.ts inspectionScores: Σ scores ÷ inspections, every inspection once,
 * re-inspections included, rounded half up to one decimal), so /inspecoes grouped by week shows the same figures (the
 * API test compares them), and the scores' sum for the period's exact mean. An inspection belongs to the business day
 * it was made on; the period's first and last weeks hold only the period's days. Read from the daily roll-up
 * (inspection_days), checked against the raw rows by the API test. Field staff read no inspections (docs/inspections.md): their scope answers no weeks.
 */
async function inspectionWeeks(
  db: Kysely<DB>,
  scope: Scope,
  filter: BranchFilter,
  query: AuditQuery,
): Promise<AuditAggregates[9]> {
  if (ownWorkOf(scope) !== null) return [];
  const [filiais, ambientes, categorias, setores] = [
    list(query.filiais),
    list(query.ambientes),
    list(query.categorias),
    list(query.setores),
  ];
  // The daily roll-up (inspection_days, kept with the inspections by a trigger): a few rows per room and day.
  const where = sql.join(
    [
      sql`d.company_id = ${filter.companyId}`,
      sql`d.dia between ${query.dataIni}::date and ${query.dataFim}::date`,
      filter.branchId !== undefined ? sql`d.branch_id = ${filter.branchId}` : null,
      filiais ? sql`d.branch_id in (${filiais})` : null,
      ambientes ? sql`d.environment_id in (${ambientes})` : null,
      categorias || setores
        ? sql`d.environment_id in (select e.id from environments e where e.company_id = ${filter.companyId}
            ${categorias ? sql`and e.category_id in (${categorias})` : sql``}
            ${setores ? sql`and e.sector_id in (${setores})` : sql``})`
        : null,
    ].filter((part) => part !== null),
    sql` and `,
  );
  const week = sql`date_trunc('week', d.dia)`;
  const { rows } = await sql<{ semana: string; inspecoes: number; media: string; soma: string }>`
    select to_char(${week}, 'YYYY-MM-DD') as semana, sum(d.inspecoes)::int as inspecoes,
      round(sum(d.soma_nota) / sum(d.inspecoes), 1) as media, sum(d.soma_nota) as soma
    from inspection_days d
    where ${where}
    group by ${week}
    order by ${week}
    limit ${AUDIT_MAX_WEEKS}`.execute(db);
  return rows.map((row) => ({
    semana: row.semana,
    media: Number(row.media),
    inspecoes: Number(row.inspecoes),
    soma: Number(row.soma),
  }));
}

/** A group of the one pass: `g` says which (GROUPING's bits: 1 where the column is not grouped). */
type GroupRow = {
  user_id: number | null;
  branch_id: number | null;
  environment_id: number | null;
  g: number;
  completo: number;
  andamento: number;
  incompleto: number;
  a_iniciar: number;
  nao_realizado: number;
  due: number;
  started: number;
  actual: number;
  measured: number;
  planned: number;
};
const ALL = 0b111;
const BY_USER = 0b011;
const BY_BRANCH = 0b101;
const BY_ROOM = 0b110;

/** A group's slots per status, in the charts' order. */
const statusCounts = (row: GroupRow): Record<AuditStatus, number> => ({
  Completo: Number(row.completo),
  "Em andamento": Number(row.andamento),
  Incompleto: Number(row.incompleto),
  "A iniciar": Number(row.a_iniciar),
  "Não Realizado": Number(row.nao_realizado),
});

/** The largest first, ties to the lower id, the first `limit` (a copy: the list given is left in its order). */
const top = <T extends { id: number }>(items: T[], size: (item: T) => number, limit: number) =>
  [...items].sort((x, y) => size(y) - size(x) || x.id - y.id).slice(0, limit);

/** Each enabled board's groups from the one pass's, ranked, with the names of the few shown. */
async function rankedBoards(db: Kysely<DB>, rows: GroupRow[], boards: Set<BoardId>) {
  const n = (value: number) => Number(value);
  const result: Partial<AuditAggregates> = {};
  const people = new Map<
    number,
    { id: number; open: number; done: number; notDone: number; due: number; started: number }
  >();
  const branches = new Map<number, { id: number; counts: Record<OpenStatus, number> }>();
  const rooms: { id: number; total: number; measured: number; planned: number }[] = [];
  for (const row of rows) {
    const g = Number(row.g);
    const counts = statusCounts(row);
    if (g === ALL && boards.has(1))
      result[1] = AUDIT_STATUSES.filter((status) => counts[status] > 0).map((status) => ({
        status,
        count: counts[status],
      }));
    if (g === BY_USER) {
      people.set(row.user_id!, {
        id: row.user_id!,
        open: OPEN_STATUSES.reduce((sum, status) => sum + counts[status], 0),
        done: counts.Completo,
        notDone: counts.Incompleto + counts["Não Realizado"],
        due: n(row.due),
        started: n(row.started),
      });
    }
    if (g === BY_BRANCH && OPEN_STATUSES.some((status) => counts[status] > 0)) {
      const open = Object.fromEntries(OPEN_STATUSES.map((status) => [status, counts[status]]));
      branches.set(row.branch_id!, { id: row.branch_id!, counts: open as Record<OpenStatus, number> });
    }
    if (g === BY_ROOM && n(row.measured) > 0) {
      rooms.push({ id: row.environment_id!, total: n(row.actual), measured: n(row.measured), planned: n(row.planned) });
    }
  }
  const everyone = [...people.values()];
  const openTotal = (branch: { counts: Record<OpenStatus, number> }) =>
    OPEN_STATUSES.reduce((sum, status) => sum + branch.counts[status], 0);
  const average = (room: (typeof rooms)[number]) => Math.round(room.total / room.measured);
  const finished = (person: { done: number; notDone: number }) => person.done + person.notDone;
  const shown = {
    2: boards.has(2)
      ? top(
          everyone.filter((person) => person.open > 0),
          (person) => person.open,
          TOP,
        )
      : [],
    3: boards.has(3) ? top([...branches.values()], openTotal, TOP_BRANCHES) : [],
    4: boards.has(4) ? top(rooms, (room) => room.total, TOP) : [],
    5: boards.has(5) ? top(rooms, average, TOP) : [],
    6: boards.has(6) ? top(rooms, (room) => room.planned, TOP_PLANNED) : [],
    7: boards.has(7)
      ? top(
          everyone.filter((person) => person.due > 0),
          (person) => person.due,
          TOP,
        )
      : [],
    8: boards.has(8)
      ? top(
          everyone.filter((person) => person.done + person.notDone > 0),
          finished,
          TOP,
        )
      : [],
  };
  const names = await namesOf(db, {
    users: [...shown[2], ...shown[7], ...shown[8]].map((person) => person.id),
    branches: shown[3].map((branch) => branch.id),
    rooms: [...shown[4], ...shown[5], ...shown[6]].map((room) => room.id),
  });
  const person = (id: number) => ({ id, nome: names.users.get(id) ?? "" });
  const room = (id: number) => ({
    id,
    nome: names.rooms.get(id)?.nome ?? "",
    filial: names.rooms.get(id)?.filial ?? "",
  });
  if (boards.has(1)) result[1] ??= [];
  if (boards.has(2)) result[2] = shown[2].map((item) => ({ ...person(item.id), count: item.open }));
  if (boards.has(3))
    result[3] = shown[3].map((item) => ({
      id: item.id,
      nome: names.branches.get(item.id)?.nome ?? "",
      cnpj: names.branches.get(item.id)?.cnpj ?? "",
      counts: item.counts,
    }));
  if (boards.has(4)) result[4] = shown[4].map((item) => ({ ...room(item.id), ms: item.total }));
  if (boards.has(5))
    result[5] = shown[5].map((item) => ({ ...room(item.id), ms: average(item), count: item.measured }));
  if (boards.has(6))
    result[6] = shown[6].map((item) => ({ ...room(item.id), plannedMs: item.planned, actualMs: item.total }));
  if (boards.has(7))
    result[7] = shown[7].map((item) => ({ ...person(item.id), scheduled: item.due, started: item.started }));
  if (boards.has(8))
    result[8] = shown[8].map((item) => ({ ...person(item.id), done: item.done, notDone: item.notDone }));
  return result;
}

/** The names of the groups a chart shows (a few dozen ids at most). */
async function namesOf(db: Kysely<DB>, ids: { users: number[]; branches: number[]; rooms: number[] }) {
  const [users, branches, rooms] = await Promise.all([
    ids.users.length
      ? db.selectFrom("users").select(["id", "nome"]).where("id", "in", ids.users).execute()
      : Promise.resolve([]),
    ids.branches.length
      ? db.selectFrom("branches").select(["id", "nome", "cnpj"]).where("id", "in", ids.branches).execute()
      : Promise.resolve([]),
    ids.rooms.length
      ? db
          .selectFrom("environments as e")
          .innerJoin("branches as br", "br.id", "e.branch_id")
          .select(["e.id", "e.name as nome", "br.nome as filial"])
          .where("e.id", "in", ids.rooms)
          .execute()
      : Promise.resolve([]),
  ]);
  return {
    users: new Map(users.map((row) => [row.id, row.nome])),
    branches: new Map(branches.map((row) => [row.id, row])),
    rooms: new Map(rooms.map((row) => [row.id, row])),
  };
}

/** The most choices one list of the 'Filtros' dialog offers (sorted by name; a longer list says so). */
export const AUDIT_OPTIONS_MAX = 500;

export type AuditOption = { id: number; nome: string };

/**
 * The 'Filtros' dialog's lists (§2.13): the branches in scope ('Empresa'), then the collaborators (field staff),
 * rooms, categories, sectors and procedures of the chosen branches (all in scope when none is chosen), each sorted by
 * name and at most AUDIT_OPTIONS_MAX; `mais` names the lists that were cut.
 */
export async function auditOptions(db: Kysely<DB>, scope: Scope, query: BranchQuery & { filiais?: readonly number[] }) {
  const filter = await resolveBranchFilter(db, scope, query);
  await assertFilterIds(db, scope, { filiais: query.filiais }, filter.branchId);
  const chosen = query.filiais?.length ? [...new Set(query.filiais)] : null;
  const own = ownWorkOf(scope);
  const branches = await db
    .selectFrom("branches")
    .select(["id", "nome"])
    .where("company_id", "=", filter.companyId)
    .where("ativo", "=", true)
    .$if(filter.branchId !== undefined, (qb) => qb.where("id", "=", filter.branchId!))
    .orderBy("nome_folded")
    .orderBy("id")
    .limit(AUDIT_OPTIONS_MAX + 1)
    .execute();
  const narrow = (table: "users" | "environments" | "categories" | "sectors" | "procedures") => {
    const nameColumn = table === "users" ? "nome" : "name";
    return db
      .selectFrom(table)
      .select(["id", sql<string>`${sql.ref(nameColumn)}`.as("nome")])
      .where("company_id", "=", filter.companyId)
      .$if(filter.branchId !== undefined, (qb) => qb.where("branch_id", "=", filter.branchId!))
      .$if(chosen !== null, (qb) => qb.where("branch_id", "in", chosen!))
      .orderBy(sql.ref(nameColumn))
      .orderBy("id")
      .limit(AUDIT_OPTIONS_MAX + 1);
  };
  const [colaboradores, ambientes, categorias, setores, procedimentos] = await Promise.all([
    // §2.13's 'coordenador 0' is the old system's mark of field staff; here they are the ASGs (roleId 5) and the old
    // 'ASG Antigo' (no role, coordenador 0): the people whose slots the charts count (docs/audit-dashboard.md).
    narrow("users")
      .where((eb) => eb.or([eb("role_id", "=", 5), eb.and([eb("role_id", "is", null), eb("coordenador", "=", 0)])]))
      .$if(own !== null, (qb) => qb.where("id", "=", own!))
      .execute(),
    narrow("environments").where("deleted_at", "is", null).execute(),
    narrow("categories").where("deleted_at", "is", null).execute(),
    narrow("sectors").where("deleted_at", "is", null).execute(),
    narrow("procedures").where("deleted_at", "is", null).execute(),
  ]);
  const lists = { filiais: branches, colaboradores, ambientes, categorias, setores, procedimentos };
  const mais = Object.entries(lists)
    .filter(([, rows]) => rows.length > AUDIT_OPTIONS_MAX)
    .map(([name]) => name);
  const cut = (rows: AuditOption[]) => rows.slice(0, AUDIT_OPTIONS_MAX).map((row) => ({ id: row.id, nome: row.nome }));
  return {
    filiais: cut(branches),
    colaboradores: cut(colaboradores),
    ambientes: cut(ambientes),
    categorias: cut(categorias),
    setores: cut(setores),
    procedimentos: cut(procedimentos),
    mais,
  };
}
