import { sql, type Kysely } from "kysely";

import type { BranchQuery, Scope } from "../../auth/scope.ts";
import type { DB } from "../../db/schema.ts";
import { onePage, pageOf, pageTotal, type ListQuery } from "../../lib/list-query.ts";
import { legacyEnvironmentCounts } from "../legacy.ts";

import { environmentSearch, type EnvironmentSearchField } from "./environment-search.ts";
import { dayCounts, reportDaysQuery } from "./history.ts";

/**
 * The environments report (spec 001 §2.10, issue 23; docs/reports.md): one card per room with bookings in the period
 * and scope, with the period's counts; the rooms searched in the chosen fields, sorted and paged in SQL. With
 * 'Mostrar dados anteriores à Agosto/2022' (`anteriores`) the old system's rows of the period count too, so a room
 * with old rows only has a card (docs/legacy-data.md).
 */

export const ENVIRONMENT_REPORT_SORTS = ["nome", "categoria", "setor", "andar", "agendamentos"] as const;
type EnvironmentReportSort = (typeof ENVIRONMENT_REPORT_SORTS)[number];

export type EnvironmentReportRow = {
  id: number;
  nome: string;
  categoria: string;
  setor: string;
  andar: string;
  filial: string;
  agendamentos: number;
  completos: number;
  incompletos: number;
  nao_realizados: number;
};

/** One page of the report's rooms and its total. */
export async function environmentReport(
  db: Kysely<DB>,
  scope: Scope,
  query: BranchQuery &
    ListQuery & {
      dataIni: string;
      dataFim: string;
      campos?: readonly EnvironmentSearchField[];
      today: string;
      anteriores?: boolean;
    },
) {
  const days = await reportDaysQuery(db, scope, query, { today: query.today });
  const categoria = sql<string>`(select c.name from categories c where c.id = e.category_id)`;
  const setor = sql<string>`(select s.name from sectors s where s.id = e.sector_id)`;
  const sort: EnvironmentReportSort = (ENVIRONMENT_REPORT_SORTS as readonly string[]).includes(query.sort ?? "")
    ? (query.sort as EnvironmentReportSort)
    : "nome";
  const sortKey = {
    nome: sql`e.name_folded`,
    categoria: sql`(select c.name_folded from categories c where c.id = e.category_id)`,
    setor: sql`(select s.name_folded from sectors s where s.id = e.sector_id)`,
    andar: sql`e.andar_folded`,
    agendamentos: sql`g.agendamentos`,
  }[sort];
  const { page, size, limit, offset } = pageOf(query);
  // The period's days are summed per room from the daily roll-up (docs/reports.md 'The daily roll-up'); the rooms'
  // names and sort keys then join those few groups.
  const bookingCounted = days.select(["b.environment_id", ...dayCounts(query.today)]).groupBy("b.environment_id");
  // With the old system's rows: both counts per room, added up (the same columns, so the rest reads either alike).
  const counts = query.anteriores
    ? (db
        .selectFrom(bookingCounted.unionAll(await legacyEnvironmentCounts(db, scope, query)).as("c"))
        .select([
          "c.environment_id",
          sql<string>`sum(c.agendamentos)::bigint`.as("agendamentos"),
          sql<string>`sum(c.completos)::bigint`.as("completos"),
          sql<string>`sum(c.incompletos)::bigint`.as("incompletos"),
          sql<string>`sum(c.nao_realizados)::bigint`.as("nao_realizados"),
        ])
        .groupBy("c.environment_id") as unknown as typeof bookingCounted)
    : bookingCounted;
  // The bookings were searched before they were counted; the old rows' rooms are searched here, on the few groups.
  const search = query.anteriores ? environmentSearch(query.q, query.campos) : null;
  const grouped = db
    .selectFrom(counts.as("g"))
    .innerJoin("environments as e", "e.id", "g.environment_id")
    .$if(search !== null, (qb) => qb.where(search!(sql`e`)));
  const rows = await grouped
    .select([
      "e.id",
      "e.name as nome",
      categoria.as("categoria"),
      setor.as("setor"),
      "e.andar",
      sql<string>`(select br.nome from branches br where br.id = e.branch_id)`.as("filial"),
      "g.agendamentos",
      "g.completos",
      "g.incompletos",
      "g.nao_realizados",
      sql<string>`count(*) over ()`.as("total_rows"),
    ])
    .orderBy(sql`${sortKey} ${query.dir === "desc" ? sql`desc` : sql`asc`}`)
    .orderBy("e.id")
    .$call(onePage({ limit, offset }))
    .execute();
  const total = await pageTotal(db, rows, offset, () => grouped.select("e.id"));
  return {
    rows: rows.map(({ total_rows: _total, ...row }): EnvironmentReportRow => ({
      ...row,
      categoria: row.categoria ?? "",
      setor: row.setor ?? "",
      filial: row.filial ?? "",
      agendamentos: Number(row.agendamentos),
      completos: Number(row.completos),
      incompletos: Number(row.incompletos),
      nao_realizados: Number(row.nao_realizados),
    })),
    total,
    page,
    size,
  };
}
