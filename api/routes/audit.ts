import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import {
  AUDIT_MAX_CHOICES,
  AUDIT_TEXTS,
  auditCharts,
  auditPeriodError,
  type ChartDescription,
} from "../domain/audit.ts";
import { periodHeading } from "../domain/board.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { ApiError } from "../lib/errors.ts";
import { bearer, branchScopeQuery, errorResponses, INT32_MAX, jsonResponse } from "../lib/openapi.ts";
import { AUDIT_OPTIONS_MAX, auditAggregates, auditOptions, enabledBoards } from "../services/audit.ts";

/**
 * The audit dashboard's call (ours, spec 001 §2.13; issue 25; docs/audit-dashboard.md): every enabled board's chart
 * description for a period, in scope and under the 'Filtros' choices. The §7 lookups the filter dialog reads
 * (empresas/all, empresas/quadros, /environments/?id=, allUsers) are the organisation's calls.
 */

/** A filter's ids, comma-separated: positive 32-bit integers, at most AUDIT_MAX_CHOICES. */
const idList = (what: string) =>
  z
    .string()
    .max(600)
    .optional()
    .transform((value, ctx) => {
      const parts = (value ?? "").split(",").filter(Boolean);
      const ids = parts.map(Number);
      if (parts.some((part, index) => !/^\d{1,10}$/.test(part) || ids[index] < 1 || ids[index] > INT32_MAX)) {
        ctx.addIssue({ code: "custom", message: `Filtro inválido: ${what}` });
      }
      if (ids.length > AUDIT_MAX_CHOICES) ctx.addIssue({ code: "custom", message: AUDIT_TEXTS.tooManyChoices });
      return ids;
    })
    .openapi({ type: "string", description: `${what}: ids, comma-separated (at most ${AUDIT_MAX_CHOICES})` });

export const AuditParams = z.object({
  dataIni: dateField(AUDIT_TEXTS.invalidPeriod),
  dataFim: dateField(AUDIT_TEXTS.invalidPeriod),
  ...branchScopeQuery,
  filiais: idList("Empresa (filiais)"),
  colaboradores: idList("Colaborador"),
  ambientes: idList("Ambiente"),
  categorias: idList("Categoria"),
  setores: idList("Setor"),
  procedimentos: idList("Procedimento (ambientes que o têm)"),
});
export type AuditParams = z.input<typeof AuditParams>;

const Chart = z
  .object({
    board: z
      .literal([1, 2, 3, 4, 5, 6, 7, 8, 9])
      .openapi({ description: "1 to 8 the spec's slot boards; 9 ours, the inspections' mean score per week" }),
    title: z.string(),
    sheet: z.string(),
    type: z.enum(["doughnut", "bar"]),
    stacked: z.boolean(),
    unit: z.enum(["atividades", "horas", "minutos", "%", "nota"]).openapi({
      description: "'%' a share with two decimals; 'nota' an inspection score in percent with one decimal",
    }),
    labels: z.array(z.string()),
    datasets: z.array(z.object({ label: z.string(), data: z.array(z.number()), colours: z.array(z.string()) })),
    summary: z.string(),
    empty: z.boolean(),
  })
  .openapi("AuditChart");

export const AuditAnswer = z
  .object({
    periodo: z.string().openapi({ description: "The period in words (§2.13: the four Portuguese forms)" }),
    quadros: z.array(z.number()).openapi({ description: "The company's enabled boards, 1 to 9" }),
    graficos: z.array(Chart).openapi({ description: "The enabled boards' charts, in board order" }),
  })
  .openapi("AuditDashboard");
export type AuditAnswer = z.infer<typeof AuditAnswer>;

export const AuditOptionsParams = z.object({ ...branchScopeQuery, filiais: idList("Empresa (filiais)") });
export type AuditOptionsParams = z.input<typeof AuditOptionsParams>;

const Options = z.array(z.object({ id: z.number(), nome: z.string() }));
export const AuditOptionsAnswer = z
  .object({
    filiais: Options,
    colaboradores: Options,
    ambientes: Options,
    categorias: Options,
    setores: Options,
    procedimentos: Options,
    mais: z.array(z.string()).openapi({ description: "The lists cut at their maximum" }),
  })
  .openapi("AuditOptions");
export type AuditOptionsAnswer = z.infer<typeof AuditOptionsAnswer>;

export function auditRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(
    createRoute({
      method: "get",
      path: "/auditoria",
      tags: ["Auditoria"],
      summary:
        "Ours (spec 001 §2.13): the enabled boards' charts of a period (at most 366 days), in scope and under the " +
        "filters, each from one SQL aggregate (top 10; top 8 for Previsto x Realizado; a slot's time capped at 24 " +
        "h); board 9, ours: the inspections' mean score per week (Monday first), under filiais, ambientes, " +
        "categorias and setores only",
      security: bearer,
      request: { query: AuditParams },
      responses: {
        200: jsonResponse("The charts", AuditAnswer),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      const refused = auditPeriodError(query.dataIni, query.dataFim);
      if (refused) throw new ApiError(400, refused, { dataFim: [refused] });
      const scope = ctx.get("scope");
      const quadros = await enabledBoards(db, scope.companyId);
      const aggregates = await auditAggregates(db, scope, { ...query, today: businessToday() }, quadros);
      const graficos: ChartDescription[] = auditCharts(aggregates, quadros);
      return ctx.json({ periodo: periodHeading({ from: query.dataIni, to: query.dataFim }), quadros, graficos }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/auditoria/opcoes",
      tags: ["Auditoria"],
      summary:
        "Ours (spec 001 §2.13 'Filtros'): the dialog's lists in scope: the branches ('Empresa'), then the " +
        "collaborators (coordenador 0), rooms, categories, sectors and procedures of the chosen branches (filiais), " +
        `each by name, at most ${AUDIT_OPTIONS_MAX}; mais names the lists that were cut`,
      security: bearer,
      request: { query: AuditOptionsParams },
      responses: {
        200: jsonResponse("The lists", AuditOptionsAnswer),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => ctx.json(await auditOptions(db, ctx.get("scope"), ctx.req.valid("query")), 200),
  );
  return app;
}
