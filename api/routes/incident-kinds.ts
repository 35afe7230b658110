import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { INCIDENT_KIND_LIMITS as L } from "../domain/incidents.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import { createIncidentKind, listIncidentKinds, updateIncidentKind } from "../services/incident-kinds.ts";

/**
 * The company's incident kinds (issue 28; docs/incidents.md 'Kinds'): read by whoever reads incidents (the list's
 * filter), kept by the main company's administrators (roles 1–2, `editRegisters`).
 */

const IncidentKind = z
  .object({
    id: z.number(),
    nome: z.string(),
    prazoMinutos: z.number().openapi({ description: "The deadline, from the report" }),
    prova: z.enum(["foto", "nota", "ambos"]).openapi({ description: "What resolving needs" }),
    ativo: z.boolean().openapi({ description: "Offered to visitors" }),
  })
  .openapi("IncidentKind");

const KindBody = z
  .object({
    nome: z.string().max(200),
    prazoMinutos: z
      .number()
      .int()
      .openapi({ description: `${L.minMinutes} to ${L.maxMinutes} (30 days)` }),
    prova: z.enum(["foto", "nota", "ambos"]),
    ativo: z.boolean().default(true),
  })
  .openapi("IncidentKindBody");

type Row = Awaited<ReturnType<typeof listIncidentKinds>>[number];
const kindJson = (row: Row): z.infer<typeof IncidentKind> => ({
  id: row.id,
  nome: row.nome,
  prazoMinutos: row.prazo_minutos,
  prova: row.prova,
  ativo: row.ativo,
});

export function incidentKindRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const tags = ["Ocorrências"];

  app.use("/ocorrencias/tipos", requirePermission("viewIncidents"));
  app.on(["POST", "PUT"], ["/ocorrencias/tipos", "/ocorrencias/tipos/*"], requirePermission("editRegisters"));

  app.openapi(
    createRoute({
      method: "get",
      path: "/ocorrencias/tipos",
      tags,
      summary: "The company's incident kinds, active ones first (at most 20)",
      security: bearer,
      responses: {
        200: jsonResponse("The kinds", z.object({ items: z.array(IncidentKind) })),
        403: errorResponses[403],
      },
    }),
    async (ctx) => ctx.json({ items: (await listIncidentKinds(db, ctx.get("scope"))).map(kindJson) }, 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/ocorrencias/tipos",
      tags,
      summary: "A new incident kind (roles 1–2)",
      security: bearer,
      request: { body: jsonBody(KindBody) },
      responses: { 201: jsonResponse("The kind", IncidentKind), 400: errorResponses[400], 403: errorResponses[403] },
    }),
    async (ctx) => ctx.json(kindJson(await createIncidentKind(db, ctx.get("scope"), ctx.req.valid("json"))), 201),
  );

  app.openapi(
    createRoute({
      method: "put",
      path: "/ocorrencias/tipos/{id}",
      tags,
      summary: "Change an incident kind (roles 1–2); another company's is 404",
      security: bearer,
      request: { params: z.object({ id: int32 }), body: jsonBody(KindBody) },
      responses: {
        200: jsonResponse("The kind", IncidentKind),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) =>
      ctx.json(
        kindJson(await updateIncidentKind(db, ctx.get("scope"), ctx.req.valid("param").id, ctx.req.valid("json"))),
        200,
      ),
  );

  return app;
}
