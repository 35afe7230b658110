import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import type { GroupFigures } from "../domain/client-report.ts";
import { REPORT_TEXTS } from "../domain/reports.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { bearer, branchScopeQuery, errorResponses, jsonResponse } from "../lib/openapi.ts";
import { clientReport, type ClientReport } from "../services/reports/client.ts";

import { checkPeriod } from "./reports.ts";

/**
 * The client report's call (ours, issue 24 part 3; docs/decisions/006-client-report.md): one branch and one period,
 * the outcome of every scheduled cleaning counted in SQL, by room and by week, the incidents and a sample of photos.
 * Scoped like every report: a client (roleId 7) and a branch-level user read their own branch (another one is 404),
 * a company-wide user names one branch of the tenant (another tenant's is 404; none or -1 is 400), field staff their
 * own work. The period is checked as the pages check it (§5): no date after today, not reversed, at most a year.
 */

export const ClientReportParams = z.object({
  dataIni: dateField(REPORT_TEXTS.invalidPeriod),
  dataFim: dateField(REPORT_TEXTS.invalidPeriod),
  ...branchScopeQuery,
});
export type ClientReportParams = z.input<typeof ClientReportParams>;

const share = z.number().nullable().openapi({ description: "Percent of agendadas, one decimal, half up; null: none" });

const Figures = {
  agendadas: z.number().openapi({ description: "Booking rows (day × slot) of the period up to today" }),
  concluidas: z.number().openapi({ description: "'Completo' = noPrazo + atrasadas" }),
  noPrazo: z.number(),
  atrasadas: z
    .number()
    .openapi({ description: "'Completo', started after the scheduled start + the company's tolerance" }),
  naoRealizadas: z.number().openapi({ description: "naoIniciadas + incompletas + naoConcluidas" }),
  naoIniciadas: z.number().openapi({ description: "Never started, on a day before today" }),
  incompletas: z.number().openapi({ description: "Reported 'Incompleto'" }),
  naoConcluidas: z.number().openapi({ description: "Started ('Andamento') before today, never closed" }),
  pendentes: z.number().openapi({ description: "Today's, not closed yet" }),
  percentuais: z.object({
    concluidas: share,
    noPrazo: share,
    atrasadas: share,
    naoRealizadas: share,
    pendentes: share,
  }),
};

export const ClientReportAnswer = z
  .object({
    filial: z.object({ id: z.number(), nome: z.string() }),
    periodo: z.object({
      dataIni: z.string(),
      dataFim: z.string(),
      contadoAte: z.string().openapi({ description: "The last day counted: dataFim, or today when it reaches today" }),
    }),
    toleranciaMinutos: z.number(),
    resumo: z.object(Figures),
    ambientes: z.array(z.object({ ambienteId: z.number(), ambiente: z.string(), ...Figures })),
    semanas: z.array(
      z.object({
        semana: z.string().openapi({ description: "The week's Monday" }),
        inicio: z.string().openapi({ description: "The week's first day in the period" }),
        fim: z.string(),
        ...Figures,
      }),
    ),
    ocorrencias: z.object({
      items: z.array(
        z.object({
          agendamentoId: z.number(),
          data: z.string(),
          tipo: z.enum(["Principal", "Revisão", "Extra"]),
          horaIni: z.string(),
          horaFim: z.string(),
          ambiente: z.string(),
          colaborador: z.string(),
          justificativa: z.string().nullable(),
        }),
      ),
      total: z.number().openapi({ description: "Every incident of the period (items holds the newest 30)" }),
    }),
    fotos: z.array(
      z.object({
        ambienteId: z.number(),
        ambiente: z.string(),
        fotos: z.array(
          z.object({
            nome: z.string().openapi({ description: "GET /api/files/photos/{nome}" }),
            data: z.string(),
            procedimento: z.string(),
            registradoEm: z.string(),
          }),
        ),
      }),
    ),
  })
  .openapi("ClientReport");
export type ClientReportAnswer = z.infer<typeof ClientReportAnswer>;

const figuresJson = (figures: GroupFigures) => ({
  agendadas: figures.agendadas,
  concluidas: figures.concluidas,
  noPrazo: figures.noPrazo,
  atrasadas: figures.atrasadas,
  naoRealizadas: figures.naoRealizadas,
  naoIniciadas: figures.naoIniciadas,
  incompletas: figures.incompletas,
  naoConcluidas: figures.naoConcluidas,
  pendentes: figures.pendentes,
  percentuais: figures.percentuais,
});

const reportJson = (report: ClientReport): ClientReportAnswer => ({
  filial: report.branch,
  periodo: { dataIni: report.period.from, dataFim: report.period.to, contadoAte: report.period.until },
  toleranciaMinutos: report.toleranceMinutes,
  resumo: figuresJson(report.summary),
  ambientes: report.environments.map((room) => ({
    ambienteId: room.environmentId,
    ambiente: room.ambiente,
    ...figuresJson(room),
  })),
  semanas: report.weeks.map((week) => ({
    semana: week.semana,
    inicio: week.inicio,
    fim: week.fim,
    ...figuresJson(week),
  })),
  ocorrencias: {
    items: report.incidents.items.map((incident) => ({
      agendamentoId: incident.bookingId,
      data: incident.dataAgend,
      tipo: incident.type,
      horaIni: incident.horaIni,
      horaFim: incident.horaFim,
      ambiente: incident.ambiente,
      colaborador: incident.colaborador,
      justificativa: incident.justificativa,
    })),
    total: report.incidents.total,
  },
  fotos: report.photos.map((room) => ({
    ambienteId: room.environmentId,
    ambiente: room.ambiente,
    fotos: room.photos.map((photo) => ({
      nome: photo.image,
      data: photo.dataAgend,
      procedimento: photo.procedure,
      registradoEm: photo.createdAt,
    })),
  })),
});

export function clientReportRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/cliente",
      tags: ["Relatórios"],
      summary:
        "Ours (/relatorio-cliente): one branch's scheduled cleanings of a period up to today, each counted once as " +
        "done on time, done late (the company's tolerance), not done or pending; by room and by week; the newest " +
        "incidents with their reasons and the count of all; the newest photos of each room",
      security: bearer,
      request: { query: ClientReportParams },
      responses: {
        200: jsonResponse("The report", ClientReportAnswer),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const report = await clientReport(db, ctx.get("scope"), { ...query, today: businessToday() });
      return ctx.json(reportJson(report), 200);
    },
  );

  return app;
}
