import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import { assertBranchInScope } from "../auth/scope.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import {
  CATALOGUES,
  CATALOGUE_KINDS,
  catalogueTexts,
  HEX_COLOR,
  normaliseCatalogueName,
  type CatalogueDefinition,
} from "../domain/catalogues.ts";
import { csvUploadBytes, formId } from "../lib/csv.ts";
import { ApiError } from "../lib/errors.ts";
import { checkListSize, ChunkableListQuery, isPaged } from "../lib/list-query.ts";
import { bearer, errorResponses, jsonBody, jsonResponse, queryId } from "../lib/openapi.ts";
import {
  chunkCatalogueItems,
  createCatalogueItem,
  duplicateCatalogueItems,
  importCatalogueCsv,
  listCatalogueItems,
  pageCatalogueItems,
  removeCatalogueItem,
  renameCatalogueItem,
  type CatalogueItemRow,
} from "../services/catalogues.ts";

/**
 * The four catalogues of spec 000 §7 'Reference data', one set of HTTP handlers registered once per kind; the
 * rules and SQL are api/services/catalogues.ts. Reads: any signed-in user, within scope. Writes: main-company staff
 * (roleId 1, 2) only.
 */
export const CatalogueItem = z
  .object({
    id: z.number(),
    name: z.string(),
    color: z.string().nullable().optional(),
    companyId: z.number().openapi({ description: "The branch (filial) the item belongs to" }),
    EMPRESA_ID: z.number(),
    empresa: z.string().openapi({ description: "The branch's name" }),
    deletedAt: z.null(),
  })
  .openapi("CatalogueItem");
export type CatalogueItem = z.infer<typeof CatalogueItem>;

export const CataloguePage = z
  .object({ items: z.array(CatalogueItem), total: z.number(), page: z.number(), size: z.number() })
  .openapi("CataloguePage");
export type CataloguePage = z.infer<typeof CataloguePage>;

/** A keyset chunk of a list (with the after parameter): next is the cursor of the next chunk, null after the last. */
export const CatalogueChunk = z
  .object({ items: z.array(CatalogueItem), next: z.string().nullable() })
  .openapi("CatalogueChunk");
export type CatalogueChunk = z.infer<typeof CatalogueChunk>;

export const CatalogueDuplicated = z
  .object({ created: z.array(CatalogueItem), skipped: z.number() })
  .openapi("CatalogueDuplicated");
export type CatalogueDuplicated = z.infer<typeof CatalogueDuplicated>;

export const CatalogueImported = z.object({ created: z.number() }).openapi("CatalogueImported");
export type CatalogueImported = z.infer<typeof CatalogueImported>;

const ScopeQuery = z.object({
  companyId: queryId,
  filialId: queryId,
  filialClientId: queryId,
  ids: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .optional()
    .openapi({ description: "Only these ids (comma-separated), e.g. the ticked rows of a duplicate dialog" }),
});

const ListParams = ScopeQuery.extend(ChunkableListQuery.shape).superRefine(checkListSize);

const itemJson = (row: CatalogueItemRow): CatalogueItem => ({
  id: row.id,
  name: row.name,
  color: row.color,
  companyId: row.branch_id,
  EMPRESA_ID: row.branch_id,
  empresa: row.empresa,
  deletedAt: null,
});

export function catalogueRoutes(deps: ApiDeps) {
  const app = new OpenAPIHono<ApiEnv>();
  for (const kind of CATALOGUE_KINDS) registerCatalogue(app, deps, CATALOGUES[kind]);
  return app;
}

/** The colour field is text for risks and ignored for the others. */
const colorOf = (value: unknown) => (typeof value === "string" ? value : null);

function registerCatalogue(app: OpenAPIHono<ApiEnv>, deps: ApiDeps, c: CatalogueDefinition) {
  const { db } = deps.database;
  const texts = catalogueTexts(c.kind);
  const tag = [c.titlePlural];
  const name = z.preprocess(normaliseCatalogueName, z.string().min(1, texts.nameRequired).max(120));
  const color = c.hasColor
    ? z.preprocess(
        (value) => (typeof value === "string" ? value.trim() : ""),
        z.string().regex(HEX_COLOR, texts.colorRequired),
      )
    : z.unknown().optional();
  const CreateBody = z.object({ name, companyId: z.coerce.number().int(), color });
  const EditBody = z.object({ name, empresa: z.coerce.number().int().optional(), color });

  app.openapi(
    createRoute({
      method: "get",
      path: c.apiPath,
      tags: tag,
      summary:
        `List ${c.plural} in scope (deleted ones dropped); with q/sort/dir/page/size: one page and the total; ` +
        "with after: one keyset chunk",
      security: bearer,
      request: { query: ListParams },
      responses: {
        200: jsonResponse(
          "A list, a page when paging parameters are given, or a chunk when after is given",
          z.union([z.array(CatalogueItem), CataloguePage, CatalogueChunk]),
        ),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const { companyId, filialId, filialClientId, ids, ...query } = ctx.req.valid("query");
      const scope = ctx.get("scope");
      const filter = { companyId, filialId, filialClientId, ids: ids?.split(",").map(Number) };
      if (query.after !== undefined) {
        const chunk = await chunkCatalogueItems(db, c, scope, filter, { ...query, after: query.after });
        return ctx.json({ items: chunk.rows.map(itemJson), next: chunk.next }, 200);
      }
      if (!isPaged(query)) return ctx.json((await listCatalogueItems(db, c, scope, filter)).map(itemJson), 200);
      const { rows, total, page, size } = await pageCatalogueItems(db, c, scope, filter, query);
      return ctx.json({ items: rows.map(itemJson), total, page, size }, 200);
    },
  );

  const requireWrite = requirePermission("editRegisters");
  for (const path of [c.apiPath, `${c.apiPath}/`, `${c.apiPath}/*`, c.csvPath]) {
    app.on(["POST", "PUT", "DELETE"], path, requireWrite);
  }

  for (const path of [c.apiPath, `${c.apiPath}/`]) {
    app.openapi(
      createRoute({
        method: "post",
        path,
        tags: tag,
        summary: `Create a ${c.singular} in a branch (companyId = the branch)`,
        security: bearer,
        request: { body: jsonBody(CreateBody) },
        responses: {
          201: jsonResponse("Created", CatalogueItem),
          400: errorResponses[400],
          403: errorResponses[403],
          404: errorResponses[404],
          409: errorResponses[409],
        },
      }),
      async (ctx) => {
        const body = ctx.req.valid("json");
        const item = await createCatalogueItem(db, c, ctx.get("scope"), {
          name: body.name,
          branchId: body.companyId,
          color: colorOf(body.color),
        });
        return ctx.json(itemJson(item), 201);
      },
    );
  }

  app.openapi(
    createRoute({
      method: "put",
      path: `${c.apiPath}/{id}`,
      tags: tag,
      summary: `Rename a ${c.singular}${c.hasColor ? " or change its colour" : ""}`,
      security: bearer,
      request: { params: z.object({ id: z.coerce.number().int() }), body: jsonBody(EditBody) },
      responses: {
        200: jsonResponse("Saved", CatalogueItem),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) => {
      const body = ctx.req.valid("json");
      const item = await renameCatalogueItem(db, c, ctx.get("scope"), ctx.req.valid("param").id, {
        name: body.name,
        branchId: body.empresa,
        color: colorOf(body.color),
      });
      return ctx.json(itemJson(item), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: c.apiPath,
      tags: tag,
      summary: `Remove a ${c.singular} (the item is the body, as the original contract); soft delete`,
      security: bearer,
      request: { body: jsonBody(z.object({ id: z.coerce.number().int() }).passthrough()) },
      responses: { 204: { description: "Removed" }, 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (ctx) => {
      await removeCatalogueItem(db, c, ctx.get("scope"), ctx.req.valid("json").id);
      return ctx.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: `${c.apiPath}/{id}`,
      tags: tag,
      summary: `Remove a ${c.singular} by id${c.deleteById ? " (the original contract's form for procedures)" : ""}; soft delete`,
      security: bearer,
      request: { params: z.object({ id: z.coerce.number().int() }) },
      responses: { 204: { description: "Removed" }, 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (ctx) => {
      await removeCatalogueItem(db, c, ctx.get("scope"), ctx.req.valid("param").id);
      return ctx.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: `${c.apiPath}/duplicar`,
      tags: tag,
      summary: `Copy ${c.plural} into a branch in one transaction, skipping names the branch already has`,
      security: bearer,
      request: {
        body: jsonBody(
          z.object({ ids: z.array(z.coerce.number().int()).max(5000), companyId: z.coerce.number().int() }),
        ),
      },
      responses: {
        200: jsonResponse("Created", CatalogueDuplicated),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const { ids, companyId } = ctx.req.valid("json");
      const { created, skipped } = await duplicateCatalogueItems(db, c, ctx.get("scope"), { ids, branchId: companyId });
      return ctx.json({ created: created.map(itemJson), skipped }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: c.csvPath,
      tags: tag,
      summary: `Import ${c.plural} from a CSV (field ${c.csvField}) into a branch (idEmpresaFilial); all rows or none`,
      security: bearer,
      request: {
        body: {
          // Both optional here: the handler answers the spec's messages for a missing file or branch.
          content: {
            "multipart/form-data": {
              schema: z.object({ [c.csvField]: z.any().optional(), idEmpresaFilial: z.string().optional() }),
            },
          },
          required: true,
        },
      },
      responses: {
        201: jsonResponse("Imported", CatalogueImported),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        413: errorResponses[413],
      },
    }),
    async (ctx) => {
      const scope = ctx.get("scope");
      const form = await ctx.req.formData();
      const branchId = formId(form, "idEmpresaFilial");
      if (!Number.isInteger(branchId))
        throw new ApiError(400, "Escolha a filial", { idEmpresaFilial: ["Escolha a filial"] });
      // The branch is checked before the file, so a branch outside the scope answers 404 whatever was sent.
      await assertBranchInScope(db, scope, branchId, { active: true });
      const bytes = await csvUploadBytes(form.get(c.csvField));
      return ctx.json({ created: await importCatalogueCsv(db, c, scope, branchId, bytes) }, 201);
    },
  );
}
