import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { differenceInCalendarDays } from "date-fns";

import { requirePermission } from "../auth/middleware.ts";
import { assertIdsInScope, resolveBranchFilter } from "../auth/scope.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { INCIDENT_HANDLING_TEXTS as T, INCIDENT_KIND_TEXTS, INCIDENT_STATUSES } from "../domain/incidents.ts";
import { REPORT_TEXTS } from "../domain/reports.ts";
import { can } from "../domain/roles.ts";
import { businessToday, dayOf } from "../domain/schedule-expansion.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { PAGE_SIZES, SIZE_INVALID } from "../lib/list-query.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  changeIncident,
  incidentOwners,
  incidentSummary,
  listIncidents,
  readIncident,
  type IncidentChange,
} from "../services/incident-handling.ts";
import { correctiveHours, createCorrective } from "../services/incident-resolution.ts";
import { INCIDENT_PHOTO_FOLDER } from "../services/incidents.ts";
import { listSchedulableUsers } from "../services/scheduling.ts";

import { FILE_NOT_FOUND, privateImage } from "./files.ts";

/**
 * The managers' incident calls (issue 28 §3–4, docs/incidents.md): the list with its filters, one incident with its
 * timeline and the people it may be assigned to, and the changes (take on, assign, deadline, discard). Roles 1–4,
 * 7 and no role read (scoped: tenant, own branch, client branch); roles 1–3 and no role change. Field staff resolve
 * theirs through the execution API.
 */

const Incident = z
  .object({
    id: z.number(),
    status: z.enum(INCIDENT_STATUSES),
    atrasada: z.boolean().openapi({ description: "Open and past its deadline" }),
    relatos: z.number().openapi({ description: "Identical reports merged into it" }),
    tipo: z.string(),
    prova: z.enum(["foto", "nota", "ambos"]).openapi({ description: "The proof resolving it needs" }),
    descricao: z.string(),
    ambiente: z.object({ id: z.number(), nome: z.string() }),
    filial: z.object({ id: z.number(), nome: z.string() }),
    responsavel: z.string().nullable().openapi({ description: "null: the branch's coordinators" }),
    criadaEm: z.string(),
    prazo: z.string(),
    encerradaEm: z.string().nullable(),
  })
  .openapi("Incident");

const IncidentDetail = Incident.extend({
  foto: z.string().nullable().openapi({ description: "The visitor's photo (GET /ocorrencias/{id}/fotos/{name})" }),
  motivoDescarte: z.string().nullable(),
  responsavelId: z.number().nullable(),
  podeAlterar: z.boolean().openapi({ description: "Whether the caller may change it (roles 1–3, no role)" }),
  responsaveis: z.array(z.object({ id: z.number(), nome: z.string() })),
  colaboradores: z
    .array(z.object({ id: z.number(), nome: z.string() }))
    .openapi({ description: "The branch's ASGs a corrective cleaning may be for (when podeAlterar)" }),
  limpezaSugerida: z
    .object({ horaIni: z.string(), horaFim: z.string() })
    .openapi({ description: "The default hours of a corrective cleaning created now" }),
  eventos: z.array(
    z.object({
      tipo: z.string(),
      detalhe: z.string(),
      autor: z.string().nullable().openapi({ description: "null: the visitor or the system" }),
      foto: z.string().nullable().openapi({ description: "A photo of the event (GET /ocorrencias/{id}/fotos/{name})" }),
      em: z.string(),
    }),
  ),
}).openapi("IncidentDetail");

type Row = Awaited<ReturnType<typeof listIncidents>>["items"][number];
const incidentJson = (row: Row): z.infer<typeof Incident> => ({
  id: row.id,
  status: row.status,
  atrasada: row.atrasada,
  relatos: row.relatos,
  tipo: row.tipo,
  prova: row.prova,
  descricao: row.descricao,
  ambiente: { id: row.environment_id, nome: row.ambiente },
  filial: { id: row.branch_id, nome: row.filial },
  responsavel: row.responsavel,
  criadaEm: row.created_at.toISOString(),
  prazo: row.prazo_at.toISOString(),
  encerradaEm: row.closed_at?.toISOString() ?? null,
});

const ListParams = z.object({
  status: z.enum(INCIDENT_STATUSES).optional(),
  tipo: int32.optional().openapi({ description: "An incident kind's id" }),
  filialId: int32.optional().openapi({ description: "One branch (company-wide callers)" }),
  dataIni: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
  dataFim: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
  atrasadas: z.enum(["0", "1"]).optional().openapi({ description: "1: open and past their deadline only" }),
  abertas: z.enum(["0", "1"]).optional().openapi({ description: "1: open ones only (aberta, em_atendimento)" }),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  size: z.coerce
    .number()
    .int()
    .refine((value) => (PAGE_SIZES as readonly number[]).includes(value) && value !== 0, SIZE_INVALID)
    .optional(),
});

const ChangeBody = z
  .object({
    tipo: z.enum(["em_atendimento", "descartada", "prazo_alterado", "atribuida", "corretiva"]),
    motivo: z.string().max(2000).optional().openapi({ description: "descartada: the reason (required)" }),
    prazo: z.string().max(40).optional().openapi({ description: "prazo_alterado: the new deadline (ISO instant)" }),
    responsavelId: int32
      .nullable()
      .optional()
      .openapi({ description: "atribuida: a user of GET /ocorrencias/{id} `responsaveis`; null: the coordinators" }),
    colaboradorId: int32
      .optional()
      .openapi({ description: "corretiva: an ASG of GET /ocorrencias/{id} `colaboradores` (required)" }),
    horaIni: z.string().max(8).optional().openapi({ description: "corretiva: HH:mm today (default: in 5 minutes)" }),
    horaFim: z.string().max(8).optional().openapi({ description: "corretiva: HH:mm (default: an hour later)" }),
  })
  .openapi("IncidentChange");

type ChangeBody = z.infer<typeof ChangeBody>;
function changeOf(body: ChangeBody & { tipo: Exclude<ChangeBody["tipo"], "corretiva"> }): IncidentChange {
  switch (body.tipo) {
    case "em_atendimento":
      return { tipo: "em_atendimento" };
    case "descartada":
      return { tipo: "descartada", motivo: body.motivo ?? "" };
    case "prazo_alterado": {
      const prazo = new Date(body.prazo ?? "");
      if (!body.prazo || Number.isNaN(prazo.getTime()))
        throw new ApiError(400, T.deadlineInvalid, { prazo: [T.deadlineInvalid] });
      return { tipo: "prazo_alterado", prazo };
    }
    case "atribuida":
      return { tipo: "atribuida", ownerId: body.responsavelId ?? null };
  }
}

export function incidentRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const tags = ["Ocorrências"];
  const id = z.object({ id: int32 });

  app.use("/ocorrencias", requirePermission("viewIncidents"));
  app.use("/ocorrencias/*", requirePermission("viewIncidents"));

  app.openapi(
    createRoute({
      method: "get",
      path: "/ocorrencias",
      tags,
      summary: "The incidents in the caller's scope, newest first, one page (filters: status, kind, branch, period)",
      security: bearer,
      request: { query: ListParams },
      responses: {
        200: jsonResponse(
          "A page of incidents",
          z.object({ items: z.array(Incident), total: z.number(), page: z.number(), size: z.number() }),
        ),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      if (query.dataIni && query.dataFim && query.dataFim < query.dataIni)
        throw new ApiError(400, REPORT_TEXTS.invalidPeriod);
      const scope = ctx.get("scope");
      // Another tenant's branch, or another branch for a branch-level caller, is 404 as in every list.
      const { branchId } = await resolveBranchFilter(db, scope, { filialId: query.filialId });
      if (query.tipo !== undefined)
        await assertIdsInScope(db, scope, "incident_kinds", [query.tipo], INCIDENT_KIND_TEXTS.notFound);
      const page = await listIncidents(
        db,
        scope,
        {
          status: query.status,
          kindId: query.tipo,
          branchId,
          from: query.dataIni,
          to: query.dataFim,
          overdue: query.atrasadas === "1",
          open: query.abertas === "1",
          page: query.page ?? 1,
          size: query.size ?? 20,
        },
        new Date(),
      );
      return ctx.json({ ...page, items: page.items.map(incidentJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/ocorrencias/resumo",
      tags,
      summary:
        "Per room of the scope, the visitors' ratings (count, mean 1–5) and the incidents (reported, still open) of " +
        "the period (default today); at most 160 rooms, most incidents first",
      security: bearer,
      request: {
        query: z.object({
          dataIni: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
          dataFim: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
          filialId: int32.optional().openapi({ description: "One branch (company-wide callers)" }),
        }),
      },
      responses: {
        200: jsonResponse(
          "The rooms",
          z.object({
            items: z.array(
              z.object({
                ambiente: z.object({ id: z.number(), nome: z.string() }),
                filial: z.object({ id: z.number(), nome: z.string() }),
                avaliacoes: z.number(),
                mediaAvaliacao: z.number().nullable(),
                ocorrencias: z.number(),
                abertas: z.number(),
              }),
            ),
          }),
        ),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      const from = query.dataIni ?? businessToday();
      const to = query.dataFim ?? from;
      if (to < from || differenceInCalendarDays(dayOf(to), dayOf(from)) > 366)
        throw new ApiError(400, REPORT_TEXTS.invalidPeriod);
      const scope = ctx.get("scope");
      const { branchId } = await resolveBranchFilter(db, scope, { filialId: query.filialId });
      return ctx.json({ items: await incidentSummary(db, scope, { from, to, branchId }) }, 200);
    },
  );

  const detailJson = async (
    scope: Parameters<typeof readIncident>[1],
    detail: Awaited<ReturnType<typeof readIncident>>,
    mayChange: boolean,
  ) => ({
    ...incidentJson(detail),
    foto: detail.foto,
    motivoDescarte: detail.motivo_descarte,
    responsavelId: detail.owner_id,
    podeAlterar: mayChange,
    responsaveis: mayChange ? await incidentOwners(db, scope, detail.branch_id) : [],
    colaboradores: mayChange
      ? (await listSchedulableUsers(db, scope, { filialId: detail.branch_id })).map(({ id, nome }) => ({ id, nome }))
      : [],
    limpezaSugerida: correctiveHours(new Date()),
    eventos: detail.eventos.map((event) => ({
      tipo: event.tipo,
      detalhe: event.detalhe,
      autor: event.autor,
      foto: event.foto,
      em: event.created_at.toISOString(),
    })),
  });

  app.openapi(
    createRoute({
      method: "get",
      path: "/ocorrencias/{id}",
      tags,
      summary: "One incident with its timeline; 404 outside the caller's scope",
      security: bearer,
      request: { params: id },
      responses: {
        200: jsonResponse("The incident", IncidentDetail),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const scope = ctx.get("scope");
      const detail = await readIncident(db, scope, ctx.req.valid("param").id, new Date());
      return ctx.json(await detailJson(scope, detail, can(ctx.get("user"), "handleIncidents")), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/ocorrencias/{id}/fotos/{name}",
      tags,
      summary: "A photo of the incident (the visitor's, a resolution's); 404 outside the caller's scope",
      security: bearer,
      request: { params: z.object({ id: int32, name: z.string().max(120) }) },
      responses: {
        200: { description: "The image (JPEG)" },
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const { id: incidentId, name } = ctx.req.valid("param");
      const detail = await readIncident(db, ctx.get("scope"), incidentId, new Date());
      const names = [detail.foto, ...detail.eventos.map((event) => event.foto)];
      const bytes = names.includes(name) ? await deps.storage.read(INCIDENT_PHOTO_FOLDER, name) : null;
      if (!bytes) throw notFound(FILE_NOT_FOUND);
      return privateImage(bytes, name);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/ocorrencias/{id}/eventos",
      tags,
      summary:
        "A manager's change, written to the timeline: em_atendimento, descartada (motivo), prazo_alterado (prazo), " +
        "atribuida (responsavelId), corretiva (colaboradorId, horaIni, horaFim: today's extra booking for an ASG " +
        "of the room's branch, through the scheduling service); 409 once the incident is closed",
      security: bearer,
      request: { params: id, body: jsonBody(ChangeBody) },
      responses: {
        200: jsonResponse("The incident after the change", IncidentDetail),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) => {
      const user = ctx.get("user");
      if (!can(user, "handleIncidents")) throw new ApiError(403, T.readOnly);
      const scope = ctx.get("scope");
      const body = ctx.req.valid("json");
      const incidentId = ctx.req.valid("param").id;
      const detail =
        body.tipo === "corretiva"
          ? await createCorrective(
              db,
              scope,
              user.id,
              incidentId,
              { colaboradorId: body.colaboradorId ?? 0, horaIni: body.horaIni, horaFim: body.horaFim },
              new Date(),
            )
          : await changeIncident(db, scope, user.id, incidentId, changeOf({ ...body, tipo: body.tipo }), new Date());
      deps.pages?.changed(`/info/ambiente/${detail.environment_id}`);
      return ctx.json(await detailJson(scope, detail, true), 200);
    },
  );

  return app;
}
