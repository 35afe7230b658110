import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import { resolveBranchFilter } from "../auth/scope.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { INSPECTION_LIMITS as L } from "../domain/inspections.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  createChecklist,
  duplicateChecklist,
  listChecklists,
  passMark,
  readChecklist,
  setPassMark,
  updateChecklist,
} from "../services/checklists.ts";

/**
 * Inspection checklists and the pass mark (issue 29 §1, docs/inspections.md): kept by the main company's
 * administrators (roles 1–2, `editRegisters`); the pass mark is read by whoever reads inspections.
 */

const ChecklistItem = z.object({
  id: z.number(),
  chave: z.number().openapi({ description: "The item across versions: send it back to keep the item" }),
  texto: z.string(),
  peso: z.number().openapi({ description: "1 to 5" }),
  procedimento: z.object({ id: z.number(), nome: z.string() }).nullable(),
});

const Checklist = z
  .object({
    id: z.number(),
    nome: z.string(),
    versao: z.number().openapi({ description: "The current version; an edit of the items makes the next" }),
    filial: z.object({ id: z.number(), nome: z.string() }),
    categoria: z.object({ id: z.number(), nome: z.string() }),
    atualizadoEm: z.string(),
  })
  .openapi("Checklist");

export const ChecklistSummary = Checklist.extend({ itens: z.number() }).openapi("ChecklistSummary");
export const ChecklistDetail = Checklist.extend({ itens: z.array(ChecklistItem) }).openapi("ChecklistDetail");

export const ChecklistBody = z
  .object({
    categoriaId: int32.openapi({ description: "A category of the checklist's branch (one checklist per category)" }),
    nome: z.string().max(200),
    itens: z
      .array(
        z.object({
          chave: int32.nullable().optional().openapi({ description: "An item's key of the current version" }),
          texto: z.string().max(400),
          peso: z.number().int(),
          procedimentoId: int32.nullable().optional().openapi({ description: "A procedure of the same branch" }),
        }),
      )
      .max(L.itemsMax * 2)
      .openapi({ description: `1 to ${L.itemsMax} items, in order; blank texts are left out` }),
  })
  .openapi("ChecklistBody");

type Summary = Awaited<ReturnType<typeof listChecklists>>[number];
const summaryJson = (row: Omit<Summary, "itens">) => ({
  id: row.id,
  nome: row.nome,
  versao: row.versao,
  filial: { id: row.branch_id, nome: row.filial },
  categoria: { id: row.category_id, nome: row.categoria },
  atualizadoEm: row.updated_at.toISOString(),
});

type Detail = Awaited<ReturnType<typeof readChecklist>>;
const detailJson = (row: Detail): z.infer<typeof ChecklistDetail> => ({
  ...summaryJson(row),
  itens: row.itens.map((item) => ({
    id: item.id,
    chave: item.chave,
    texto: item.texto,
    peso: item.peso,
    procedimento: item.procedure_id !== null ? { id: item.procedure_id, nome: item.procedimento ?? "" } : null,
  })),
});

export const PassMark = z.object({
  notaMinima: z.number().openapi({ description: "Percent, 0 to 100, one decimal" }),
});

export function inspectionChecklistRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const tags = ["Inspeções"];
  const id = z.object({ id: int32 });

  app.use("/inspecoes/checklists", requirePermission("editRegisters"));
  app.use("/inspecoes/checklists/*", requirePermission("editRegisters"));
  app.use("/inspecoes/nota-minima", requirePermission("viewInspections"));
  app.on("PUT", "/inspecoes/nota-minima", requirePermission("editRegisters"));

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/checklists",
      tags,
      summary: `The company's checklists by branch and name (at most ${L.checklistsPerCompany})`,
      security: bearer,
      request: { query: z.object({ filialId: int32.optional().openapi({ description: "One branch" }) }) },
      responses: {
        200: jsonResponse("The checklists", z.object({ items: z.array(ChecklistSummary) })),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const scope = ctx.get("scope");
      const { branchId } = await resolveBranchFilter(db, scope, { filialId: ctx.req.valid("query").filialId });
      const rows = await listChecklists(db, scope, branchId);
      return ctx.json({ items: rows.map((row) => ({ ...summaryJson(row), itens: row.itens ?? 0 })) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/inspecoes/checklists",
      tags,
      summary: "A new checklist (version 1) for a category without one",
      security: bearer,
      request: { body: jsonBody(ChecklistBody) },
      responses: {
        201: jsonResponse("The checklist", ChecklistDetail),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) => ctx.json(detailJson(await createChecklist(db, ctx.get("scope"), ctx.req.valid("json"))), 201),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/checklists/{id}",
      tags,
      summary: "One checklist with its current version's items",
      security: bearer,
      request: { params: id },
      responses: {
        200: jsonResponse("The checklist", ChecklistDetail),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => ctx.json(detailJson(await readChecklist(db, ctx.get("scope"), ctx.req.valid("param").id)), 200),
  );

  app.openapi(
    createRoute({
      method: "put",
      path: "/inspecoes/checklists/{id}",
      tags,
      summary:
        "Save a checklist: name and category in place; items changed make the next version (past inspections keep " +
        "the version they were scored against)",
      security: bearer,
      request: { params: id, body: jsonBody(ChecklistBody) },
      responses: {
        200: jsonResponse("The checklist", ChecklistDetail),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) =>
      ctx.json(
        detailJson(await updateChecklist(db, ctx.get("scope"), ctx.req.valid("param").id, ctx.req.valid("json"))),
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/inspecoes/checklists/{id}/duplicar",
      tags,
      summary:
        "Copy a checklist to another branch: for its category of the same name, with its procedures of the same names",
      security: bearer,
      request: { params: id, body: jsonBody(z.object({ filialId: int32 }).openapi("ChecklistDuplicate")) },
      responses: {
        201: jsonResponse("The copy", ChecklistDetail),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) =>
      ctx.json(
        detailJson(
          await duplicateChecklist(db, ctx.get("scope"), ctx.req.valid("param").id, ctx.req.valid("json").filialId),
        ),
        201,
      ),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/inspecoes/nota-minima",
      tags,
      summary: "The company's pass mark (default 85%)",
      security: bearer,
      responses: { 200: jsonResponse("The pass mark", PassMark), 403: errorResponses[403] },
    }),
    async (ctx) => ctx.json({ notaMinima: await passMark(db, ctx.get("scope").companyId) }, 200),
  );

  app.openapi(
    createRoute({
      method: "put",
      path: "/inspecoes/nota-minima",
      tags,
      summary: "Set the company's pass mark; inspections already made keep theirs",
      security: bearer,
      request: { body: jsonBody(PassMark.openapi("PassMark")) },
      responses: {
        200: jsonResponse("The pass mark", PassMark),
        400: errorResponses[400],
        403: errorResponses[403],
      },
    }),
    async (ctx) =>
      ctx.json({ notaMinima: await setPassMark(db, ctx.get("scope"), ctx.req.valid("json").notaMinima) }, 200),
  );

  return app;
}
