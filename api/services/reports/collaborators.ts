import { sql, type Kysely } from "kysely";

import type { Scope } from "../../auth/scope.ts";
import type { DB } from "../../db/schema.ts";
import { foldSearch, onePage, pageOf, pageTotal, type ListQuery } from "../../lib/list-query.ts";
import { legacyCollaboratorCounts } from "../legacy.ts";

import { bookingCounts, dayCounts, reportBookingsQuery, reportDaysQuery, roomTasks } from "./history.ts";

/**
 * The collaborators report (spec 001 §2.9, issue 23; docs/reports.md): one row per collaborator with bookings in the
 * period, in scope, with how many of them were done, left incomplete, or not done; searched, sorted and paged in SQL
 * over the bookings' (scope, data_agend) indexes, so a year costs one grouped read of the period, never its rows.
 */

/** Where the report's search looks (§2.15 'Collaborator dashboard'): Colaborador (default), CPF, E-mail, Telefone. */
export const COLLABORATOR_SEARCH_FIELDS = ["colaborador", "cpf", "email", "telefone"] as const;
export type CollaboratorSearchField = (typeof COLLABORATOR_SEARCH_FIELDS)[number];
export const COLLABORATOR_SORTS = ["nome", "filial", "agendamentos", "completos"] as const;
export type CollaboratorSort = (typeof COLLABORATOR_SORTS)[number];

export type CollaboratorReportQuery = ListQuery & {
  dataIni: string;
  dataFim: string;
  companyId?: number;
  filialId?: number;
  filialClientId?: number;
  /** Ours: the collaborators of one room (the environments report's first level). */
  environmentId?: number;
  /** Ours: one collaborator ('Detalhes do Colaborador'). */
  userId?: number;
  campos?: readonly CollaboratorSearchField[];
  /** 'Today' in Fortaleza: a slot of an earlier day that was never started counts as not done. */
  today: string;
  /** 'Mostrar dados anteriores à Agosto/2022': the old system's rows counted too (docs/legacy-data.md). */
  anteriores?: boolean;
  /** 'Sem leitura do QR': only the slots the field app started without the room's current QR value. */
  semQr?: boolean;
  /** 'Enviado com atraso': only the slots with a record received late (docs/field-app.md 'Proof flags'). */
  atraso?: boolean;
};

export type CollaboratorReportRow = {
  id: number;
  nome: string;
  cpf: string;
  email: string;
  telefone: string;
  avatar: string | null;
  data_nascimento: string | null;
  filial: string | null;
  agendamentos: number;
  completos: number;
  incompletos: number;
  nao_realizados: number;
};

const digits = (text: string) => text.replace(/\D/g, "");

/** One page of the report and its total. */
export async function collaboratorReport(db: Kysely<DB>, scope: Scope, query: CollaboratorReportQuery) {
  const period = {
    dataIni: query.dataIni,
    dataFim: query.dataFim,
    companyId: query.companyId,
    filialId: query.filialId,
    filialClientId: query.filialClientId,
    environmentId: query.environmentId,
    userId: query.userId,
  };
  const term = query.q?.trim() ?? "";
  const fields = query.campos?.length ? query.campos : (["colaborador"] as const);
  const folded = foldSearch(term);
  const numbers = digits(term) ? `%${digits(term)}%` : null;
  const matches = (field: CollaboratorSearchField) => {
    switch (field) {
      case "colaborador":
        return sql<boolean>`u.nome_folded like ${folded}`;
      case "email":
        return sql<boolean>`lower(u.email) like ${folded}`;
      case "cpf":
        return numbers === null ? sql<boolean>`false` : sql<boolean>`u.cpf like ${numbers}`;
      case "telefone":
        return numbers === null
          ? sql<boolean>`false`
          : sql<boolean>`regexp_replace(u.telefone, '\\D', '', 'g') like ${numbers}`;
    }
  };
  // The period's days are summed per collaborator from the daily roll-up (docs/reports.md 'The daily roll-up'); the
  // collaborators' names, the search and the sort then join those few groups (the same rows: a filter on the user
  // holds for every booking of that user, before or after the count).
  // The proof filters narrow the bookings themselves, which the roll-up does not tell apart: then the period's slots
  // are counted (false, not null: a slot started before the field app proves nothing either way).
  const days = async () =>
    (await reportDaysQuery(db, scope, period, { today: query.today }))
      .select(["b.user_id", ...dayCounts(query.today)])
      .groupBy("b.user_id");
  type Counted = Awaited<ReturnType<typeof days>>;
  const bookingCounted: Counted =
    query.semQr === true || query.atraso === true
      ? ((await reportBookingsQuery(db, scope, period))
          .$if(query.semQr === true, (qb) => qb.where("b.iniciada_via_qr", "=", false))
          .$if(query.atraso === true, (qb) => qb.where("b.envio_atraso_s", ">", 0))
          .leftJoin(roomTasks(db, scope.companyId), "rt.environment_id", "b.environment_id")
          .select(["b.user_id", ...bookingCounts(query.today)])
          .groupBy("b.user_id") as unknown as Counted)
      : await days();
  // With the old system's rows: both counts per collaborator, added up. They carry no proof flags: a proof filter
  // leaves them out.
  const counts =
    query.anteriores && !query.semQr && !query.atraso
      ? // The same columns as the bookings' counts (user_id and the four counts), so the rest reads either alike.
        (db
          .selectFrom(bookingCounted.unionAll(await legacyCollaboratorCounts(db, scope, query)).as("c"))
          .select([
            "c.user_id",
            sql<string>`sum(c.agendamentos)::bigint`.as("agendamentos"),
            sql<string>`sum(c.completos)::bigint`.as("completos"),
            sql<string>`sum(c.incompletos)::bigint`.as("incompletos"),
            sql<string>`sum(c.nao_realizados)::bigint`.as("nao_realizados"),
          ])
          .groupBy("c.user_id") as unknown as typeof bookingCounted)
      : bookingCounted;
  const grouped = db
    .selectFrom(counts.as("g"))
    .innerJoin("users as u", "u.id", "g.user_id")
    .$if(term !== "", (qb) => qb.where(sql<boolean>`(${sql.join(fields.map(matches), sql` or `)})`));
  const sortKey = {
    nome: sql`u.nome_folded`,
    filial: sql`(select br.nome_folded from branches br where br.id = u.branch_id)`,
    agendamentos: sql`g.agendamentos`,
    completos: sql`g.completos`,
  }[(COLLABORATOR_SORTS as readonly string[]).includes(query.sort ?? "") ? (query.sort as CollaboratorSort) : "nome"];
  const direction = query.dir === "desc" ? sql`desc` : sql`asc`;
  const { page, size, limit, offset } = pageOf(query);
  const rows = await grouped
    .select([
      "u.id",
      "u.nome",
      "u.cpf",
      "u.email",
      "u.telefone",
      "u.avatar",
      "u.data_nascimento",
      sql<string | null>`(select br.nome from branches br where br.id = u.branch_id)`.as("filial"),
      "g.agendamentos",
      "g.completos",
      "g.incompletos",
      "g.nao_realizados",
      // The total comes with the page (the groups counted once): a second read of the period only for a page past the end.
      sql<string>`count(*) over ()`.as("total_rows"),
    ])
    .orderBy(sql`${sortKey} ${direction}`)
    .orderBy("u.id")
    .$call(onePage({ limit, offset }))
    .execute();
  const total = await pageTotal(db, rows, offset, () => grouped.select("u.id"));
  return {
    rows: rows.map(({ total_rows: _total, ...row }): CollaboratorReportRow => ({
      ...row,
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
