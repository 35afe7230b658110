import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import {
  ACTIVITY_FILTER_VALUES,
  ACTIVITY_TEXTS,
  activityDone,
  activityStatus,
  performedTimes,
} from "../domain/activities.ts";
import { REPORT_TEXTS } from "../domain/reports.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { ListQuery } from "../lib/list-query.ts";
import { bearer, branchScopeQuery, errorResponses, int32, jsonResponse } from "../lib/openapi.ts";
import { activityDetail, activityReport, type ActivityRow } from "../services/reports/activities.ts";

import { checkPeriod } from "./reports.ts";

/**
 * The activity reports' calls (ours, spec 001 §2.12; issue 24 part 2; docs/activity-reports.md): the bookings of a
 * period in scope as activities, 'Feito' or 'Pendente' (§4), filtered, searched and paged in SQL; one activity with
 * the procedures executed in it. The period is checked as every report call checks it (§5).
 */

export const ActivityReportParams = ListQuery.extend({
  dataIni: dateField(REPORT_TEXTS.invalidPeriod),
  dataFim: dateField(REPORT_TEXTS.invalidPeriod),
  ...branchScopeQuery,
  atividade: z.enum(ACTIVITY_FILTER_VALUES, { error: ACTIVITY_TEXTS.filterInvalid }).optional().openapi({
    description:
      "todos (default), feitas (with history), pendentes (without), imagens (with history and at least one photo)",
  }),
}).openapi({ description: "q: case-insensitive substring of the branch (Empresa), room or collaborator's name" });
export type ActivityReportParams = z.input<typeof ActivityReportParams>;

const CleaningType = z.enum(["Principal", "Revisão", "Extra"]);

export const ActivityReportItem = z
  .object({
    id: z.number().openapi({ description: "The booking (agendamento)" }),
    empresa: z.string().openapi({ description: "The branch's name" }),
    ambiente: z.string(),
    data: z.string().openapi({ description: "Scheduled day, yyyy-MM-dd" }),
    horaIni: z.string(),
    horaFim: z.string(),
    tipo: CleaningType,
    colaborador: z.string(),
    feito: z.boolean().openapi({ description: "Spec 001 §4: the booking has history ('Feito'), else 'Pendente'" }),
    fotos: z.number().openapi({ description: "Executions with a photo" }),
    foto: z.string().nullable().openapi({ description: "The first photo's name: GET /api/fotos/{name}" }),
  })
  .openapi("ActivityReportItem");
export type ActivityReportItem = z.infer<typeof ActivityReportItem>;
export const ActivityReportPage = z
  .object({ items: z.array(ActivityReportItem), total: z.number(), page: z.number(), size: z.number() })
  .openapi("ActivityReportPage");
export type ActivityReportPage = z.infer<typeof ActivityReportPage>;

const itemJson = (row: ActivityRow): z.infer<typeof ActivityReportItem> => ({
  id: row.id,
  empresa: row.empresa,
  ambiente: row.ambiente,
  data: row.data,
  horaIni: row.horaIni,
  horaFim: row.horaFim,
  tipo: row.tipo,
  colaborador: row.colaborador,
  feito: activityDone(row),
  fotos: row.fotos,
  foto: row.foto,
});

export const ActivityDetailParams = z.object({ ...branchScopeQuery });
export type ActivityDetailParams = z.input<typeof ActivityDetailParams>;

export const ActivityDetail = ActivityReportItem.extend({
  status: z.enum(["Feito", "Pendente"]),
  atividades: z.array(
    z.object({
      id: z.number(),
      procedimento: z.string(),
      inicio: z
        .string()
        .nullable()
        .openapi({ description: "Performed start (UTC): the slot's start for the first, else the previous one's end" }),
      fim: z.string().openapi({ description: "Performed end (UTC): when it was recorded" }),
      observacao: z.string().nullable(),
      ocorrencia: z.string().nullable(),
      foto: z.string().nullable(),
    }),
  ),
}).openapi("ActivityDetail");
export type ActivityDetail = z.infer<typeof ActivityDetail>;

const tags = ["Relatórios"];

export function reportActivityRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/atividades",
      tags,
      summary:
        "Ours (spec 001 §2.12): one row per booking (a day's slot) in the period and scope, 'Feito' when it has " +
        "history (§4); filtered by atividade, searched (q: branch, room, collaborator), sorted (data, empresa, " +
        "ambiente) and paged in SQL",
      security: bearer,
      request: { query: ActivityReportParams },
      responses: {
        200: jsonResponse("One page of activities", ActivityReportPage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const { rows, total, page, size } = await activityReport(db, ctx.get("scope"), {
        ...query,
        atividade: query.atividade ?? "todos",
      });
      return ctx.json({ items: rows.map(itemJson), total, page, size }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/atividades/{id}",
      tags,
      summary:
        "Ours (spec 001 §2.12 'Detalhes'): one booking in scope with its status and the procedures executed in it, " +
        "each with its performed start and end, observation and photo; 404 outside the scope",
      security: bearer,
      request: { params: z.object({ id: int32 }), query: ActivityDetailParams },
      responses: {
        200: jsonResponse("The activity", ActivityDetail),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const { id } = ctx.req.valid("param");
      const detail = await activityDetail(db, ctx.get("scope"), { ...ctx.req.valid("query"), id });
      return ctx.json(
        {
          ...itemJson(detail),
          status: activityStatus(detail),
          atividades: performedTimes(detail.inicio, detail.execucoes).map((execution) => ({
            id: execution.id,
            procedimento: execution.procedimento,
            inicio: execution.inicio,
            fim: execution.fim,
            observacao: execution.observacao,
            ocorrencia: execution.ocorrencia,
            foto: execution.image,
          })),
        },
        200,
      );
    },
  );

  return app;
}
