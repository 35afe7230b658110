import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { apiCaches } from "../caches.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { notFound } from "../lib/errors.ts";
import { bearer, errorResponses, jsonResponse, queryId } from "../lib/openapi.ts";

/** One branch (filial) of the contract's branch list. */
export const Branch = z
  .object({
    ID: z.number(),
    NOME: z.string(),
    CNPJ: z.string(),
    ENDERECO: z.string(),
    NUMERO: z.string(),
    ATIVO: z.boolean(),
    Id_Empresas: z.number(),
  })
  .openapi("Branch");
export type Branch = z.infer<typeof Branch>;

const listBranches = createRoute({
  method: "get",
  path: "/empresas/filiais",
  summary:
    "Branches of the caller's main company (a branch-level user gets only their own); the client keeps ATIVO true",
  security: bearer,
  request: { query: z.object({ companyId: queryId }) },
  responses: { 200: jsonResponse("Branches", z.array(Branch)), 404: errorResponses[404] },
});

export function branchRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(listBranches, async (c) => {
    const scope = c.get("scope");
    const { companyId } = c.req.valid("query");
    if (companyId !== undefined && companyId !== scope.companyId) throw notFound();
    // Asked by every page with a branch choice: cached per scope until a write to branches (api/caches.ts).
    const key = scope.level === "company" ? `company:${scope.companyId}` : `branch:${scope.branchId}`;
    const branches = await apiCaches(deps.database).branches.get(key, async () => {
      let query = db
        .selectFrom("branches")
        .select(["id", "nome", "cnpj", "endereco", "numero", "ativo", "company_id"])
        .where("company_id", "=", scope.companyId);
      if (scope.level !== "company") query = query.where("id", "=", scope.branchId);
      // nome_folded: the name folded by the database (migration 003), in the order of branches_company_sort_idx.
      const rows = await query.orderBy("nome_folded").orderBy("id").execute();
      return rows.map((row) => ({
        ID: row.id,
        NOME: row.nome,
        CNPJ: row.cnpj,
        ENDERECO: row.endereco,
        NUMERO: row.numero,
        ATIVO: row.ativo,
        Id_Empresas: row.company_id,
      }));
    });
    return c.json(branches, 200);
  });
  return app;
}
