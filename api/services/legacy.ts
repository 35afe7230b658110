import { sql, type Kysely, type Selectable } from "kysely";

import {
  assertEnvironmentInScope,
  assertUserInScope,
  ownWorkOf,
  resolveBranchFilter,
  type BranchFilter,
  type Scope,
} from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { trimErrors } from "../domain/csv-import.ts";
import {
  LEGACY_MAX_BYTES,
  LEGACY_TEXTS,
  legacyStatus,
  readLegacyTable,
  type LegacyObservationKey,
  type LegacyRow,
  type LegacyStatus,
} from "../domain/legacy.ts";
import { decodeCsvBytes, parseCsv } from "../lib/csv.ts";

import { environmentSearch, type EnvironmentSearchField } from "./reports/environment-search.ts";

/**
 * The old system's data (spec 001 §3, §4, §7, §8, §9; issue 24 part 4; docs/legacy-data.md): the import of the old
 * rows (all-or-nothing, idempotent by the old row's ID per company) and the reads of the §7 old-system calls, scoped
 * like every other read (tenant; branch-level users and clients their branch; field staff their own work) and paged.
 * Called by the CLI (api/db/legacy-import-cli.ts), the demo seed, the routes (api/routes/legacy.ts) and the bench.
 */

// ---------------------------------------------------------------------------------------------------------------
// The import

/** A refused file: every problem found (at most ten and a count), each naming its line; nothing was written. */
export class LegacyImportError extends Error {
  constructor(public errors: string[]) {
    super(errors.join("\n"));
  }
}

export type LegacyImportResult = {
  /** Data rows in the file. */
  rows: number;
  /** Rows written now. */
  inserted: number;
  /** Rows whose ID (per company) was imported before: left as they are. */
  existing: number;
  /** Observations written now (one per new row whose observacao is set). */
  observations: number;
};

/** The file's checked rows: its size, encoding (UTF-8 or Windows-1252), delimiter (`,` or `;`) and every row. */
export function readLegacyFile(bytes: Uint8Array): LegacyRow[] {
  if (bytes.byteLength > LEGACY_MAX_BYTES) throw new LegacyImportError([LEGACY_TEXTS.tooLarge]);
  const table = parseCsv(decodeCsvBytes(bytes));
  if ("error" in table) throw new LegacyImportError([table.error]);
  const read = readLegacyTable(table);
  if ("errors" in read) throw new LegacyImportError(trimErrors(read.errors));
  return read.rows;
}

export async function importLegacyFile(db: Kysely<DB>, bytes: Uint8Array): Promise<LegacyImportResult> {
  return importLegacyRows(db, readLegacyFile(bytes));
}

/** Rows written per INSERT: 500 rows × 25 columns stays far under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;
/** Ids looked up per query. */
const LOOKUP_CHUNK = 5000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/**
 * Writes checked rows in one transaction: every room and collaborator must exist (the new system kept the old ids)
 * and belong to one company; a row whose ID its company holds already is left as it is (the first import wins), so
 * running the same file again writes nothing. A new row with an observation also gives its observation row.
 */
export async function importLegacyRows(db: Kysely<DB>, rows: readonly LegacyRow[]): Promise<LegacyImportResult> {
  const result = await db.transaction().execute(async (trx) => {
    const environments = new Map<
      number,
      {
        company_id: number;
        branch_id: number;
        name: string;
        andar: string;
        filial: string;
        categoria: string | null;
        setor: string | null;
      }
    >();
    for (const ids of chunks([...new Set(rows.map((row) => row.environmentId))], LOOKUP_CHUNK)) {
      const found = await trx
        .selectFrom("environments as e")
        .innerJoin("branches as br", "br.id", "e.branch_id")
        .leftJoin("categories as c", "c.id", "e.category_id")
        .leftJoin("sectors as s", "s.id", "e.sector_id")
        .select([
          "e.id",
          "e.company_id",
          "e.branch_id",
          "e.name",
          "e.andar",
          "br.nome as filial",
          "c.name as categoria",
          "s.name as setor",
        ])
        .where("e.id", "in", ids)
        .execute();
      for (const environment of found) environments.set(environment.id, environment);
    }
    const users = new Map<number, { company_id: number; nome: string }>();
    for (const ids of chunks([...new Set(rows.map((row) => row.userId))], LOOKUP_CHUNK)) {
      const found = await trx.selectFrom("users").select(["id", "company_id", "nome"]).where("id", "in", ids).execute();
      for (const user of found) users.set(user.id, user);
    }
    const errors: string[] = [];
    const lineOfId = new Map<string, number>();
    for (const row of rows) {
      const environment = environments.get(row.environmentId);
      const user = users.get(row.userId);
      const problems: string[] = [];
      if (environment) {
        // The old row's ID once per company (two companies' old systems numbered their rows alike).
        const key = `${environment.company_id}:${row.legacyId}`;
        const earlier = lineOfId.get(key);
        if (earlier !== undefined) problems.push(LEGACY_TEXTS.repeatedId(row.legacyId, earlier));
        else lineOfId.set(key, row.line);
      }
      if (!environment) problems.push(LEGACY_TEXTS.environmentMissing(row.environmentId));
      if (!user) problems.push(LEGACY_TEXTS.userMissing(row.userId));
      if (environment && user && user.company_id !== environment.company_id) {
        problems.push(LEGACY_TEXTS.userOtherCompany(row.userId, row.environmentId));
      }
      if (problems.length) errors.push(LEGACY_TEXTS.line(row.line, problems));
    }
    if (errors.length) throw new LegacyImportError(trimErrors(errors));

    // Rows whose company holds their ID already are left out before writing (a re-run then only reads); the
    // insert's ON CONFLICT still covers an import running at the same time.
    const fresh: LegacyRow[] = [];
    const byCompany = new Map<number, LegacyRow[]>();
    for (const row of rows) {
      const company = environments.get(row.environmentId)!.company_id;
      const list = byCompany.get(company);
      if (list) list.push(row);
      else byCompany.set(company, [row]);
    }
    for (const [company, companyRows] of byCompany) {
      for (const chunk of chunks(companyRows, LOOKUP_CHUNK)) {
        // Joined to the ids as a set (unnest): `legacy_id = any(array)` compares each row with the whole array.
        const found = (
          await sql<{
            legacy_id: number;
          }>`select h.legacy_id from unnest(${chunk.map((row) => row.legacyId)}::int[]) as x(id)
            join legacy_history h on h.company_id = ${company} and h.legacy_id = x.id`.execute(trx)
        ).rows;
        const known = new Set(found.map((row) => row.legacy_id));
        for (const row of chunk) if (!known.has(row.legacyId)) fresh.push(row);
      }
    }

    let inserted = 0;
    let observations = 0;
    for (const chunk of chunks(fresh, INSERT_CHUNK)) {
      const written = await trx
        .insertInto("legacy_history")
        .values(
          chunk.map((row) => {
            const environment = environments.get(row.environmentId)!;
            const user = users.get(row.userId)!;
            // Names as the old row had them; a blank one is today's (the same id, kept by the new system).
            return {
              company_id: environment.company_id,
              branch_id: environment.branch_id,
              legacy_id: row.legacyId,
              environment_id: row.environmentId,
              user_id: row.userId,
              revisao_id: row.revisaoId,
              empresa: row.empresa ?? environment.filial,
              ambiente_nome: row.ambienteNome ?? environment.name,
              categoria: row.categoria ?? environment.categoria,
              setor: row.setor ?? environment.setor,
              andar: row.andar ?? environment.andar,
              procedimento_nome: row.procedimentoNome,
              procedimentos: row.procedimentos,
              nome_usuario: row.nomeUsuario ?? user.nome,
              inicio: row.inicio,
              fim: row.fim,
              imagem: row.imagem,
              hora_inicial_principal: row.horaInicialPrincipal,
              hora_final_principal: row.horaFinalPrincipal,
              revisao_inicial: row.revisaoInicial,
              revisao_final: row.revisaoFinal,
              data_criacao: row.dataCriacao,
              data_criacao_historico: row.dataCriacaoHistorico,
              data_finalizacao_historico: row.dataFinalizacaoHistorico,
              observacao: row.observacao,
            };
          }),
        )
        .onConflict((oc) => oc.columns(["company_id", "legacy_id"]).doNothing())
        .returning(["id", "company_id", "environment_id", "user_id", "inicio", "observacao"])
        .execute();
      inserted += written.length;
      const withObservation = written.filter((row) => row.observacao !== null);
      if (withObservation.length) {
        await trx
          .insertInto("legacy_observations")
          .values(
            withObservation.map((row) => ({
              company_id: row.company_id,
              environment_id: row.environment_id,
              user_id: row.user_id,
              observacao: row.observacao!,
              // The row's start: the status rule pairs an observation with the rows of its room, collaborator and day.
              created_at: row.inicio,
              legacy_history_id: row.id,
            })),
          )
          .execute();
        observations += withObservation.length;
      }
    }
    return { rows: rows.length, inserted, existing: rows.length - inserted, observations };
  });
  // PGlite gathers no statistics on its own (DESIGN.md 'Data': ANALYZE after bulk writes).
  if (result.inserted > 0) await sql`analyze legacy_history, legacy_observations`.execute(db);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// The reads (§7 /dash/user, /environments/dashboard, /info/all/environments, /observacao)

/** A period of business days, 'yyyy-MM-dd', both included. */
export type LegacyPeriod = { dataInicio: string; dataFim: string };
/** One page: `limit` rows of page `page` (from 1). */
export type LegacyPaging = { limit: number; page: number };

/** The instants a period covers in America/Fortaleza (UTC-3, the import's local time). */
function bounds(period: LegacyPeriod) {
  const from = new Date(`${period.dataInicio}T00:00:00-03:00`);
  const to = new Date(new Date(`${period.dataFim}T00:00:00-03:00`).getTime() + 86_400_000);
  return { from, to };
}

/** What the caller may read of the old rows: the tenant, one branch or none, and field staff their own work. */
type Reach = BranchFilter & { own: number | null };

async function reachOf(db: Kysely<DB>, scope: Scope, query: { companyId?: number; filialId?: number } = {}) {
  const filter = await resolveBranchFilter(db, scope, query);
  return { ...filter, own: ownWorkOf(scope) } satisfies Reach;
}

export type LegacyHistoryRow = {
  id: number;
  legacyId: number;
  environmentId: number;
  userId: number;
  revisaoId: number | null;
  empresa: string;
  ambienteNome: string;
  categoria: string | null;
  setor: string | null;
  andar: string | null;
  procedimentoNome: string | null;
  procedimentos: string | null;
  nomeUsuario: string;
  inicio: Date;
  fim: Date | null;
  imagem: string | null;
  horaInicialPrincipal: string | null;
  horaFinalPrincipal: string | null;
  revisaoInicial: string | null;
  revisaoFinal: string | null;
  dataCriacao: Date | null;
  dataCriacaoHistorico: Date | null;
  dataFinalizacaoHistorico: Date | null;
  observacao: string | null;
  /** §4 'Old-system rows', over the observations of the row's room, collaborator and day. */
  status: LegacyStatus;
  /** Today's CPF, e-mail and phone of the collaborator, only when asked for (`personal`). */
  cpf?: string | null;
  email?: string | null;
  telefone?: string | null;
};

export type LegacyObservation = {
  id: number;
  createdAt: Date;
  environmentId: number | null;
  userId: number | null;
  observacao: string;
};

type HistoryFilter = { userId?: number; environmentId?: number; personal?: boolean };

/** One page of the old rows in reach, period and filter, in time order, each with its status. */
async function historyPage(
  db: Kysely<DB>,
  reach: Reach,
  period: LegacyPeriod,
  paging: LegacyPaging,
  filter: HistoryFilter,
): Promise<{ rows: LegacyHistoryRow[]; more: boolean }> {
  const { from, to } = bounds(period);
  const found = await db
    .selectFrom("legacy_history as h")
    .$if(Boolean(filter.personal), (qb) => qb.leftJoin("users as u", "u.id", "h.user_id"))
    .selectAll("h")
    .$if(Boolean(filter.personal), (qb) =>
      qb.select([
        sql<string | null>`u.cpf`.as("cpf"),
        sql<string | null>`u.email`.as("email"),
        sql<string | null>`u.telefone`.as("telefone"),
      ]),
    )
    .where("h.company_id", "=", reach.companyId)
    .$if(reach.branchId !== undefined, (qb) => qb.where("h.branch_id", "=", reach.branchId!))
    .$if(reach.own !== null, (qb) => qb.where("h.user_id", "=", reach.own!))
    .$if(filter.userId !== undefined, (qb) => qb.where("h.user_id", "=", filter.userId!))
    .$if(filter.environmentId !== undefined, (qb) => qb.where("h.environment_id", "=", filter.environmentId!))
    .where("h.inicio", ">=", from)
    .where("h.inicio", "<", to)
    .orderBy("h.inicio")
    .orderBy("h.id")
    .limit(paging.limit + 1)
    .offset((paging.page - 1) * paging.limit)
    .execute();
  const more = found.length > paging.limit;
  return { rows: await historyRows(db, found.slice(0, paging.limit), filter.personal), more };
}

type StoredLegacyRow = Selectable<DB["legacy_history"]> & {
  cpf?: string | null;
  email?: string | null;
  telefone?: string | null;
};

/** Stored old rows as the calls and reports show them, each with its §4 status over the observations that match. */
async function historyRows(db: Kysely<DB>, found: readonly StoredLegacyRow[], personal = false) {
  const observations = await observationsMatching(db, found);
  return found.map((row): LegacyHistoryRow => ({
    id: row.id,
    legacyId: row.legacy_id,
    environmentId: row.environment_id,
    userId: row.user_id,
    revisaoId: row.revisao_id,
    empresa: row.empresa,
    ambienteNome: row.ambiente_nome,
    categoria: row.categoria,
    setor: row.setor,
    andar: row.andar,
    procedimentoNome: row.procedimento_nome,
    procedimentos: row.procedimentos,
    nomeUsuario: row.nome_usuario,
    inicio: row.inicio,
    fim: row.fim,
    imagem: row.imagem,
    horaInicialPrincipal: row.hora_inicial_principal,
    horaFinalPrincipal: row.hora_final_principal,
    revisaoInicial: row.revisao_inicial,
    revisaoFinal: row.revisao_final,
    dataCriacao: row.data_criacao,
    dataCriacaoHistorico: row.data_criacao_historico,
    dataFinalizacaoHistorico: row.data_finalizacao_historico,
    observacao: row.observacao,
    status: legacyStatus(
      { environmentId: row.environment_id, userId: row.user_id, inicio: row.inicio, observacao: row.observacao },
      observations,
    ),
    ...(personal ? { cpf: row.cpf ?? null, email: row.email ?? null, telefone: row.telefone ?? null } : {}),
  }));
}

/** The observations that may match a page of rows (their rooms and collaborators, a day around their span). */
async function observationsMatching(
  db: Kysely<DB>,
  rows: readonly { environment_id: number; user_id: number; inicio: Date }[],
): Promise<LegacyObservationKey[]> {
  if (rows.length === 0) return [];
  const times = rows.map((row) => row.inicio.getTime());
  const found = await db
    .selectFrom("legacy_observations")
    .select(["environment_id", "user_id", "created_at", "observacao"])
    .where("environment_id", "in", [...new Set(rows.map((row) => row.environment_id))])
    .where("user_id", "in", [...new Set(rows.map((row) => row.user_id))])
    .where("created_at", ">=", new Date(Math.min(...times) - 86_400_000))
    .where("created_at", "<", new Date(Math.max(...times) + 86_400_000))
    .execute();
  return found.map((row) => ({
    environmentId: row.environment_id,
    userId: row.user_id,
    createdAt: row.created_at,
    observacao: row.observacao,
  }));
}

/** One page of the old observations in reach and period (a room's or a collaborator's when asked), in time order. */
async function observationPage(
  db: Kysely<DB>,
  reach: Reach,
  period: LegacyPeriod,
  paging: LegacyPaging,
  filter: HistoryFilter,
): Promise<{ rows: LegacyObservation[]; more: boolean }> {
  const { from, to } = bounds(period);
  const found = await db
    .selectFrom("legacy_observations as o")
    .select(["o.id", "o.created_at", "o.environment_id", "o.user_id", "o.observacao"])
    .where("o.company_id", "=", reach.companyId)
    // §6: a branch's observations are its rooms' (an observation without a room belongs to the company only).
    .$if(reach.branchId !== undefined, (qb) =>
      qb.where("o.environment_id", "in", (eb) =>
        eb.selectFrom("environments as e").select("e.id").where("e.branch_id", "=", reach.branchId!),
      ),
    )
    .$if(reach.own !== null, (qb) => qb.where("o.user_id", "=", reach.own!))
    .$if(filter.userId !== undefined, (qb) => qb.where("o.user_id", "=", filter.userId!))
    .$if(filter.environmentId !== undefined, (qb) => qb.where("o.environment_id", "=", filter.environmentId!))
    .where("o.created_at", ">=", from)
    .where("o.created_at", "<", to)
    .orderBy("o.created_at")
    .orderBy("o.id")
    .limit(paging.limit + 1)
    .offset((paging.page - 1) * paging.limit)
    .execute();
  return {
    rows: found.slice(0, paging.limit).map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      environmentId: row.environment_id,
      userId: row.user_id,
      observacao: row.observacao,
    })),
    more: found.length > paging.limit,
  };
}

/** GET /dash/user: a collaborator's old rows and observations of a period (404 outside the scope). */
export async function legacyUserDashboard(
  db: Kysely<DB>,
  scope: Scope,
  query: LegacyPeriod & LegacyPaging & { userId: number },
) {
  await assertUserInScope(db, scope, query.userId);
  const reach = await reachOf(db, scope);
  const data = await historyPage(db, reach, query, query, { userId: query.userId });
  const obs = await observationPage(db, reach, query, query, { userId: query.userId });
  return { data: data.rows, obs: obs.rows, more: data.more || obs.more };
}

/** GET /environments/dashboard: the old rows of the company (or one branch) in a period. */
export async function legacyEnvironmentDashboard(
  db: Kysely<DB>,
  scope: Scope,
  query: LegacyPeriod & LegacyPaging & { companyId: number; filialId?: number },
) {
  const reach = await reachOf(db, scope, { companyId: query.companyId, filialId: query.filialId });
  const historico = await historyPage(db, reach, query, query, {});
  return { historico: historico.rows, more: historico.more };
}

/** GET /info/all/environments: a room's old rows (the old environment row) and observations (404 outside the scope). */
export async function legacyEnvironmentHistory(
  db: Kysely<DB>,
  scope: Scope,
  query: LegacyPeriod & LegacyPaging & { environmentId: number; personal: boolean },
) {
  await assertEnvironmentInScope(db, scope, query.environmentId);
  const reach = await reachOf(db, scope);
  const filter = { environmentId: query.environmentId, personal: query.personal };
  const data = await historyPage(db, reach, query, query, filter);
  const obs = await observationPage(db, reach, query, query, filter);
  return { data: data.rows, obs: obs.rows, more: data.more || obs.more };
}

/** GET /observacao: the old observations of the company (or one branch) in a period. */
export async function legacyObservations(
  db: Kysely<DB>,
  scope: Scope,
  query: LegacyPeriod & LegacyPaging & { companyId: number; filialId?: number },
) {
  const reach = await reachOf(db, scope, { companyId: query.companyId, filialId: query.filialId });
  const page = await observationPage(db, reach, query, query, {});
  return { objetoFodaResponse: page.rows, more: page.more };
}

// ---------------------------------------------------------------------------------------------------------------
// The reports' toggle 'Mostrar dados anteriores à Agosto/2022' (§2.9; docs/legacy-data.md 'In the reports')

/**
 * A collaborator's old (room, day) groups of a period in scope, shaped as the collaborator report's day groups
 * (api/services/reports/history.ts `reportDays` unions them with the bookings' groups): the business day of each old
 * row's start, the room, the rows' ids, `anterior` true.
 */
export async function legacyDayGroups(
  db: Kysely<DB>,
  scope: Scope,
  query: { dataIni: string; dataFim: string; userId: number; environmentId?: number } & {
    companyId?: number;
    filialId?: number;
    filialClientId?: number;
  },
) {
  const filter = await resolveBranchFilter(db, scope, query);
  const own = ownWorkOf(scope);
  const { from, to } = bounds({ dataInicio: query.dataIni, dataFim: query.dataFim });
  const day = sql<string>`(h.inicio at time zone 'America/Fortaleza')::date`;
  return db
    .selectFrom("legacy_history as h")
    .select([
      day.as("data_agend"),
      "h.environment_id",
      sql<number[]>`array_agg(h.id order by h.inicio, h.id)`.as("ids"),
      sql<boolean>`true`.as("anterior"),
    ])
    .where("h.company_id", "=", filter.companyId)
    .$if(filter.branchId !== undefined, (qb) => qb.where("h.branch_id", "=", filter.branchId!))
    .$if(own !== null, (qb) => qb.where("h.user_id", "=", own!))
    .where("h.user_id", "=", query.userId)
    .$if(query.environmentId !== undefined, (qb) => qb.where("h.environment_id", "=", query.environmentId!))
    .where("h.inicio", ">=", from)
    .where("h.inicio", "<", to)
    .groupBy([day, "h.environment_id"]);
}

/**
 * What the day list shows of old groups (§4 'Old-system rows'): each old row is a task done (the old system recorded
 * only what was done), the group 'Incompleto' when any of its rows is, else 'Completo'. Keyed by the group's first id.
 */
export async function legacyDaySummaries(db: Kysely<DB>, groups: readonly { ids: readonly number[] }[]) {
  const ids = groups.flatMap((group) => group.ids);
  const summaries = new Map<number, { slots: number; tarefas: number; feitas: number; status: LegacyStatus }>();
  if (ids.length === 0) return summaries;
  const rows = await db
    .selectFrom("legacy_history")
    .select(["id", "environment_id", "user_id", "inicio", "observacao"])
    .where("id", "in", ids)
    .execute();
  const observations = await observationsMatching(db, rows);
  const statusOf = new Map(
    rows.map((row) => [
      row.id,
      legacyStatus(
        { environmentId: row.environment_id, userId: row.user_id, inicio: row.inicio, observacao: row.observacao },
        observations,
      ),
    ]),
  );
  for (const group of groups) {
    const statuses = group.ids.map((id) => statusOf.get(id) ?? "Completo");
    summaries.set(group.ids[0], {
      slots: 0,
      tarefas: statuses.length,
      feitas: statuses.length,
      status: statuses.includes("Incompleto") ? "Incompleto" : "Completo",
    });
  }
  return summaries;
}

/**
 * §4's old-system rule in SQL, for counts over many rows (`legacyStatus` decides the same for one page; the API tests
 * check both on the same rows): the row's own observation, or one of its room, collaborator and day in Fortaleza.
 */
const legacyIncomplete = sql<boolean>`(coalesce(btrim(h.observacao), '') <> '' or exists (
  select 1 from legacy_observations o
  where o.environment_id = h.environment_id and o.user_id = h.user_id and btrim(o.observacao) <> ''
    and o.created_at >= date_trunc('day', h.inicio at time zone 'America/Fortaleza') at time zone 'America/Fortaleza'
    and o.created_at < (date_trunc('day', h.inicio at time zone 'America/Fortaleza') + interval '1 day')
      at time zone 'America/Fortaleza'))`;

type LegacyCountQuery = {
  dataIni: string;
  dataFim: string;
  companyId?: number;
  filialId?: number;
  filialClientId?: number;
  environmentId?: number;
  userId?: number;
};

/** The old rows of a period in scope (tenant, branch, client branch, field staff's own), of one room or user. */
async function legacyRowsInScope(db: Kysely<DB>, scope: Scope, query: LegacyCountQuery) {
  const filter = await resolveBranchFilter(db, scope, query);
  const own = ownWorkOf(scope);
  const { from, to } = bounds({ dataInicio: query.dataIni, dataFim: query.dataFim });
  return db
    .selectFrom("legacy_history as h")
    .where("h.company_id", "=", filter.companyId)
    .$if(filter.branchId !== undefined, (qb) => qb.where("h.branch_id", "=", filter.branchId!))
    .$if(own !== null, (qb) => qb.where("h.user_id", "=", own!))
    .$if(query.userId !== undefined, (qb) => qb.where("h.user_id", "=", query.userId!))
    .$if(query.environmentId !== undefined, (qb) => qb.where("h.environment_id", "=", query.environmentId!))
    .where("h.inicio", ">=", from)
    .where("h.inicio", "<", to);
}

/**
 * A group's old-row counts, the same columns as the bookings' (`bookingCounts` in reports/history.ts): every old row
 * is one, 'Completo' or 'Incompleto' by §4's old-system rule; none is 'not done'.
 */
const legacyCounts = [
  sql<string>`count(*)`.as("agendamentos"),
  sql<string>`count(*) filter (where not ${legacyIncomplete})`.as("completos"),
  sql<string>`count(*) filter (where ${legacyIncomplete})`.as("incompletos"),
  sql<string>`0::bigint`.as("nao_realizados"),
] as const;

/**
 * The old rows of a period in scope counted per collaborator as the collaborators report counts bookings: the report
 * unions them with the bookings' counts when 'Mostrar dados anteriores à Agosto/2022' is ticked.
 */
export async function legacyCollaboratorCounts(db: Kysely<DB>, scope: Scope, query: LegacyCountQuery) {
  return (await legacyRowsInScope(db, scope, query)).select(["h.user_id", ...legacyCounts]).groupBy("h.user_id");
}

/** The same per room: the environments report's cards with 'Mostrar dados anteriores à Agosto/2022' ticked. */
export async function legacyEnvironmentCounts(db: Kysely<DB>, scope: Scope, query: LegacyCountQuery) {
  return (await legacyRowsInScope(db, scope, query))
    .select(["h.environment_id", ...legacyCounts])
    .groupBy("h.environment_id");
}

/** At most this many old rows make one day's 'Detalhes do Histórico' (an old day held a few; this bounds the answer). */
export const LEGACY_DAY_MAX_ROWS = 200;

/**
 * A collaborator's old rows of one business day in one room, in time order: the 'Detalhes do Histórico' of an old day
 * (the collaborator and the room were checked by the day's caller, api/services/reports/history.ts `reportDay`).
 */
export async function legacyDayRows(
  db: Kysely<DB>,
  scope: Scope,
  query: { data: string; userId: number; environmentId: number; companyId?: number; filialId?: number } & {
    filialClientId?: number;
  },
) {
  const reach = { ...(await resolveBranchFilter(db, scope, query)), own: ownWorkOf(scope) };
  const period = { dataInicio: query.data, dataFim: query.data };
  const filter = { userId: query.userId, environmentId: query.environmentId };
  return (await historyPage(db, reach, period, { limit: LEGACY_DAY_MAX_ROWS, page: 1 }, filter)).rows;
}

/**
 * The old rows of a period in scope for the reports' files ('Mostrar dados anteriores à Agosto/2022' ticked): of one
 * collaborator, one room or the rooms a search finds, in time order, `size` rows after the keyset `after`.
 */
export async function legacyRowsChunk(
  db: Kysely<DB>,
  scope: Scope,
  query: LegacyCountQuery & {
    q?: string;
    campos?: readonly EnvironmentSearchField[];
    after: { inicio: Date; id: number } | null;
    size: number;
  },
) {
  const search = environmentSearch(query.q, query.campos);
  const after = query.after;
  const found = await (
    await legacyRowsInScope(db, scope, query)
  )
    .selectAll("h")
    .$if(search !== null, (qb) =>
      qb.where(
        sql<boolean>`h.environment_id in (select e.id from environments e
          where e.company_id = ${scope.companyId} and ${search!(sql`e`)})`,
      ),
    )
    .$if(after !== null, (qb) => qb.where(sql<boolean>`(h.inicio, h.id) > (${after!.inicio}, ${after!.id})`))
    .orderBy("h.inicio")
    .orderBy("h.id")
    .limit(query.size + 1)
    .execute();
  return { rows: await historyRows(db, found.slice(0, query.size)), more: found.length > query.size };
}
