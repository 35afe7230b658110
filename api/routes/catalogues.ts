import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { sql, type Kysely, type Transaction } from "kysely";

import { requirePermission } from "../auth/middleware.ts";
import { assertBranchInScope, resolveBranchFilter, type Scope } from "../auth/scope.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import type { DB } from "../db/schema.ts";
import { validateCatalogueCsv, CSV_MAX_BYTES, trimErrors } from "../domain/catalogue-csv.ts";
import {
  ALREADY_PRESENT,
  CATALOGUES,
  CATALOGUE_KINDS,
  catalogueTexts,
  CSV_INVALID,
  HEX_COLOR,
  INVALID_LIST,
  type CatalogueDefinition,
} from "../domain/catalogues.ts";
import { decodeCsvBytes, parseCsv } from "../lib/csv.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { foldSearch, foldText, isPaged, ListQuery, pageOf } from "../lib/list-query.ts";
import { bearer, errorResponses, jsonBody, jsonResponse, queryId } from "../lib/openapi.ts";

/**
 * The four catalogues of spec 000 §7 'Reference data', one implementation registered once per kind.
 * Reads: any signed-in user, within scope. Writes: main-company staff (roleId 1, 2) only.
 */
const CatalogueItem = z
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

const CataloguePage = z
  .object({ items: z.array(CatalogueItem), total: z.number(), page: z.number(), size: z.number() })
  .openapi("CataloguePage");

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

type ItemRow = { id: number; name: string; color: string | null; branch_id: number; empresa: string };

const itemJson = (row: ItemRow) => ({
  id: row.id,
  name: row.name,
  color: row.color,
  companyId: row.branch_id,
  EMPRESA_ID: row.branch_id,
  empresa: row.empresa,
  deletedAt: null,
});

const SORTS = { nome: "item.name", empresa: "branch.nome", cor: "item.color" } as const;

/** The live items of one catalogue with their branch. The four tables share their columns; Kysely is told 'sectors'. */
function fromItems(db: Kysely<DB>, c: CatalogueDefinition) {
  return db
    .selectFrom(`${c.table as "sectors"} as item`)
    .innerJoin("branches as branch", "branch.id", "item.branch_id")
    .where("item.deleted_at", "is", null);
}

/** The columns of an item answer; colour is read only for risks. */
function itemColumns(c: CatalogueDefinition) {
  return [
    "item.id",
    "item.name",
    "item.branch_id",
    "branch.nome as empresa",
    sql<string | null>`${sql.raw(c.hasColor ? "item.color" : "null")}`.as("color"),
  ] as const;
}

function selectItems(db: Kysely<DB>, c: CatalogueDefinition) {
  return fromItems(db, c).select(itemColumns(c));
}

async function findOwned(db: Kysely<DB> | Transaction<DB>, c: CatalogueDefinition, scope: Scope, id: number) {
  const row = await selectItems(db as Kysely<DB>, c)
    .where("item.id", "=", id)
    .where("item.company_id", "=", scope.companyId)
    .$if(scope.level !== "company", (qb) => qb.where("item.branch_id", "=", (scope as { branchId: number }).branchId))
    .executeTakeFirst();
  if (!row) throw notFound(`${c.title} não encontrad${c.feminine ? "a" : "o"}`);
  return row;
}

async function assertNameFree(
  db: Kysely<DB> | Transaction<DB>,
  c: CatalogueDefinition,
  branchId: number,
  name: string,
  exceptId?: number,
) {
  const clash = await (db as Kysely<DB>)
    .selectFrom(c.table as "sectors")
    .select("id")
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .where(sql`lower(name)`, "=", name.toLowerCase())
    .$if(exceptId !== undefined, (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  if (clash) {
    const texts = catalogueTexts(c.kind);
    throw new ApiError(409, texts.duplicateDescription, { name: [texts.duplicateDescription] });
  }
}

/** A unique-index violation means another request created the same name first: same answer as the check. */
function isUniqueViolation(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}

/**
 * Runs a transaction that checks names and then inserts; when a concurrent request committed the same name in
 * between, the insert hits the unique index and the work runs again, now seeing that request's rows, so the caller
 * gets the answer it would have had in sequence (not a 500).
 */
async function withNameRetry<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

export function catalogueRoutes(deps: ApiDeps) {
  const app = new OpenAPIHono<ApiEnv>();
  for (const kind of CATALOGUE_KINDS) registerCatalogue(app, deps, CATALOGUES[kind]);
  return app;
}

function registerCatalogue(app: OpenAPIHono<ApiEnv>, deps: ApiDeps, c: CatalogueDefinition) {
  const { db } = deps.database;
  const texts = catalogueTexts(c.kind);
  const tag = [c.titlePlural];
  const name = z.preprocess(
    (value) => (typeof value === "string" ? value.trim().replace(/\s+/g, " ") : ""),
    z.string().min(1, texts.nameRequired).max(120),
  );
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
      summary: `List ${c.plural} in scope (deleted ones dropped); with q/sort/dir/page/size: one page and the total`,
      security: bearer,
      request: { query: ScopeQuery.extend(ListQuery.shape) },
      responses: {
        200: jsonResponse(
          "A list, or a page when paging parameters are given",
          z.union([z.array(CatalogueItem), CataloguePage]),
        ),
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      const filter = await resolveBranchFilter(db, ctx.get("scope"), query);
      let filtered = fromItems(db, c)
        .where("item.company_id", "=", filter.companyId)
        .$if(filter.branchId !== undefined, (qb) => qb.where("item.branch_id", "=", filter.branchId!))
        .$if(query.ids !== undefined, (qb) => qb.where("item.id", "in", query.ids!.split(",").map(Number)));
      if (query.q?.trim()) {
        const pattern = foldSearch(query.q);
        filtered = filtered.where((eb) =>
          eb.or([eb(foldText("item.name"), "like", pattern), eb(foldText("branch.nome"), "like", pattern)]),
        );
      }
      const sortColumn = SORTS[(query.sort ?? "nome") as keyof typeof SORTS] ?? SORTS.nome;
      const direction = query.dir === "desc" ? "desc" : "asc";
      // Sorting by the folded name can use the expression index of migration 002; the id breaks ties.
      const rowsQuery = filtered
        .select(itemColumns(c))
        .orderBy(foldText(sortColumn === "item.color" && !c.hasColor ? "item.name" : sortColumn), direction)
        .orderBy("item.id", direction);
      if (!isPaged(query)) return ctx.json((await rowsQuery.execute()).map(itemJson), 200);

      const { page, size, limit, offset } = pageOf(query);
      // The page and the total as two queries: a window count would make PostgreSQL read and sort every row.
      const rows = await rowsQuery.$if(limit !== null, (qb) => qb.limit(limit!).offset(offset)).execute();
      const counted = await filtered.select(sql<string>`count(*)`.as("total")).executeTakeFirstOrThrow();
      const total = Number(counted.total);
      return ctx.json({ items: rows.map(itemJson), total, page, size }, 200);
    },
  );

  const requireWrite = requirePermission("editRegisters");
  for (const path of [c.apiPath, `${c.apiPath}/`, `${c.apiPath}/*`, c.csvPath]) {
    app.on(["POST", "PUT", "DELETE"], path, requireWrite);
  }

  const create = async (scope: Scope, body: { name: string; companyId: number; color?: unknown }) => {
    await assertBranchInScope(db, scope, body.companyId, { active: true });
    await assertNameFree(db, c, body.companyId, body.name);
    try {
      const { id } = await db
        .insertInto(c.table as "risks")
        .values({
          name: body.name,
          company_id: scope.companyId,
          branch_id: body.companyId,
          ...(c.hasColor ? { color: String(body.color).toLowerCase() } : {}),
        } as never)
        .returning("id")
        .executeTakeFirstOrThrow();
      return findOwned(db, c, scope, id);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError(409, texts.duplicateDescription, { name: [texts.duplicateDescription] });
      throw error;
    }
  };

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
          404: errorResponses[404],
          409: errorResponses[400],
        },
      }),
      async (ctx) => ctx.json(itemJson(await create(ctx.get("scope"), ctx.req.valid("json"))), 201),
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
        404: errorResponses[404],
        409: errorResponses[400],
      },
    }),
    async (ctx) => {
      const { id } = ctx.req.valid("param");
      const body = ctx.req.valid("json");
      const scope = ctx.get("scope");
      const item = await findOwned(db, c, scope, id);
      if (body.empresa !== undefined && body.empresa !== item.branch_id)
        await assertBranchInScope(db, scope, body.empresa);
      await assertNameFree(db, c, item.branch_id, body.name, id);
      try {
        await db
          .updateTable(c.table as "risks")
          .set({ name: body.name, ...(c.hasColor ? { color: String(body.color).toLowerCase() } : {}) } as never)
          .where("id", "=", id)
          .execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ApiError(409, texts.duplicateDescription, { name: [texts.duplicateDescription] });
        throw error;
      }
      return ctx.json(itemJson(await findOwned(db, c, scope, id)), 200);
    },
  );

  const remove = async (scope: Scope, id: number) => {
    await findOwned(db, c, scope, id);
    await db
      .updateTable(c.table as "sectors")
      .set({ deleted_at: new Date() })
      .where("id", "=", id)
      .execute();
  };
  app.openapi(
    createRoute({
      method: "delete",
      path: c.apiPath,
      tags: tag,
      summary: `Remove a ${c.singular} (the item is the body, as the original contract); soft delete`,
      security: bearer,
      request: { body: jsonBody(z.object({ id: z.coerce.number().int() }).passthrough()) },
      responses: { 204: { description: "Removed" }, 404: errorResponses[404] },
    }),
    async (ctx) => {
      await remove(ctx.get("scope"), ctx.req.valid("json").id);
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
      responses: { 204: { description: "Removed" }, 404: errorResponses[404] },
    }),
    async (ctx) => {
      await remove(ctx.get("scope"), ctx.req.valid("param").id);
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
        200: jsonResponse("Created", z.object({ created: z.array(CatalogueItem), skipped: z.number() })),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const { ids, companyId: target } = ctx.req.valid("json");
      const scope = ctx.get("scope");
      if (!ids.length) throw new ApiError(400, INVALID_LIST);
      await assertBranchInScope(db, scope, target, { active: true });
      const sources = await selectItems(db, c)
        .where("item.company_id", "=", scope.companyId)
        .where("item.id", "in", ids)
        .execute();
      if (sources.length !== new Set(ids).size) throw notFound(`${c.title} não encontrad${c.feminine ? "a" : "o"}`);
      const created = await withNameRetry(db, async (trx) => {
        const present = new Set(
          (
            await trx
              .selectFrom(c.table as "sectors")
              .select(sql<string>`lower(name)`.as("key"))
              .where("branch_id", "=", target)
              .where("deleted_at", "is", null)
              .execute()
          ).map((row) => row.key),
        );
        const missing = new Map<string, ItemRow>();
        for (const source of sources) {
          const key = source.name.toLowerCase();
          if (!present.has(key) && !missing.has(key)) missing.set(key, source);
        }
        if (!missing.size) throw new ApiError(400, ALREADY_PRESENT);
        return trx
          .insertInto(c.table as "risks")
          .values(
            [...missing.values()].map((source) => ({
              name: source.name,
              company_id: scope.companyId,
              branch_id: target,
              ...(c.hasColor ? { color: source.color } : {}),
            })) as never,
          )
          .returning("id")
          .execute();
      });
      const rows = await selectItems(db, c)
        .where(
          "item.id",
          "in",
          created.map((row) => row.id),
        )
        .orderBy("item.name")
        .execute();
      return ctx.json({ created: rows.map(itemJson), skipped: sources.length - rows.length }, 200);
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
        201: jsonResponse("Imported", z.object({ created: z.number() })),
        400: errorResponses[400],
        404: errorResponses[404],
        413: errorResponses[400],
      },
    }),
    async (ctx) => {
      const scope = ctx.get("scope");
      const form = await ctx.req.formData();
      const branchField = form.get("idEmpresaFilial");
      const branchId = typeof branchField === "string" && /^\s*\d+\s*$/.test(branchField) ? Number(branchField) : NaN;
      if (!Number.isInteger(branchId))
        throw new ApiError(400, "Escolha a filial", { idEmpresaFilial: ["Escolha a filial"] });
      await assertBranchInScope(db, scope, branchId, { active: true });
      const file = form.get(c.csvField);
      if (!(file instanceof File) || file.size === 0 || !isCsvFile(file)) throw new ApiError(400, CSV_INVALID);
      if (file.size > CSV_MAX_BYTES)
        throw new ApiError(413, "O arquivo é grande demais: o limite é de 5 MB por envio.");
      const table = parseCsv(decodeCsvBytes(new Uint8Array(await file.arrayBuffer())));
      if ("error" in table) throw new ApiError(400, table.error, { [c.csvField]: [table.error] });
      const checked = validateCatalogueCsv(c.kind, table);
      if ("errors" in checked) throw new ApiError(400, checked.errors.join("\n"), { [c.csvField]: checked.errors });

      const created = await withNameRetry(db, async (trx) => {
        const existing = new Map(
          (
            await trx
              .selectFrom(c.table as "sectors")
              .select(["name", sql<string>`lower(name)`.as("key")])
              .where("branch_id", "=", branchId)
              .where("deleted_at", "is", null)
              .execute()
          ).map((row) => [row.key, row.name]),
        );
        const clashes = checked.rows
          .filter((row) => existing.has(row.name.toLowerCase()))
          .map(
            (row) =>
              `Linha ${row.line}: já existe ${c.feminine ? "uma" : "um"} ${c.singular} '${existing.get(row.name.toLowerCase())}' nesta filial.`,
          );
        if (clashes.length)
          throw new ApiError(400, trimErrors(clashes).join("\n"), { [c.csvField]: trimErrors(clashes) });
        // Chunks keep each statement's parameter count far below PostgreSQL's limit of 65,535.
        for (let start = 0; start < checked.rows.length; start += 1000) {
          await trx
            .insertInto(c.table as "risks")
            .values(
              checked.rows.slice(start, start + 1000).map((row) => ({
                name: row.name,
                company_id: scope.companyId,
                branch_id: branchId,
                ...(c.hasColor ? { color: row.color } : {}),
              })) as never,
            )
            .execute();
        }
        return checked.rows.length;
      });
      return ctx.json({ created }, 201);
    },
  );
}

/** The spec accepts .csv, application/vnd.ms-excel or text/csv; browsers differ in what they send for .csv. */
function isCsvFile(file: File) {
  return (
    file.name.toLowerCase().endsWith(".csv") || file.type === "text/csv" || file.type === "application/vnd.ms-excel"
  );
}
