import { sql, type Kysely } from "kysely";

import { ownWorkOf, resolveBranchFilter, type BranchQuery, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import {
  AUDIT_BOARDS,
  ITEM_CAP_MS,
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

/**
 * The audit dashboard's aggregates (spec 001 §2.13; issue 25; docs/audit-dashboard.md): one SQL statement per request
 * that reads the period's bookings in scope and under the filters once (a materialised CTE) and answers every
 * enabled board's groups from it, names joined to the few grouped rows only. So a year costs one pass over the year's
 * bookings, not eight, and nothing but the charts' numbers leaves the database.
 */

export type AuditFilters = {
  /** 'Empresa': branches of the tenant. */
  filiais?: readonly number[];
  colaboradores?: readonly number[];
  ambientes?: readonly number[];
  categorias?: readonly number[];
  setores?: readonly number[];
  /** Rooms that have any of these procedures. */
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

/** Every id a filter names is the tenant's (a branch-level caller's branch for branches), else 404 like any id. */
async function assertFilterIds(db: Kysely<DB>, scope: Scope, filters: AuditFilters, branchId: number | undefined) {
  for (const [name, table] of Object.entries(FILTER_TABLES) as [
    keyof AuditFilters,
    (typeof FILTER_TABLES)[keyof AuditFilters],
  ][]) {
    const ids = [...new Set(filters[name] ?? [])];
    if (ids.length === 0) continue;
    const found = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("id", "in", ids)
      .where("company_id", "=", scope.companyId)
      .$if(name === "filiais" && branchId !== undefined, (qb) => qb.where("id", "=", branchId!))
      .executeTakeFirstOrThrow();
    if (Number(found.n) !== ids.length) throw notFound();
  }
}

const list = (ids: readonly number[] | undefined) => (ids?.length ? sql.join([...new Set(ids)]) : null);

type Row = {
  board: number;
  id: number | null;
  k: string | null;
  nome: string | null;
  cnpj: string | null;
  filial: string | null;
  a: string;
  b: string;
};

/**
 * The enabled boards' aggregates of the period, in scope and under the filters. Each board's rule (docs/audit-
 * dashboard.md): 1 every slot by status; 2 open slots per collaborator (top 10); 3 open slots per branch by status;
 * 4 and 5 execution time per room, total and average (top 10); 6 planned and actual hours per room (top 8 by
 * planned); 7 slots due and started in the app per collaborator (top 10 by slots due); 8 done and not done per
 * collaborator (top 10 by both). Ties go to the lower id (the same order on PGlite and on any PostgreSQL collation).
 */
export async function auditAggregates(
  db: Kysely<DB>,
  scope: Scope,
  query: AuditQuery,
  boards: readonly BoardId[],
): Promise<Partial<AuditAggregates>> {
  const filter = await resolveBranchFilter(db, scope, query);
  await assertFilterIds(db, scope, query, filter.branchId);
  const result: Partial<AuditAggregates> = {};
  if (boards.length === 0) return result;
  const own = ownWorkOf(scope);
  const [filiais, colaboradores, ambientes, categorias, setores, procedimentos] = [
    list(query.filiais),
    list(query.colaboradores),
    list(query.ambientes),
    list(query.categorias),
    list(query.setores),
    list(query.procedimentos),
  ];
  const cap = ITEM_CAP_MS;
  const where = sql.join(
    [
      sql`b.company_id = ${filter.companyId}`,
      sql`b.data_agend between ${query.dataIni}::date and ${query.dataFim}::date`,
      sql`b.active`,
      sql`a.ativo and a.deleted_at is null`,
      filter.branchId !== undefined ? sql`b.branch_id = ${filter.branchId}` : null,
      own !== null ? sql`b.user_id = ${own}` : null,
      filiais ? sql`b.branch_id in (${filiais})` : null,
      colaboradores ? sql`b.user_id in (${colaboradores})` : null,
      ambientes ? sql`b.environment_id in (${ambientes})` : null,
      categorias || setores
        ? sql`b.environment_id in (select e.id from environments e where e.company_id = ${filter.companyId}
            ${categorias ? sql`and e.category_id in (${categorias})` : sql``}
            ${setores ? sql`and e.sector_id in (${setores})` : sql``})`
        : null,
      procedimentos
        ? sql`b.environment_id in (select ep.environment_id from environment_procedures ep
            where ep.procedure_id in (${procedimentos}))`
        : null,
    ].filter((part) => part !== null),
    sql` and `,
  );
  const parts: Record<BoardId, ReturnType<typeof sql>> = {
    1: sql`select 1 as board, null::int as id, f.st as k, null::text as nome, null::text as cnpj, null::text as filial, count(*) as a, 0 as b
      from f group by f.st`,
    2: sql`select 2 as board, g.user_id as id, null as k, u.nome, null as cnpj, null as filial, g.n as a, 0 as b from (
        select f.user_id, count(*) as n from f where f.st <> 'Completo' group by f.user_id) g
      join users u on u.id = g.user_id order by g.n desc, g.user_id limit ${TOP}`,
    3: sql`select 3 as board, g.branch_id as id, g.st as k, br.nome, br.cnpj, null as filial, g.n as a, 0 as b from (
        select f.branch_id, f.st, count(*) as n from f where f.st <> 'Completo' group by f.branch_id, f.st) g
      join branches br on br.id = g.branch_id
      where g.branch_id in (select f.branch_id from f where f.st <> 'Completo'
        group by f.branch_id order by count(*) desc, f.branch_id limit ${TOP_BRANCHES})`,
    4: sql`select 4 as board, g.environment_id as id, null as k, e.name as nome, null as cnpj, br.nome as filial, g.ms as a, g.n as b from (
        select f.environment_id, sum(f.actual_ms) as ms, count(f.actual_ms) as n from f
        where f.actual_ms is not null group by f.environment_id) g
      join environments e on e.id = g.environment_id join branches br on br.id = e.branch_id order by g.ms desc, g.environment_id limit ${TOP}`,
    5: sql`select 5 as board, g.environment_id as id, null as k, e.name as nome, null as cnpj, br.nome as filial, g.ms as a, g.n as b from (
        select f.environment_id, round(avg(f.actual_ms)) as ms, count(f.actual_ms) as n from f
        where f.actual_ms is not null group by f.environment_id) g
      join environments e on e.id = g.environment_id join branches br on br.id = e.branch_id order by g.ms desc, g.environment_id limit ${TOP}`,
    6: sql`select 6 as board, g.environment_id as id, null as k, e.name as nome, null as cnpj, br.nome as filial, g.planned as a,
        g.actual as b from (
        select f.environment_id, sum(f.planned_ms) as planned, sum(f.actual_ms) as actual from f
        where f.actual_ms is not null group by f.environment_id) g
      join environments e on e.id = g.environment_id join branches br on br.id = e.branch_id order by g.planned desc, g.environment_id
      limit ${TOP_PLANNED}`,
    7: sql`select 7 as board, g.user_id as id, null as k, u.nome, null as cnpj, null as filial, g.due as a, g.started as b from (
        select f.user_id, count(*) as due, count(*) filter (where f.started) as started from f
        where f.data_agend <= ${query.today}::date group by f.user_id) g
      join users u on u.id = g.user_id order by g.due desc, g.user_id limit ${TOP}`,
    8: sql`select 8 as board, g.user_id as id, null as k, u.nome, null as cnpj, null as filial, g.done as a, g.not_done as b from (
        select f.user_id, count(*) filter (where f.st = 'Completo') as done,
          count(*) filter (where f.st in ('Incompleto', 'Não Realizado')) as not_done from f group by f.user_id) g
      join users u on u.id = g.user_id where g.done + g.not_done > 0
      order by g.done + g.not_done desc, g.user_id limit ${TOP}`,
  };
  const selected = [...new Set(boards)].sort((x, y) => x - y);
  const { rows } = await sql<Row>`
    with f as materialized (
      select b.user_id, b.branch_id, b.environment_id, b.data_agend,
        case
          when b.status = 'Completo' then 'Completo'
          when b.status = 'Andamento' then 'Em andamento'
          when b.status = 'Incompleto' then 'Incompleto'
          when b.data_agend >= ${query.today}::date then 'A iniciar'
          else 'Não Realizado'
        end as st,
        b.start_date is not null as started,
        case when b.finished_at >= b.start_date
          then least(extract(epoch from (b.finished_at - b.start_date)) * 1000, ${cap})::bigint end as actual_ms,
        least(extract(epoch from (b.hora_fim - b.hora_ini + case when b.hora_fim < b.hora_ini
          then interval '1 day' else interval '0' end)) * 1000, ${cap})::bigint as planned_ms
      from bookings b join agendas a on a.id = b.agenda_id
      where ${where}
    )
    ${sql.join(
      selected.map((id) => sql`(${parts[id]})`),
      sql` union all `,
    )}`.execute(db);
  const n = (value: string | number | null) => Number(value ?? 0);
  const of = (board: number) => rows.filter((row) => row.board === board);
  for (const id of selected) {
    switch (id) {
      case 1:
        result[1] = of(1).map((row) => ({ status: row.k as AuditStatus, count: n(row.a) }));
        break;
      case 2:
        result[2] = of(2).map((row) => ({ id: row.id!, nome: row.nome ?? "", count: n(row.a) }));
        break;
      case 3: {
        const branches = new Map<number, AuditAggregates[3][number]>();
        for (const row of of(3)) {
          const entry = branches.get(row.id!) ?? {
            id: row.id!,
            nome: row.nome ?? "",
            cnpj: row.cnpj ?? "",
            counts: Object.fromEntries(OPEN_STATUSES.map((status) => [status, 0])) as Record<OpenStatus, number>,
          };
          entry.counts[row.k as OpenStatus] = n(row.a);
          branches.set(row.id!, entry);
        }
        const total = (entry: AuditAggregates[3][number]) => OPEN_STATUSES.reduce((sum, s) => sum + entry.counts[s], 0);
        result[3] = [...branches.values()].sort((x, y) => total(y) - total(x) || x.id - y.id);
        break;
      }
      case 4:
        result[4] = of(4).map((row) => ({ id: row.id!, nome: row.nome ?? "", filial: row.filial ?? "", ms: n(row.a) }));
        break;
      case 5:
        result[5] = of(5).map((row) => ({
          id: row.id!,
          nome: row.nome ?? "",
          filial: row.filial ?? "",
          ms: n(row.a),
          count: n(row.b),
        }));
        break;
      case 6:
        result[6] = of(6).map((row) => ({
          id: row.id!,
          nome: row.nome ?? "",
          filial: row.filial ?? "",
          plannedMs: n(row.a),
          actualMs: n(row.b),
        }));
        break;
      case 7:
        result[7] = of(7).map((row) => ({ id: row.id!, nome: row.nome ?? "", scheduled: n(row.a), started: n(row.b) }));
        break;
      case 8:
        result[8] = of(8).map((row) => ({ id: row.id!, nome: row.nome ?? "", done: n(row.a), notDone: n(row.b) }));
        break;
    }
  }
  return result;
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
