import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { INCIDENT_STATUSES } from "../domain/incidents.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { bearer, errorResponses, int32, jsonResponse } from "../lib/openapi.ts";
import { EXECUTION_TEXTS as X } from "../services/execution.ts";
import { findMyIncident, listMyIncidents, resolveIncident } from "../services/incident-resolution.ts";
import { INCIDENT_PHOTO_FOLDER } from "../services/incidents.ts";

import { executorOf } from "./execution.ts";
import { FILE_NOT_FOUND, privateImage } from "./files.ts";

/**
 * The field side of the incident loop (issue 28 §5, docs/incidents.md): the cleaning staff's phone lists the incidents
 * its corrective cleanings answer and resolves one with the proof the incident's kind asks for ('prova': foto, nota or
 * ambos). Only the signed-in collaborator's own: any other incident is 404.
 */

const FieldIncident = z
  .object({
    id: z.number(),
    status: z.enum(INCIDENT_STATUSES),
    tipo: z.string(),
    prova: z.enum(["foto", "nota", "ambos"]).openapi({ description: "What resolving needs: a photo, a note, or both" }),
    descricao: z.string().openapi({ description: "What the visitor wrote" }),
    fotoVisitante: z
      .boolean()
      .openapi({ description: "Whether the visitor sent a photo (GET /execution/incidents/{id}/foto)" }),
    ambiente: z.object({ id: z.number(), nome: z.string() }),
    agendamentoId: z
      .number()
      .nullable()
      .openapi({ description: "The corrective cleaning's booking (execution calls)" }),
    criadaEm: z.string(),
    prazo: z.string(),
    encerradaEm: z.string().nullable(),
  })
  .openapi("FieldIncident");

type Row = Awaited<ReturnType<typeof listMyIncidents>>[number];
const fieldJson = (row: Omit<Row, "booking_id"> & { booking_id?: number | null }): z.infer<typeof FieldIncident> => ({
  id: row.id,
  status: row.status,
  tipo: row.tipo,
  prova: row.prova,
  descricao: row.descricao,
  fotoVisitante: row.foto !== null,
  ambiente: { id: row.environment_id, nome: row.ambiente },
  agendamentoId: row.booking_id ?? null,
  criadaEm: row.created_at.toISOString(),
  prazo: row.prazo_at.toISOString(),
  encerradaEm: row.closed_at?.toISOString() ?? null,
});

const tags = ["Execução (app)"];
const id = z.object({ id: int32.openapi({ description: "The incident" }) });

export function executionIncidentRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/execution/incidents",
      tags,
      summary:
        "The incidents the signed-in collaborator's corrective cleanings answer: open ones (by deadline), then " +
        "those closed in the last day",
      security: bearer,
      responses: { 200: jsonResponse("The incidents", z.object({ items: z.array(FieldIncident) })) },
    }),
    async (ctx) => {
      const rows = await listMyIncidents(db, executorOf(ctx.get("user")), new Date());
      return ctx.json({ items: rows.map(fieldJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/execution/incidents/{id}/foto",
      tags,
      summary: "The visitor's photo of one of the collaborator's incidents",
      security: bearer,
      request: { params: id },
      responses: { 200: { description: "The image (JPEG)" }, 404: errorResponses[404] },
    }),
    async (ctx) => {
      const incident = await findMyIncident(db, executorOf(ctx.get("user")), ctx.req.valid("param").id);
      const bytes = incident?.foto ? await deps.storage.read(INCIDENT_PHOTO_FOLDER, incident.foto) : null;
      if (!bytes) throw notFound(FILE_NOT_FOUND);
      return privateImage(bytes, incident!.foto!);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/incidents/{id}/resolve",
      tags,
      summary:
        "Resolve one of the collaborator's incidents with the proof its kind asks for (multipart: nota up to 500 " +
        "characters, foto: JPEG, PNG, GIF or WebP up to 5 MB, stored re-encoded without metadata); 409 once closed",
      security: bearer,
      request: {
        params: id,
        body: {
          content: {
            "multipart/form-data": {
              schema: z.object({
                nota: z.string().optional().openapi({ description: "What was done (prova nota or ambos)" }),
                foto: z.any().optional().openapi({ type: "string", format: "binary" }),
              }),
            },
          },
          required: true,
        },
      },
      responses: {
        200: jsonResponse("The incident, resolved", FieldIncident),
        400: errorResponses[400],
        404: errorResponses[404],
        409: errorResponses[409],
        413: errorResponses[400],
        415: errorResponses[400],
      },
    }),
    async (ctx) => {
      const form = await ctx.req.formData();
      const nota = form.get("nota");
      const field = form.get("foto");
      if (field !== null && !(field instanceof File)) throw new ApiError(415, X.photoType);
      const resolved = await resolveIncident(
        { db, storage: deps.storage },
        executorOf(ctx.get("user")),
        ctx.req.valid("param").id,
        {
          nota: typeof nota === "string" ? nota : "",
          photo: field && field.size > 0 ? new Uint8Array(await field.arrayBuffer()) : null,
        },
        new Date(),
      );
      deps.pages?.changed(`/info/ambiente/${resolved.environment_id}`);
      return ctx.json(fieldJson(resolved), 200);
    },
  );

  return app;
}
