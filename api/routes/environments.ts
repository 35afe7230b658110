import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import {
  checkProcedureLists,
  collapseProcedures,
  ENVIRONMENT_SEARCH_FIELDS,
  ENVIRONMENT_SORTS,
  environmentFields,
  idField,
  INT32_MAX,
} from "../domain/environments.ts";
import { checkListSize, ChunkableListQuery, isPaged } from "../lib/list-query.ts";
import { bearer, errorResponses, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  chunkEnvironments,
  createEnvironment,
  environmentFormOptions,
  findEnvironment,
  listEnvironments,
  pageEnvironments,
  reissueEnvironmentQr,
  removeEnvironment,
  updateEnvironment,
  type EnvironmentRow,
} from "../services/environments.ts";

/**
 * Environments of spec 000 §7 'Environments': HTTP only, the rules and SQL are api/services/environments.ts.
 * Reads: any signed-in user, within scope. Writes: main-company staff (roleId 1, 2), as for the catalogues.
 * `companyId` in a payload is the branch (filial) the environment belongs to, as in the catalogue payloads.
 */

/** Ids are PostgreSQL integers: anything beyond 32 bits is a 400 here, not a database error. */
const int32 = z.coerce
  .number()
  .int()
  .min(-INT32_MAX - 1)
  .max(INT32_MAX);
const queryId = int32.optional();

const RiskName = z.object({ id: z.number(), name: z.string(), color: z.string() }).openapi("EnvironmentRisk");
const ProcedureName = z
  .object({ id: z.number(), name: z.string(), mandatory: z.boolean() })
  .openapi("EnvironmentProcedure");

/** Ours: the value the room's printed QR code carries (docs/qr-codes.md 'What the code holds'). */
const QrCodigo = z.string().openapi({
  description: "The value the printed QR code carries (?qr=): a slot started with it was started in front of the room",
});

/** The list form of spec 000 §3 (one row of the table): names only, procedures collapsed by name. */
export const EnvironmentItem = z
  .object({
    ID: z.number(),
    AMBIENTE_NOME: z.string(),
    EMPRESA: z.string().openapi({ description: "The branch's name" }),
    companyId: z.number().openapi({ description: "The branch (filial) the environment belongs to" }),
    EMPRESA_ID: z.number(),
    CATEGORIA: z.string(),
    SETOR: z.string(),
    ANDAR: z.string(),
    RISCOS: z.array(z.string()).openapi({ description: "Names, in the order shown" }),
    PROCEDIMENTOS: z
      .array(z.object({ name: z.string(), mandatory: z.boolean() }))
      .openapi({ description: "Names with the mandatory flag; one entry per name (duplicates collapsed)" }),
    qrCodigo: QrCodigo,
  })
  .openapi("EnvironmentItem");
export type EnvironmentItem = z.infer<typeof EnvironmentItem>;

/**
 * The nested form of spec 000 §3 (GET /environments/{id}, and the answer of a create or an edit), with the ids the
 * edit form starts from under the payload's own names (riscos, procedures, proceduresNotMandatory).
 */
export const EnvironmentDetail = z
  .object({
    id: z.number(),
    name: z.string(),
    andar: z.string(),
    categoriaId: z.number(),
    setorId: z.number(),
    companyId: z.number().openapi({ description: "The branch (filial) the environment belongs to" }),
    empresa: z.string().openapi({ description: "The branch's name" }),
    IMAGEM: z.string().nullable(),
    HORA_INICIAL: z.string().nullable(),
    HORA_FINAL: z.string().nullable(),
    qtdLimpezaDia: z.number().nullable(),
    Setor: z.object({ id: z.number(), name: z.string() }),
    Categoria: z.object({ id: z.number(), name: z.string() }),
    Riscos: z.array(RiskName),
    Procedures: z.array(ProcedureName),
    riscos: z.array(z.number()),
    procedures: z.array(z.number()).openapi({ description: "The mandatory procedures' ids" }),
    proceduresNotMandatory: z.array(z.number()),
    deletedAt: z.null(),
    qrCodigo: QrCodigo,
    qrEmitidoEm: z
      .string()
      .nullable()
      .openapi({ description: "When the code was last reissued (UTC); null: the code made with the room" }),
  })
  .openapi("EnvironmentDetail");
export type EnvironmentDetail = z.infer<typeof EnvironmentDetail>;

export const EnvironmentPage = z
  .object({ items: z.array(EnvironmentItem), total: z.number(), page: z.number(), size: z.number() })
  .openapi("EnvironmentPage");
export type EnvironmentPage = z.infer<typeof EnvironmentPage>;

/** A keyset chunk (with after): next is the cursor of the next chunk, null after the last. */
export const EnvironmentChunk = z
  .object({ items: z.array(EnvironmentItem), next: z.string().nullable() })
  .openapi("EnvironmentChunk");
export type EnvironmentChunk = z.infer<typeof EnvironmentChunk>;

/** GET environments/form/{companyId}: the branch's live catalogues, in the shapes of spec 000 §3 'other call shapes'. */
export const EnvironmentForm = z
  .object({
    categorias: z.array(z.object({ ID_CATEGORIA: z.number(), DESCRICAO: z.string(), EMPRESA_ID: z.number() })),
    procedimentos: z.array(
      z.object({ ID_PROCEDIMENTO: z.number(), NAME_PROCEDIMENTO: z.string(), EMPRESA_ID: z.number() }),
    ),
    setores: z.array(z.object({ id: z.number(), name: z.string(), EMPRESA_ID: z.number() })),
    riscos: z.array(z.object({ id: z.number(), name: z.string(), color: z.string(), EMPRESA_ID: z.number() })),
  })
  .openapi("EnvironmentForm");
export type EnvironmentForm = z.infer<typeof EnvironmentForm>;

/** PUT /environments/{id}: the form's fields; the company does not change (a companyId sent is ignored). */
export const EnvironmentEditBody = z
  .object(environmentFields)
  .superRefine(checkProcedureLists)
  .openapi("EnvironmentEditBody");
export type EnvironmentEditBody = z.infer<typeof EnvironmentEditBody>;

/** POST /environments: the form's fields and companyId, the branch. */
export const EnvironmentCreateBody = z
  .object({ ...environmentFields, companyId: idField("Escolha a empresa") })
  .superRefine(checkProcedureLists)
  .openapi("EnvironmentCreateBody");
export type EnvironmentCreateBody = z.infer<typeof EnvironmentCreateBody>;

const ListParams = z
  .object({
    companyId: queryId,
    filialId: queryId,
    filialClientId: queryId,
    ids: z
      .string()
      .max(60_000)
      .regex(/^\d{1,10}(,\d{1,10}){0,4999}$/)
      .optional()
      .openapi({ description: "Only these ids (comma-separated, at most 5,000), e.g. the ticked rows of a QR export" }),
    fields: z
      .string()
      .max(200)
      .optional()
      .openapi({
        description:
          "The fields q matches, comma-separated: " +
          `${ENVIRONMENT_SEARCH_FIELDS.map((field) => field.key).join(", ")} (default ambiente; unknown ones ignored)`,
      }),
  })
  .extend(ChunkableListQuery.shape)
  .extend({
    sort: z
      .string()
      .max(40)
      .optional()
      .openapi({ description: `${ENVIRONMENT_SORTS.map((sort) => sort.key).join(", ")} (default ambiente)` }),
  })
  .superRefine(checkListSize);

const IdParam = z.object({ id: int32 });
const DeleteBody = z
  .object({ id: int32.optional(), ID: int32.optional() })
  .passthrough()
  .refine((body) => body.id !== undefined || body.ID !== undefined, {
    message: "Informe o ambiente (id)",
    path: ["id"],
  });

export const itemJson = (row: EnvironmentRow): EnvironmentItem => ({
  ID: row.id,
  AMBIENTE_NOME: row.name,
  EMPRESA: row.empresa,
  companyId: row.branch_id,
  EMPRESA_ID: row.branch_id,
  CATEGORIA: row.categoria,
  SETOR: row.setor,
  ANDAR: row.andar,
  RISCOS: row.risks.map((risk) => risk.name),
  PROCEDIMENTOS: collapseProcedures(row.procedures).map(({ name, mandatory }) => ({ name, mandatory })),
  qrCodigo: row.qr_codigo,
});

export const detailJson = (row: EnvironmentRow): EnvironmentDetail => ({
  id: row.id,
  name: row.name,
  andar: row.andar,
  categoriaId: row.category_id,
  setorId: row.sector_id,
  companyId: row.branch_id,
  empresa: row.empresa,
  IMAGEM: row.imagem,
  HORA_INICIAL: row.hora_inicial,
  HORA_FINAL: row.hora_final,
  qtdLimpezaDia: row.qtd_limpeza_dia,
  Setor: { id: row.sector_id, name: row.setor },
  Categoria: { id: row.category_id, name: row.categoria },
  Riscos: row.risks,
  Procedures: row.procedures,
  riscos: row.risks.map((risk) => risk.id),
  procedures: row.procedures.filter((p) => p.mandatory).map((p) => p.id),
  proceduresNotMandatory: row.procedures.filter((p) => !p.mandatory).map((p) => p.id),
  deletedAt: null,
  qrCodigo: row.qr_codigo,
  qrEmitidoEm: row.qr_emitido_em?.toISOString() ?? null,
});

const tags = ["Ambientes"];

export function environmentRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/environments",
      tags,
      summary:
        "List environments in scope (filialId = a branch, companyId = the main company); with q/fields/sort/dir/page/" +
        "size: one page and the total; with after: one keyset chunk",
      security: bearer,
      request: { query: ListParams },
      responses: {
        200: jsonResponse(
          "A list, a page when paging parameters are given, or a chunk when after is given",
          z.union([z.array(EnvironmentItem), EnvironmentPage, EnvironmentChunk]),
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
        const chunk = await chunkEnvironments(db, scope, filter, { ...query, after: query.after });
        return ctx.json({ items: chunk.rows.map(itemJson), next: chunk.next }, 200);
      }
      if (!isPaged(query)) return ctx.json((await listEnvironments(db, scope, filter, query)).map(itemJson), 200);
      const { rows, total, page, size } = await pageEnvironments(db, scope, filter, query);
      return ctx.json({ items: rows.map(itemJson), total, page, size }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/environments/form/{companyId}",
      tags,
      summary:
        "The register form's options for a branch (companyId = the branch): categorias, procedimentos, setores, riscos",
      security: bearer,
      request: { params: z.object({ companyId: int32 }) },
      responses: { 200: jsonResponse("The branch's live catalogues", EnvironmentForm), 404: errorResponses[404] },
    }),
    async (ctx) => {
      const options = await environmentFormOptions(db, ctx.get("scope"), ctx.req.valid("param").companyId);
      return ctx.json(
        {
          categorias: options.categories.map((c) => ({
            ID_CATEGORIA: c.id,
            DESCRICAO: c.name,
            EMPRESA_ID: c.branch_id,
          })),
          procedimentos: options.procedures.map((p) => ({
            ID_PROCEDIMENTO: p.id,
            NAME_PROCEDIMENTO: p.name,
            EMPRESA_ID: p.branch_id,
          })),
          setores: options.sectors.map((s) => ({ id: s.id, name: s.name, EMPRESA_ID: s.branch_id })),
          riscos: options.risks.map((r) => ({ id: r.id, name: r.name, color: r.color, EMPRESA_ID: r.branch_id })),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/environments/{id}",
      tags,
      summary: "One environment in scope, in the nested form the edit form starts from",
      security: bearer,
      request: { params: IdParam },
      responses: { 200: jsonResponse("The environment", EnvironmentDetail), 404: errorResponses[404] },
    }),
    async (ctx) => ctx.json(detailJson(await findEnvironment(db, ctx.get("scope"), ctx.req.valid("param").id)), 200),
  );

  const requireWrite = requirePermission("editRegisters");
  for (const path of ["/environments", "/environments/", "/environments/*"]) {
    app.on(["POST", "PUT", "DELETE"], path, requireWrite);
  }

  for (const path of ["/environments", "/environments/"]) {
    app.openapi(
      createRoute({
        method: "post",
        path,
        tags,
        summary: "Create an environment in a branch (companyId = the branch), with its risks and procedures",
        security: bearer,
        request: { body: jsonBody(EnvironmentCreateBody) },
        responses: {
          201: jsonResponse("Created", EnvironmentDetail),
          400: errorResponses[400],
          403: errorResponses[403],
          404: errorResponses[404],
          409: errorResponses[409],
        },
      }),
      async (ctx) => {
        const { companyId, ...input } = ctx.req.valid("json");
        const row = await createEnvironment(db, ctx.get("scope"), { ...input, branchId: companyId });
        return ctx.json(detailJson(row), 201);
      },
    );
  }

  app.openapi(
    createRoute({
      method: "put",
      path: "/environments/{id}",
      tags,
      summary: "Edit an environment (it stays in its branch): name, floor, category, sector, risks, procedures",
      security: bearer,
      request: { params: IdParam, body: jsonBody(EnvironmentEditBody) },
      responses: {
        200: jsonResponse("Saved", EnvironmentDetail),
        400: errorResponses[400],
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (ctx) => {
      const row = await updateEnvironment(db, ctx.get("scope"), ctx.req.valid("param").id, ctx.req.valid("json"));
      return ctx.json(detailJson(row), 200);
    },
  );

  app.on("POST", "/ambientes/*", requireWrite);
  app.openapi(
    createRoute({
      method: "post",
      path: "/ambientes/{id}/qrcode/reemitir",
      tags,
      summary:
        "Ours ('Gerar novo QR code', docs/qr-codes.md): a new QR value for the room; the current one is kept as the " +
        "previous, so the printed code stops proving presence. Same permission as editing the room",
      security: bearer,
      request: { params: IdParam },
      responses: {
        200: jsonResponse("The room with its new code", EnvironmentDetail),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (ctx) =>
      ctx.json(detailJson(await reissueEnvironmentQr(db, ctx.get("scope"), ctx.req.valid("param").id)), 200),
  );

  const removed = { description: "Removed (soft delete)" };
  for (const path of ["/environments", "/environments/"]) {
    app.openapi(
      createRoute({
        method: "delete",
        path,
        tags,
        summary:
          "Remove an environment, sent as the body (its id or ID, as the list and nested forms carry it); refused " +
          "with 409 'Ambiente já possui historico e não pode ser deletado' when it has history",
        security: bearer,
        request: { body: jsonBody(DeleteBody) },
        responses: {
          204: removed,
          400: errorResponses[400],
          403: errorResponses[403],
          404: errorResponses[404],
          409: errorResponses[409],
        },
      }),
      async (ctx) => {
        const body = ctx.req.valid("json");
        await removeEnvironment(db, ctx.get("scope"), (body.id ?? body.ID)!);
        return ctx.body(null, 204);
      },
    );
  }
  app.openapi(
    createRoute({
      method: "delete",
      path: "/environments/{id}",
      tags,
      summary: "Remove an environment by id; refused with 409 when it has history",
      security: bearer,
      request: { params: IdParam },
      responses: { 204: removed, 403: errorResponses[403], 404: errorResponses[404], 409: errorResponses[409] },
    }),
    async (ctx) => {
      await removeEnvironment(db, ctx.get("scope"), ctx.req.valid("param").id);
      return ctx.body(null, 204);
    },
  );

  return app;
}
