import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { cpfField } from "../domain/fields.ts";
import { CPF_CSV_FIELD } from "../domain/pre-registered-cpf-csv.ts";
import {
  CPF_TEXTS as T,
  DEFAULT_PRE_REGISTER_LEVEL,
  levelField,
  preRegisteredCpfField,
  STATUS_ACTION_CODES,
  type StatusAction,
} from "../domain/pre-registered-cpfs.ts";
import { csvUploadBytes, formId } from "../lib/csv.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { isPaged, ListQuery } from "../lib/list-query.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  assertCpfTarget,
  changeCpfStatus,
  CPF_SORTS,
  createPreRegisteredCpf,
  importPreRegisteredCpfCsv,
  listPreRegisteredCpfs,
  pagePreRegisteredCpfs,
  type PreRegisteredCpfRow,
} from "../services/pre-registered-cpfs.ts";

/**
 * Pre-registered CPFs of spec 000 §7 'CPFs, users, branches, companies': HTTP only, the rules and SQL are
 * api/services/pre-registered-cpfs.ts. Reads: anyone who may open the page (manageRegisters), within scope.
 * Writes: the main company's staff (editRegisters, roles 1 and 2), as on the catalogue screens (spec 000 §6: no
 * tick-boxes and no register tab for branch-level users).
 */

/** One row of the contract's list (CPF, CNPJ, NOME_FILIAL, ATIVO) and the ids and level the web needs. */
export const PreRegisteredCpf = z
  .object({
    ID: z.number(),
    CPF: z.string().openapi({ description: "11 digits" }),
    CNPJ: z.string().openapi({ description: "the branch's CNPJ, 14 digits" }),
    NOME_FILIAL: z.string(),
    ATIVO: z.boolean(),
    roleId: z.number().nullable(),
    Id_Empresas: z.number(),
    idEmpresaFilial: z.number(),
  })
  .openapi("PreRegisteredCpf");
export type PreRegisteredCpf = z.infer<typeof PreRegisteredCpf>;

export const PreRegisteredCpfPage = z
  .object({ items: z.array(PreRegisteredCpf), total: z.number(), page: z.number(), size: z.number() })
  .openapi("PreRegisteredCpfPage");
export type PreRegisteredCpfPage = z.infer<typeof PreRegisteredCpfPage>;

/**
 * POST empresas/saveFuncionarios: the CPF, its main company and branch, and the level it signs up with. The contract's
 * payload has no level: without roleId it is DEFAULT_PRE_REGISTER_LEVEL (ASG); one sent empty is still refused.
 */
export const CpfCreateBody = z
  .object({
    cpf: preRegisteredCpfField,
    idEmpresa: int32,
    idEmpresaFilial: int32,
    roleId: z
      .optional(levelField)
      .default(DEFAULT_PRE_REGISTER_LEVEL)
      .openapi({
        description: `2 Administrador, 3 Coordenador, 4 Auditor, 5 ASG; left out: ${DEFAULT_PRE_REGISTER_LEVEL} (ASG)`,
      }),
  })
  .openapi("CpfCreateBody");
export type CpfCreateBody = z.input<typeof CpfCreateBody>;

/**
 * PUT empresas/ativaInativaDeleteFuncionarios: acao is one code for every CPF, or one code per CPF (same order).
 * An empty cpf list is the web's 'Nenhum registro selecionado'.
 */
export const CpfStatusBody = z
  .object({
    acao: z.array(z.enum(STATUS_ACTION_CODES, { error: T.actionInvalid })).min(1, T.actionInvalid),
    cpf: z.array(cpfField).max(1000),
  })
  .superRefine((body, ctx) => {
    if (body.acao.length !== 1 && body.acao.length !== body.cpf.length)
      ctx.addIssue({ code: "custom", path: ["acao"], message: T.actionInvalid });
  })
  .openapi("CpfStatusBody");
export type CpfStatusBody = z.input<typeof CpfStatusBody>;

/** The bulk change's answer: how many CPFs it changed. */
export const CpfStatusAnswer = z.object({ updated: z.number() }).openapi("CpfStatusAnswer");

/** POST empresas/saveCSVFuncionarios: how many CPFs the file pre-registered. */
export const CpfImported = z.object({ created: z.number() }).openapi("CpfImported");
export type CpfImported = z.infer<typeof CpfImported>;

const ListParams = ListQuery.extend({
  sort: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: `${CPF_SORTS.join(", ")} (default cpf)` }),
});

export const cpfJson = (row: PreRegisteredCpfRow): PreRegisteredCpf => ({
  ID: row.id,
  CPF: row.cpf,
  CNPJ: row.branch_cnpj,
  NOME_FILIAL: row.branch_nome,
  ATIVO: row.ativo,
  roleId: row.role_id,
  Id_Empresas: row.company_id,
  idEmpresaFilial: row.branch_id,
});

const tags = ["CPFs pré-cadastrados"];

const listRoute = createRoute({
  method: "get",
  path: "/empresas/funcionarios/{companyId}",
  tags,
  summary:
    "Pre-registered CPFs of the caller's main company (a branch-level user: their branch's), removed ones left " +
    "out. With q/sort/dir/page/size: one page and the total",
  security: bearer,
  request: { params: z.object({ companyId: int32 }), query: ListParams },
  responses: {
    200: jsonResponse(
      "Pre-registered CPFs, or a page when paging parameters are given",
      z.union([z.array(PreRegisteredCpf), PreRegisteredCpfPage]),
    ),
    400: errorResponses[400],
    403: errorResponses[400],
    404: errorResponses[404],
  },
});

const createRouteDef = createRoute({
  method: "post",
  path: "/empresas/saveFuncionarios",
  tags,
  summary: "Pre-register a CPF in a branch (idEmpresaFilial) of the caller's main company (idEmpresa), with a level",
  security: bearer,
  request: { body: jsonBody(CpfCreateBody) },
  responses: {
    201: jsonResponse("Created", PreRegisteredCpf),
    400: errorResponses[400],
    403: errorResponses[400],
    404: errorResponses[404],
    409: errorResponses[400],
  },
});

const statusRoute = createRoute({
  method: "put",
  path: "/empresas/ativaInativaDeleteFuncionarios",
  tags,
  summary: "Inactivate ('1'), remove ('2') or activate ('3') pre-registered CPFs in scope, all or nothing",
  security: bearer,
  request: { body: jsonBody(CpfStatusBody) },
  responses: {
    200: jsonResponse("Changed", CpfStatusAnswer),
    400: errorResponses[400],
    403: errorResponses[400],
    404: errorResponses[404],
  },
});

const csvRoute = createRoute({
  method: "post",
  path: "/empresas/saveCSVFuncionarios",
  tags,
  summary:
    "Pre-register the CPFs of a CSV (field csv; columns cpf;nivel, the level by name) in a branch (idEmpresaFilial) " +
    "of the caller's main company (idEmpresa); all rows or none, every problem named by its line",
  security: bearer,
  request: {
    body: {
      // All optional here: the handler answers its own messages for a missing file, company or branch.
      content: {
        "multipart/form-data": {
          schema: z.object({
            [CPF_CSV_FIELD]: z.any().optional(),
            idEmpresa: z.string().optional(),
            idEmpresaFilial: z.string().optional(),
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    201: jsonResponse("Pre-registered", CpfImported),
    400: errorResponses[400],
    403: errorResponses[400],
    404: errorResponses[404],
    413: errorResponses[400],
  },
});

export function preRegisteredCpfRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.on("GET", "/empresas/funcionarios/*", requirePermission("manageRegisters"));
  app.on("POST", "/empresas/saveFuncionarios", requirePermission("editRegisters"));
  app.on("POST", "/empresas/saveCSVFuncionarios", requirePermission("editRegisters"));
  app.on("PUT", "/empresas/ativaInativaDeleteFuncionarios", requirePermission("editRegisters"));

  app.openapi(listRoute, async (c) => {
    const scope = c.get("scope");
    const { companyId } = c.req.valid("param");
    const query = c.req.valid("query");
    // The session's companyId: the main company, or the branch for branch-level users (the contract's User.companyId).
    if (companyId !== scope.companyId && (scope.level === "company" || companyId !== scope.branchId)) throw notFound();
    if (isPaged(query)) {
      const { rows, total, page, size } = await pagePreRegisteredCpfs(db, scope, query);
      return c.json({ items: rows.map(cpfJson), total, page, size }, 200);
    }
    return c.json((await listPreRegisteredCpfs(db, scope)).map(cpfJson), 200);
  });

  app.openapi(createRouteDef, async (c) => {
    const body = c.req.valid("json");
    const row = await createPreRegisteredCpf(
      db,
      { scope: c.get("scope"), user: c.get("user") },
      { cpf: body.cpf, companyId: body.idEmpresa, branchId: body.idEmpresaFilial, roleId: body.roleId },
    );
    return c.json(cpfJson(row), 201);
  });

  app.openapi(csvRoute, async (c) => {
    const writer = { scope: c.get("scope"), user: c.get("user") };
    const form = await c.req.formData();
    const target = { companyId: formId(form, "idEmpresa"), branchId: formId(form, "idEmpresaFilial") };
    if (!Number.isInteger(target.companyId))
      throw new ApiError(400, T.companyRequired, { idEmpresa: [T.companyRequired] });
    if (!Number.isInteger(target.branchId))
      throw new ApiError(400, T.branchRequired, { idEmpresaFilial: [T.branchRequired] });
    // The company and the branch are checked before the file, so ids outside the scope answer 404 whatever was sent.
    await assertCpfTarget(db, writer, target);
    const bytes = await csvUploadBytes(form.get(CPF_CSV_FIELD));
    return c.json({ created: await importPreRegisteredCpfCsv(db, writer, { ...target, bytes }) }, 201);
  });

  app.openapi(statusRoute, async (c) => {
    const body = c.req.valid("json");
    const changes = body.cpf.map((cpf, index) => ({
      cpf,
      action: (body.acao.length === 1 ? body.acao[0] : body.acao[index]) as StatusAction,
    }));
    const actionOf = new Map<string, StatusAction>();
    for (const change of changes) {
      if (actionOf.has(change.cpf) && actionOf.get(change.cpf) !== change.action)
        throw new ApiError(400, T.actionInvalid, { acao: [T.actionInvalid] });
      actionOf.set(change.cpf, change.action);
    }
    const updated = await changeCpfStatus(db, { scope: c.get("scope"), user: c.get("user") }, changes);
    return c.json({ updated }, 200);
  });

  return app;
}
