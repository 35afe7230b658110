import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import { apiCaches } from "../caches.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { booleanField, branchFields } from "../domain/organisation.ts";
import { notFound } from "../lib/errors.ts";
import { isPaged, ListQuery } from "../lib/list-query.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  BRANCH_SORTS,
  createBranch,
  listBranches,
  pageBranches,
  updateBranch,
  type BranchRow,
} from "../services/branches.ts";

/**
 * Branches (filiais) of spec 000 §7 'CPFs, users, branches, companies': HTTP only, the rules and SQL are
 * api/services/branches.ts. Reads: any signed-in user, within scope (a branch-level user gets their own branch).
 * Writes: roleId 1 and 2 (manageBranches) whose CPF is a master CPF of the company (spec 000 §6).
 */

/** One branch (filial) of the contract's branch list. */
export const Branch = z
  .object({
    ID: z.number(),
    NOME: z.string(),
    CNPJ: z.string().openapi({ description: "14 digits" }),
    ENDERECO: z.string(),
    NUMERO: z.string(),
    ATIVO: z.boolean(),
    Id_Empresas: z.number(),
  })
  .openapi("Branch");
export type Branch = z.infer<typeof Branch>;

export const BranchPage = z
  .object({ items: z.array(Branch), total: z.number(), page: z.number(), size: z.number() })
  .openapi("BranchPage");
export type BranchPage = z.infer<typeof BranchPage>;

/** POST empresas/saveEmpresaFilial: the branch's fields and its main company (the caller's). */
export const BranchCreateBody = z.object({ ...branchFields, Id_Empresas: int32 }).openapi("BranchCreateBody");
export type BranchCreateBody = z.input<typeof BranchCreateBody>;

/** PUT empresas/updateEmpresaFilial: the same plus the branch's ID and its status. */
export const BranchUpdateBody = z
  .object({ ...branchFields, Id_Empresas: int32, ID: int32, ATIVO: booleanField })
  .openapi("BranchUpdateBody");
export type BranchUpdateBody = z.input<typeof BranchUpdateBody>;

const ListParams = z
  .object({ companyId: int32.optional() })
  .extend(ListQuery.shape)
  .extend({
    sort: z
      .string()
      .max(40)
      .optional()
      .openapi({ description: `${BRANCH_SORTS.join(", ")} (default nome)` }),
  });

export const branchJson = (row: BranchRow): Branch => ({
  ID: row.id,
  NOME: row.nome,
  CNPJ: row.cnpj,
  ENDERECO: row.endereco,
  NUMERO: row.numero,
  ATIVO: row.ativo,
  Id_Empresas: row.company_id,
});

const tags = ["Filiais"];

const listRoute = createRoute({
  method: "get",
  path: "/empresas/filiais",
  tags,
  summary:
    "Branches of the caller's main company (a branch-level user gets only their own), active and inactive; the web " +
    "keeps ATIVO true for its selectors. With q/sort/dir/page/size: one page and the total",
  security: bearer,
  request: { query: ListParams },
  responses: {
    200: jsonResponse("Branches, or a page when paging parameters are given", z.union([z.array(Branch), BranchPage])),
    400: errorResponses[400],
    404: errorResponses[404],
  },
});

const createRouteDef = createRoute({
  method: "post",
  path: "/empresas/saveEmpresaFilial",
  tags,
  summary: "Register a branch of the caller's main company (Id_Empresas); needs the caller's CPF as a master CPF",
  security: bearer,
  request: { body: jsonBody(BranchCreateBody) },
  responses: {
    201: jsonResponse("Created", Branch),
    400: errorResponses[400],
    403: errorResponses[400],
    404: errorResponses[404],
    409: errorResponses[400],
  },
});

const updateRouteDef = createRoute({
  method: "put",
  path: "/empresas/updateEmpresaFilial",
  tags,
  summary: "Edit a branch (ID): every field and its status ATIVO; needs the caller's CPF as a master CPF",
  security: bearer,
  request: { body: jsonBody(BranchUpdateBody) },
  responses: {
    200: jsonResponse("Saved", Branch),
    400: errorResponses[400],
    403: errorResponses[400],
    404: errorResponses[404],
    409: errorResponses[400],
  },
});

export function branchRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(listRoute, async (c) => {
    const scope = c.get("scope");
    const { companyId, ...query } = c.req.valid("query");
    if (companyId !== undefined && companyId !== scope.companyId) throw notFound();
    if (isPaged(query)) {
      const { rows, total, page, size } = await pageBranches(db, scope, query);
      return c.json({ items: rows.map(branchJson), total, page, size }, 200);
    }
    // Asked by every page with a branch choice: cached per scope until a write to branches (api/caches.ts).
    const key = scope.level === "company" ? `company:${scope.companyId}` : `branch:${scope.branchId}`;
    const branches = await apiCaches(deps.database).branches.get(key, async () =>
      (await listBranches(db, scope)).map(branchJson),
    );
    return c.json(branches, 200);
  });

  const requireWrite = requirePermission("manageBranches");
  app.on("POST", "/empresas/saveEmpresaFilial", requireWrite);
  app.on("PUT", "/empresas/updateEmpresaFilial", requireWrite);

  app.openapi(createRouteDef, async (c) => {
    const body = c.req.valid("json");
    const row = await createBranch(db, { scope: c.get("scope"), cpf: c.get("user").cpf }, body.Id_Empresas, {
      nome: body.NOME,
      cnpj: body.CNPJ,
      endereco: body.ENDERECO,
      numero: body.NUMERO,
    });
    return c.json(branchJson(row), 201);
  });

  app.openapi(updateRouteDef, async (c) => {
    const body = c.req.valid("json");
    const row = await updateBranch(db, { scope: c.get("scope"), cpf: c.get("user").cpf }, body.ID, body.Id_Empresas, {
      nome: body.NOME,
      cnpj: body.CNPJ,
      endereco: body.ENDERECO,
      numero: body.NUMERO,
      ativo: body.ATIVO,
    });
    return c.json(branchJson(row), 200);
  });

  return app;
}
