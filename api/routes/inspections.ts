import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { differenceInCalendarDays } from "date-fns";

import { requirePermission } from "../auth/middleware.ts";
import { assertEnvironmentInScope, resolveBranchFilter } from "../auth/scope.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { ANSWERS, INSPECTION_LIMITS as L, INSPECTION_TEXTS as T } from "../domain/inspections.ts";
import { REPORT_TEXTS } from "../domain/reports.ts";
import { can } from "../domain/roles.ts";
import { businessToday, dayOf } from "../domain/schedule-expansion.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { CHUNK_SIZE, ChunkableListQuery, checkListSize, PAGE_SIZES, SIZE_INVALID } from "../lib/list-query.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import { EXECUTION_TEXTS } from "../services/execution.ts";
import { openFailureIncident } from "../services/inspection-failures.ts";
import {
  chunkInspections,
  INSPECTION_PHOTO_FOLDER,
  inspectableRooms,
  inspectionChanges,
  inspectionForm,
  inspectionScores,
  listInspections,
  readInspection,
  submitInspection,
  type AnswerInput,
} from "../services/inspections.ts";

import { FILE_NOT_FOUND, privateImage } from "./files.ts";

/**
 * Scored inspections (issue 29 §2–5, docs/inspections.md): the rooms an inspector may inspect, the form of one room
 * (its checklist's current version), the submission (multipart, with photos), the list, one inspection with what a
 * re-inspection changed, the scores per room, branch or week, and a failure opening an incident. Read by roles 1–4, 7
 * and no role (scoped: tenant, own branch, client branch); inspected by roles 1–4 and no role.
 */

const Named = z.object({ id: z.number(), nome: z.string() });

export const Inspection = z
  .object({
    id: z.number(),
    nota: z.number().openapi({ description: "Percent, one decimal" }),
    notaMinima: z.number().openapi({ description: "The pass mark it was held to" }),
    aprovada: z.boolean(),
    ambiente: Named,
    filial: Named,
    inspetor: z.string(),
    checklist: z.string(),
    versao: z.number(),
    reinspecaoDe: z.number().nullable(),
    em: z.string(),
  })
  .openapi("Inspection");

const Answer = z.object({
  itemId: z.number(),
  chave: z.number(),
  texto: z.string(),
  peso: z.number(),
  procedimento: z.string().nullable(),
  resposta: z.enum(ANSWERS),
  observacao: z.string(),
  fotos: z.array(z.string()).openapi({ description: "GET /inspecoes/{id}/fotos/{name}" }),
  ocorrencia: z.object({ id: z.number(), status: z.string() }).nullable(),
});

export const InspectionDetail = Inspection.extend({
  observacao: z.string(),
  pontosConforme: z.number().openapi({ description: "Σ weights of the 'Conforme' items" }),
  pontosAplicaveis: z.number().openapi({ description: "Σ weights of the applicable items" }),
  respostas: z.array(Answer),
  reinspecoes: z.array(z.object({ id: z.number(), nota: z.number(), aprovada: z.boolean(), em: z.string() })),
  anterior: z
    .object({
      id: z.number(),
      nota: z.number(),
      aprovada: z.boolean(),
      em: z.string(),
      mudancas: z.array(
        z.object({
          chave: z.number(),
          texto: z.string(),
          antes: z.enum(ANSWERS).nullable().openapi({ description: "null: an item new since" }),
          agora: z.enum(ANSWERS).nullable().openapi({ description: "null: an item removed since" }),
        }),
      ),
    })
    .nullable()
    .openapi({ description: "For a re-inspection: the inspection it checks again and what changed item by item" }),
}).openapi("InspectionDetail");

type Row = Awaited<ReturnType<typeof listInspections>>["items"][number];
const inspectionJson = (row: Row): z.infer<typeof Inspection> => ({
  id: row.id,
  nota: row.nota,
  notaMinima: row.nota_minima,
  aprovada: row.aprovada,
  ambiente: { id: row.environment_id, nome: row.ambiente },
  filial: { id: row.branch_id, nome: row.filial },
  inspetor: row.inspetor,
  checklist: row.checklist,
  versao: row.versao,
  reinspecaoDe: row.reinspecao_de,
  em: row.created_at.toISOString(),
});

const pageSize = z.coerce
  .number()
  .int()
  .refine((value) => (PAGE_SIZES as readonly number[]).includes(value) && value !== 0, SIZE_INVALID)
  .optional();
const pageNumber = z.coerce.number().int().min(1).max(100_000).optional();

const ListParams = z
  .object({
    filialId: int32.optional().openapi({ description: "One branch (company-wide callers)" }),
    ambienteId: int32.optional().openapi({ description: "One room" }),
    dataIni: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
    dataFim: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
    resultado: z.enum(["aprovada", "reprovada"]).optional(),
    page: pageNumber,
    size: z.coerce
      .number()
      .int()
      .optional()
      .openapi({
        description: `Page size: 20, 40, 80 or 160; with after, the chunk size: 1 to ${CHUNK_SIZE.max} (${CHUNK_SIZE.default} unless told)`,
      }),
    after: ChunkableListQuery.shape.after,
  })
  // The list's sizes (no 'all' page: a long list is read in chunks) or, with after, a chunk's.
  .superRefine((query, ctx) =>
    query.after === undefined && query.size === 0
      ? ctx.addIssue({ code: "custom", path: ["size"], message: SIZE_INVALID })
      : checkListSize(query, ctx),
  );

const FormItem = z.object({
  id: z.number(),
  chave: z.number(),
  texto: z.string(),
  peso: z.number(),
  procedimento: z.string().nullable(),
});

export const InspectionFormAnswer = z
  .object({
    ambiente: Named,
    filial: Named,
    checklist: Named,
    versao: z.number().openapi({ description: "Send it back with the answers" }),
    notaMinima: z.number(),
    itens: z.array(FormItem),
    anterior: z
      .object({
        id: z.number(),
        nota: z.number(),
        respostas: z.array(z.object({ chave: z.number(), resposta: z.enum(ANSWERS), observacao: z.string() })),
      })
      .nullable(),
  })
  .openapi("InspectionForm");

export const InspectionPage = z.object({
  items: z.array(Inspection),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});

/** A keyset chunk of the list (with after): next is the cursor of the next chunk, null after the last. */
export const InspectionChunk = z
  .object({ items: z.array(Inspection), next: z.string().nullable() })
  .openapi("InspectionChunk");

export const InspectableRoomPage = z.object({
  items: z.array(
    z.object({
      ambiente: Named,
      filial: Named,
      checklist: z.string(),
      ultima: z.object({ id: z.number(), nota: z.number(), aprovada: z.boolean(), em: z.string() }).nullable(),
    }),
  ),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});

export const InspectionScores = z.object({
  items: z.array(
    z.object({
      chave: z.string().openapi({ description: "The room's or branch's id, or the week's Monday" }),
      nome: z.string(),
      inspecoes: z.number(),
      media: z.number(),
      aprovadas: z.number(),
    }),
  ),
});

export function inspectionRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const tags = ["Inspeções"];
  const id = z.object({ id: int32 });

  app.use("/inspecoes", requirePermission("viewInspections"));
  app.use("/inspecoes/*", requirePermission("viewInspections"));
  app.on("POST", ["/inspecoes", "/inspecoes/*"], requirePermission("inspect"));
  app.use("/inspecoes/ambientes", requirePermission("inspect"));
  app.use("/inspecoes/formulario/*", requirePermission("inspect"));

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/ambientes",
      tags,
      summary: "The rooms of the scope whose category has a checklist, by name, one page, with their latest inspection",
      security: bearer,
      request: {
        query: z.object({
          filialId: int32.optional(),
          q: z.string().max(100).optional().openapi({ description: "Part of the room's name" }),
          page: pageNumber,
          size: pageSize,
        }),
      },
      responses: {
        200: jsonResponse("A page of rooms", InspectableRoomPage),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      const scope = ctx.get("scope");
      const { branchId } = await resolveBranchFilter(db, scope, { filialId: query.filialId });
      const page = await inspectableRooms(db, scope, {
        branchId,
        q: query.q?.trim() || undefined,
        page: query.page ?? 1,
        size: query.size ?? 20,
      });
      return ctx.json(
        {
          ...page,
          items: page.items.map((row) => ({
            ambiente: { id: row.id, nome: row.ambiente },
            filial: { id: row.branch_id, nome: row.filial },
            checklist: row.checklist,
            ultima: row.ultima ? { ...row.ultima, em: row.ultima.em.toISOString() } : null,
          })),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/formulario/{ambienteId}",
      tags,
      summary:
        "What inspecting a room asks: its checklist's current version; with reinspecaoDe, the answers of the " +
        "inspection checked again. 409 when the room's category has no checklist",
      security: bearer,
      request: {
        params: z.object({ ambienteId: int32 }),
        query: z.object({ reinspecaoDe: int32.optional() }),
      },
      responses: {
        200: jsonResponse("The form", InspectionFormAnswer),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) => {
      const form = await inspectionForm(
        db,
        ctx.get("scope"),
        ctx.req.valid("param").ambienteId,
        ctx.req.valid("query").reinspecaoDe,
      );
      return ctx.json(
        {
          ambiente: { id: form.id, nome: form.ambiente },
          filial: { id: form.branch_id, nome: form.filial },
          checklist: { id: form.checklist_id, nome: form.checklist ?? "" },
          versao: form.versao,
          notaMinima: form.notaMinima,
          itens: form.itens.map((item) => ({
            id: item.id,
            chave: item.chave,
            texto: item.texto,
            peso: item.peso,
            procedimento: item.procedimento,
          })),
          anterior: form.anterior
            ? {
                id: form.anterior.id,
                nota: form.anterior.nota,
                respostas: form.anterior.respostas.map((answer) => ({
                  chave: answer.chave,
                  resposta: answer.resposta,
                  observacao: answer.observacao,
                })),
              }
            : null,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/inspecoes",
      tags,
      summary:
        "Submit an inspection (multipart): ambienteId, versao (of the form), reinspecaoDe, observacao (up to 1000), " +
        "and per item of that version resposta_{itemId} (conforme, nao_conforme, nao_se_aplica), observacao_{itemId} " +
        `(up to ${L.noteMax}) and fotos_{itemId} (up to ${L.photosPerItem} files, ${L.photosPerInspection} in all: JPEG, PNG, GIF or WebP up to 2 MB, ` +
        "stored re-encoded without metadata). The score and the pass mark are written with it",
      security: bearer,
      request: {
        body: {
          content: {
            "multipart/form-data": {
              schema: z.object({
                ambienteId: z.string(),
                versao: z.string(),
                reinspecaoDe: z.string().optional(),
                observacao: z.string().optional(),
              }),
            },
          },
          required: true,
        },
      },
      responses: {
        201: jsonResponse("The inspection", InspectionDetail),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
        413: errorResponses[400],
        415: errorResponses[400],
      },
    }),
    async (ctx) => {
      const form = await ctx.req.formData();
      const text = (name: string) => {
        const value = form.get(name);
        return typeof value === "string" ? value : "";
      };
      const number = (name: string) => {
        const value = Number(text(name));
        return Number.isInteger(value) && value > 0 && value <= 2_147_483_647 ? value : null;
      };
      const environmentId = number("ambienteId");
      if (environmentId === null) throw notFound(T.roomNotFound);
      const answers = new Map<number, AnswerInput>();
      const answerOf = (itemId: number) => {
        const known = answers.get(itemId);
        if (known) return known;
        if (answers.size >= L.itemsMax) throw new ApiError(400, T.answerRequired);
        const fresh: AnswerInput = { itemId, resposta: "", observacao: "", fotos: [] };
        answers.set(itemId, fresh);
        return fresh;
      };
      for (const [name, value] of form.entries()) {
        const match = /^(resposta|observacao|fotos)_(\d{1,10})$/.exec(name);
        if (!match) continue;
        const answer = answerOf(Number(match[2]));
        if (match[1] === "fotos") {
          if (!(value instanceof File)) throw new ApiError(415, EXECUTION_TEXTS.photoType);
          // A file input left empty sends an empty part: no photo, not a bad one.
          if (value.size > 0) answer.fotos.push(new Uint8Array(await value.arrayBuffer()));
        } else if (typeof value === "string") {
          answer[match[1] as "resposta" | "observacao"] = value.slice(0, 2000);
        }
      }
      const scope = ctx.get("scope");
      const inspectionId = await submitInspection(
        { database: deps.database, storage: deps.storage },
        scope,
        ctx.get("user").id,
        {
          environmentId,
          versao: number("versao") ?? 0,
          reinspecaoDe: number("reinspecaoDe") ?? undefined,
          observacao: text("observacao").slice(0, 4000),
          respostas: [...answers.values()],
        },
        new Date(),
      );
      return ctx.json(await detailJson(scope, inspectionId), 201);
    },
  );

  const detailJson = async (
    scope: Parameters<typeof readInspection>[1],
    inspectionId: number,
  ): Promise<z.infer<typeof InspectionDetail>> => {
    const detail = await readInspection(db, scope, inspectionId);
    const previous = detail.reinspecao_de
      ? await readInspection(db, scope, detail.reinspecao_de).catch(() => null)
      : null;
    return {
      ...inspectionJson(detail),
      observacao: detail.observacao,
      pontosConforme: detail.pontos_conforme,
      pontosAplicaveis: detail.pontos_aplicaveis,
      respostas: detail.respostas.map((answer) => ({
        itemId: answer.item_id,
        chave: answer.chave,
        texto: answer.texto,
        peso: answer.peso,
        procedimento: answer.procedimento,
        resposta: answer.resposta,
        observacao: answer.observacao,
        fotos: answer.fotos,
        ocorrencia:
          answer.incident_id !== null ? { id: answer.incident_id, status: answer.incident_status ?? "" } : null,
      })),
      reinspecoes: detail.reinspecoes.map((row) => ({
        id: row.id,
        nota: row.nota,
        aprovada: row.aprovada,
        em: row.created_at.toISOString(),
      })),
      anterior: previous
        ? {
            id: previous.id,
            nota: previous.nota,
            aprovada: previous.aprovada,
            em: previous.created_at.toISOString(),
            mudancas: inspectionChanges(previous, detail),
          }
        : null,
    };
  };

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes",
      tags,
      summary:
        "The inspections of the scope, newest first (filters: branch, room, period, result): one page and the " +
        "total; with after, one keyset chunk in the same order (the downloads)",
      security: bearer,
      request: { query: ListParams },
      responses: {
        200: jsonResponse(
          "A page of inspections, or a chunk when after is given",
          z.union([InspectionPage, InspectionChunk]),
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
      const { branchId } = await resolveBranchFilter(db, scope, { filialId: query.filialId });
      if (query.ambienteId !== undefined) await assertEnvironmentInScope(db, scope, query.ambienteId);
      const filters = {
        branchId,
        environmentId: query.ambienteId,
        from: query.dataIni,
        to: query.dataFim,
        resultado: query.resultado,
      };
      if (query.after !== undefined) {
        const chunk = await chunkInspections(db, scope, {
          ...filters,
          after: query.after,
          size: query.size ?? CHUNK_SIZE.default,
        });
        return ctx.json({ items: chunk.items.map(inspectionJson), next: chunk.next }, 200);
      }
      const page = await listInspections(db, scope, { ...filters, page: query.page ?? 1, size: query.size ?? 20 });
      return ctx.json({ ...page, items: page.items.map(inspectionJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/pontuacao",
      tags,
      summary:
        "The period's scores (default the last 30 days, at most 366) grouped by room, branch or week (Monday " +
        "first): inspections, mean score, passed; at most 160 groups, lowest mean first (weeks in order)",
      security: bearer,
      request: {
        query: z.object({
          agrupar: z.enum(["ambiente", "filial", "semana"]).default("ambiente"),
          dataIni: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
          dataFim: z.optional(dateField(REPORT_TEXTS.invalidPeriod)),
          filialId: int32.optional(),
        }),
      },
      responses: {
        200: jsonResponse("The groups", InspectionScores),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      const to = query.dataFim ?? businessToday();
      const from = query.dataIni ?? new Date(dayOf(to).getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
      if (to < from || differenceInCalendarDays(dayOf(to), dayOf(from)) > 366)
        throw new ApiError(400, REPORT_TEXTS.invalidPeriod);
      const scope = ctx.get("scope");
      const { branchId } = await resolveBranchFilter(db, scope, { filialId: query.filialId });
      const rows = await inspectionScores(db, scope, { branchId, from, to, by: query.agrupar });
      return ctx.json(
        {
          items: rows.map((row) => ({
            chave: row.chave,
            nome: row.nome,
            inspecoes: row.inspecoes,
            media: row.media,
            aprovadas: row.aprovadas,
          })),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/{id}",
      tags,
      summary: "One inspection with its answers and, for a re-inspection, what changed; 404 outside the caller's scope",
      security: bearer,
      request: { params: id },
      responses: {
        200: jsonResponse("The inspection", InspectionDetail),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => ctx.json(await detailJson(ctx.get("scope"), ctx.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/{id}/fotos/{name}",
      tags,
      summary: "A photo of one of the inspection's items; 404 outside the caller's scope",
      security: bearer,
      request: { params: z.object({ id: int32, name: z.string().max(120) }) },
      responses: {
        200: { description: "The image (JPEG)" },
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const { id: inspectionId, name } = ctx.req.valid("param");
      const detail = await readInspection(db, ctx.get("scope"), inspectionId);
      const known = detail.respostas.some((answer) => answer.fotos.includes(name));
      const bytes = known ? await deps.storage.read(INSPECTION_PHOTO_FOLDER, name) : null;
      if (!bytes) throw notFound(FILE_NOT_FOUND);
      return privateImage(bytes, name);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/inspecoes/{id}/itens/{itemId}/ocorrencia",
      tags,
      summary:
        "A 'Não conforme' item opens an incident of a kind (the incident loop: owner, deadline, alerts, proof); with " +
        "colaboradorId (roles 1–3, no role) also today's corrective cleaning by that ASG. One incident per item: 409",
      security: bearer,
      request: {
        params: z.object({ id: int32, itemId: int32 }),
        body: jsonBody(
          z
            .object({
              tipoId: int32.openapi({ description: "An active incident kind of the company" }),
              colaboradorId: int32.optional().openapi({ description: "An ASG of the room's branch" }),
              horaIni: z.string().max(8).optional(),
              horaFim: z.string().max(8).optional(),
            })
            .openapi("InspectionFailure"),
        ),
      },
      responses: {
        201: jsonResponse("The incident", z.object({ ocorrenciaId: z.number() })),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) => {
      const user = ctx.get("user");
      if (!can(user, "inspect")) throw new ApiError(403, T.readOnly);
      const { id: inspectionId, itemId } = ctx.req.valid("param");
      const body = ctx.req.valid("json");
      const opened = await openFailureIncident(
        { db, storage: deps.storage },
        ctx.get("scope"),
        user,
        inspectionId,
        itemId,
        {
          kindId: body.tipoId,
          corrective:
            body.colaboradorId !== undefined
              ? { colaboradorId: body.colaboradorId, horaIni: body.horaIni, horaFim: body.horaFim }
              : undefined,
        },
        new Date(),
      );
      deps.pages?.changed(`/info/ambiente/${opened.environmentId}`);
      return ctx.json({ ocorrenciaId: opened.incidentId }, 201);
    },
  );

  return app;
}
