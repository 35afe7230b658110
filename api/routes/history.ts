import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { cleaningType } from "../domain/reports.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { SCHEDULE_TEXTS as T } from "../domain/schedule-texts.ts";
import {
  bearer,
  branchScopeQuery,
  errorResponses,
  hhmm,
  int32,
  iso,
  jsonResponse,
  limitPageQuery,
} from "../lib/openapi.ts";
import { listAgendaHistory, listCompanyHistory, listEnvironmentHistory, type HistoryRow } from "../services/history.ts";

/**
 * History reads of spec 001 §7 (GET /historic/v2/company, /agenda, /byEnvironment/{id}): HTTP only, over
 * api/services/history.ts (docs/scheduling.md 'History and the execution API'). Any signed-in user, within scope.
 */

/** The spec's Historic entry (§3), with the booking (slot) it was done in. */
export const HistoryEntry = z
  .object({
    id: z.number(),
    agendamentoId: z.number(),
    tasksId: z.number().openapi({ description: "The procedure" }),
    revisionId: z.number().nullable(),
    userId: z.number(),
    createdAt: z.string().openapi({ description: "When the procedure was done (UTC; the phone's instant)" }),
    receivedAt: z
      .string()
      .nullable()
      .openapi({ description: "Ours: when the server received it (UTC); null before the field app" }),
    updatedAt: z.string(),
    image: z.string().nullable().openapi({ description: "The photo's file name in the photos store" }),
    observacao: z.string().nullable(),
    ocorrencia: z.string().nullable(),
    nameUser: z.object({ name: z.string() }),
    Procedure: z.object({ id: z.number(), name: z.string() }),
    Agendamento: z.object({
      id: z.number(),
      companyId: z.number().openapi({ description: "The branch (filial) of the booking" }),
      agendaId: z.number(),
      dataAgend: z.string().openapi({ description: "yyyy-MM-dd (business date)" }),
      slot: z.number(),
      type: z.enum(["Principal", "Revisão", "Extra"]).openapi({ description: "Extra: a corrective cleaning" }),
      horaIni: z.string().openapi({ description: "HH:mm" }),
      horaFim: z.string(),
      status: z.enum(["Andamento", "Completo", "Incompleto"]).nullable(),
      startDate: z.string().nullable(),
      finishedAt: z.string().nullable(),
      justificativa: z.string().nullable(),
      Agenda: z.object({ Id_Environments: z.number() }),
      Environment: z.object({ id: z.number(), name: z.string() }),
    }),
  })
  .openapi("HistoryEntry");
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const historyJson = (row: HistoryRow): HistoryEntry => ({
  id: row.id,
  agendamentoId: row.booking_id,
  tasksId: row.procedure_id,
  revisionId: row.revision_id,
  userId: row.user_id,
  createdAt: row.created_at.toISOString(),
  receivedAt: iso(row.received_at),
  updatedAt: row.updated_at.toISOString(),
  image: row.image,
  observacao: row.observacao,
  ocorrencia: row.ocorrencia,
  nameUser: { name: row.user_nome },
  Procedure: { id: row.procedure_id, name: row.procedure },
  Agendamento: {
    id: row.booking_id,
    companyId: row.branch_id,
    agendaId: row.agenda_id,
    dataAgend: row.data_agend,
    slot: row.slot,
    type: cleaningType(row.slot, row.incident_id),
    horaIni: hhmm(row.hora_ini),
    horaFim: hhmm(row.hora_fim),
    status: row.status,
    startDate: iso(row.start_date),
    finishedAt: iso(row.finished_at),
    justificativa: row.justificativa,
    Agenda: { Id_Environments: row.environment_id },
    Environment: { id: row.environment_id, name: row.environment },
  },
});

const range = {
  dataIni: dateField(T.dateRangeInvalid),
  dataFim: dateField(T.dateRangeInvalid),
  ...limitPageQuery,
};

export const CompanyHistoryParams = z.object({
  ...range,
  ...branchScopeQuery,
});
export type CompanyHistoryParams = z.input<typeof CompanyHistoryParams>;

export const AgendaHistoryParams = z.object({
  ...range,
  agendaId: int32.openapi({ description: "The agenda; -1 answers an empty list" }),
});
export type AgendaHistoryParams = z.input<typeof AgendaHistoryParams>;

export const EnvironmentHistoryParams = z.object(range);
export type EnvironmentHistoryParams = z.input<typeof EnvironmentHistoryParams>;

const tags = ["Histórico"];
const answers = {
  200: jsonResponse("The executed procedures, in day, slot and execution order", z.array(HistoryEntry)),
  400: errorResponses[400],
  404: errorResponses[404],
};

export function historyRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/historic/v2/company",
      tags,
      summary: "History (executed procedures) of the bookings of a date range, by company or one branch, in scope",
      security: bearer,
      request: { query: CompanyHistoryParams },
      responses: answers,
    }),
    async (ctx) =>
      ctx.json((await listCompanyHistory(db, ctx.get("scope"), ctx.req.valid("query"))).map(historyJson), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/historic/v2/agenda",
      tags,
      summary: "History of one agenda's bookings of a date range, in scope",
      security: bearer,
      request: { query: AgendaHistoryParams },
      responses: answers,
    }),
    async (ctx) =>
      ctx.json((await listAgendaHistory(db, ctx.get("scope"), ctx.req.valid("query"))).map(historyJson), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/historic/v2/byEnvironment/{id}",
      tags,
      summary: "History of one environment's bookings of a date range (the room page asks today and tomorrow)",
      security: bearer,
      request: { params: z.object({ id: int32 }), query: EnvironmentHistoryParams },
      responses: answers,
    }),
    async (ctx) =>
      ctx.json(
        (await listEnvironmentHistory(db, ctx.get("scope"), ctx.req.valid("param").id, ctx.req.valid("query"))).map(
          historyJson,
        ),
        200,
      ),
  );

  return app;
}
