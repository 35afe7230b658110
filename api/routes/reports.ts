import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { REPORT_TEXTS, reportPeriod } from "../domain/reports.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { ApiError } from "../lib/errors.ts";
import { ListQuery } from "../lib/list-query.ts";
import { bearer, branchScopeQuery, errorResponses, jsonResponse, searchFieldsQuery } from "../lib/openapi.ts";
import { mayReadPersonalData, searchFieldsFor } from "../lib/personal-data.ts";
import {
  COLLABORATOR_SEARCH_FIELDS,
  collaboratorReport,
  type CollaboratorReportRow,
} from "../services/reports/collaborators.ts";

/**
 * The history reports' calls (ours, issue 23; docs/reports.md): what the report pages need beyond the §7 forms,
 * scoped like every list (tenant, branch, client branch, field staff's own work) and paged in SQL. The period is
 * checked as the pages check it (§5): no date after today, the end not before the start, at most a year.
 */

/** The report's search fields; all but the name are personal data. */
const COLLABORATOR_SEARCH = {
  all: COLLABORATOR_SEARCH_FIELDS,
  personal: ["cpf", "email", "telefone"] as const,
  message: REPORT_TEXTS.searchFieldsInvalid,
};

/** The period of a report call: 400 with the §5 text when a date is after today or reversed, or past a year. */
function checkPeriod(query: { dataIni: string; dataFim: string }) {
  const checked = reportPeriod({ inicio: query.dataIni, fim: query.dataFim }, businessToday());
  if (!checked.ok) throw new ApiError(400, checked.message, { dataFim: [checked.message] });
  if (checked.cut) throw new ApiError(400, REPORT_TEXTS.periodTooLong, { dataFim: [REPORT_TEXTS.periodTooLong] });
}

export const CollaboratorReportParams = ListQuery.extend({
  dataIni: dateField(REPORT_TEXTS.invalidPeriod),
  dataFim: dateField(REPORT_TEXTS.invalidPeriod),
  ...branchScopeQuery,
  campos: searchFieldsQuery(COLLABORATOR_SEARCH_FIELDS, REPORT_TEXTS.searchFieldsInvalid, "default colaborador"),
});
export type CollaboratorReportParams = z.input<typeof CollaboratorReportParams>;

export const CollaboratorReportItem = z
  .object({
    id: z.number(),
    nome: z.string(),
    avatar: z.string().nullable(),
    filial: z.string().nullable(),
    cpf: z.string().optional(),
    email: z.string().optional(),
    telefone: z.string().optional(),
    dataNascimento: z.string().nullable().optional(),
    agendamentos: z.number().openapi({ description: "Bookings (slots) of the period" }),
    completos: z.number(),
    incompletos: z.number(),
    naoRealizados: z.number().openapi({ description: "Never started, on a day before today" }),
  })
  .openapi("CollaboratorReportItem");
export const CollaboratorReportPage = z
  .object({ items: z.array(CollaboratorReportItem), total: z.number(), page: z.number(), size: z.number() })
  .openapi("CollaboratorReportPage");
export type CollaboratorReportPage = z.infer<typeof CollaboratorReportPage>;

const collaboratorJson = (row: CollaboratorReportRow, personal: boolean) => ({
  id: row.id,
  nome: row.nome,
  avatar: row.avatar,
  filial: row.filial,
  ...(personal ? { cpf: row.cpf, email: row.email, telefone: row.telefone, dataNascimento: row.data_nascimento } : {}),
  agendamentos: row.agendamentos,
  completos: row.completos,
  incompletos: row.incompletos,
  naoRealizados: row.nao_realizados,
});

const tags = ["Relatórios"];

export function reportRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/colaboradores",
      tags,
      summary:
        "Ours (spec 001 §2.9): one row per collaborator with bookings in the period, in scope, with the period's " +
        "counts; searched (q, campos), sorted and paged in SQL. CPF, e-mail, phone and birth date (and searching " +
        "them) only for callers who may read users",
      security: bearer,
      request: { query: CollaboratorReportParams },
      responses: {
        200: jsonResponse("One page of collaborators", CollaboratorReportPage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const user = ctx.get("user");
      const personal = mayReadPersonalData(user);
      const { rows, total, page, size } = await collaboratorReport(db, ctx.get("scope"), {
        ...query,
        campos: searchFieldsFor(user, query.campos, COLLABORATOR_SEARCH),
        today: businessToday(),
      });
      return ctx.json({ items: rows.map((row) => collaboratorJson(row, personal)), total, page, size }, 200);
    },
  );

  return app;
}
