import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";

import { requirePermission } from "../auth/middleware.ts";
import { hashPassword } from "../auth/password.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { lateToleranceField } from "../domain/late-tolerance.ts";
import {
  booleanField,
  boardIdsField,
  companyAdminFields,
  companyFields,
  maxUsersField,
  optionalMaxUsersField,
} from "../domain/organisation.ts";
import { can } from "../domain/roles.ts";
import { ApiError } from "../lib/errors.ts";
import { isPaged, ListQuery } from "../lib/list-query.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  companyBoards,
  COMPANY_SORTS,
  createCompany,
  defaultBoards,
  findCompany,
  listCompanies,
  pageCompanies,
  updateCompany,
  type Board,
  type CompanyDetailRow,
  type CompanyRow,
  type CompanyViewer,
} from "../services/companies.ts";

/**
 * Main companies (empresas matriz) of spec 000 §7 'CPFs, users, branches, companies': HTTP only, the rules and SQL
 * are api/services/companies.ts. Reads: any signed-in user, for the companies whose record they may see (their own,
 * those whose master CPF is theirs, those they registered). Writes: roleId 1 only (manageMainCompanies); on an edit
 * the id is checked first, so another tenant's id is 404 for everyone.
 */

/** An audit board (quadro de auditoria), spec 000 §3: ID 1 to 8 and its label. */
export const CompanyBoard = z.object({ ID: z.number(), label: z.string() }).openapi("CompanyBoard");
export type CompanyBoard = z.infer<typeof CompanyBoard>;

/** A main company (spec 000 §3 'Company'), as the lists show it. */
export const Company = z
  .object({
    ID: z.number(),
    NOME: z.string(),
    CNPJ: z.string().openapi({ description: "14 digits" }),
    ENDERECO: z.string(),
    NUMERO: z.string(),
    BAIRRO: z.string(),
    CIDADE: z.string(),
    ATIVO: z.boolean(),
    max_number_users: z.number(),
    late_tolerance_minutes: z
      .number()
      .openapi({ description: "Minutes after a slot's scheduled start before it counts as late (client report)" }),
  })
  .openapi("Company");
export type Company = z.infer<typeof Company>;

/** One company with its enabled boards (GET empresas/{companyId}, and the answer of a create or an edit). */
export const CompanyDetail = Company.extend({ quadros: z.array(CompanyBoard) }).openapi("CompanyDetail");
export type CompanyDetail = z.infer<typeof CompanyDetail>;

export const CompanyPage = z
  .object({ items: z.array(Company), total: z.number(), page: z.number(), size: z.number() })
  .openapi("CompanyPage");
export type CompanyPage = z.infer<typeof CompanyPage>;

/** POST /empresas (spec 000 §3 'Create-company payload'); max_number_users defaults to 50. */
export const CompanyCreateBody = z
  .object({
    ...companyFields,
    quadroIds: boardIdsField,
    max_number_users: optionalMaxUsersField,
    late_tolerance_minutes: lateToleranceField,
    userAdmin: z.object(companyAdminFields),
  })
  .openapi("CompanyCreateBody");
export type CompanyCreateBody = z.input<typeof CompanyCreateBody>;

/** PUT /empresas (spec 000 §3 'Edit-company payload'). */
export const CompanyUpdateBody = z
  .object({
    id: int32,
    ...companyFields,
    quadroIds: boardIdsField,
    ativo: booleanField,
    max_number_users: maxUsersField,
    late_tolerance_minutes: lateToleranceField,
  })
  .openapi("CompanyUpdateBody");
export type CompanyUpdateBody = z.input<typeof CompanyUpdateBody>;

const ListParams = ListQuery.extend({
  sort: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: `${COMPANY_SORTS.join(", ")} (default nome)` }),
});

export const companyJson = (row: CompanyRow): Company => ({
  ID: row.id,
  NOME: row.nome,
  CNPJ: row.cnpj,
  ENDERECO: row.endereco,
  NUMERO: row.numero,
  BAIRRO: row.bairro,
  CIDADE: row.cidade,
  ATIVO: row.ativo,
  max_number_users: row.max_number_users,
  late_tolerance_minutes: row.late_tolerance_minutes,
});

const boardJson = (board: Board): CompanyBoard => ({ ID: board.id, label: board.label });

const detailJson = (row: CompanyDetailRow): CompanyDetail => ({
  ...companyJson(row),
  quadros: row.boards.map(boardJson),
});

const tags = ["Empresas"];
const DENIED = "Permissão negada!";

export function companyRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const viewerOf = (c: Context<ApiEnv>): CompanyViewer => {
    const user = c.get("user");
    return { userId: user.id, cpf: user.cpf, companyId: c.get("scope").companyId };
  };

  // The fixed paths first: /empresas/{companyId} would otherwise take them.
  app.openapi(
    createRoute({
      method: "get",
      path: "/empresas/listmatriz",
      tags,
      summary:
        "The main companies whose record the caller may see (own, owned by a master CPF, registered by the caller); " +
        "with q/sort/dir/page/size: one page and the total",
      security: bearer,
      request: { query: ListParams },
      responses: {
        200: jsonResponse(
          "Companies, or a page when paging parameters are given",
          z.union([z.array(Company), CompanyPage]),
        ),
        400: errorResponses[400],
      },
    }),
    async (c) => {
      const query = c.req.valid("query");
      if (!isPaged(query)) return c.json((await listCompanies(db, viewerOf(c))).map(companyJson), 200);
      const { rows, total, page, size } = await pageCompanies(db, viewerOf(c), query);
      return c.json({ items: rows.map(companyJson), total, page, size }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/empresas/all",
      tags,
      summary: "The companies for report filters: the same companies as listmatriz, by name",
      security: bearer,
      responses: { 200: jsonResponse("Companies", z.array(Company)) },
    }),
    async (c) => c.json((await listCompanies(db, viewerOf(c))).map(companyJson), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/empresas/quadros",
      tags,
      summary: "The enabled audit boards (ID 1 to 8) of a company the caller may see; the caller's own unless told",
      security: bearer,
      request: { query: z.object({ companyId: int32.optional() }) },
      responses: { 200: jsonResponse("Boards", z.array(CompanyBoard)), 404: errorResponses[404] },
    }),
    async (c) => {
      const { companyId } = c.req.valid("query");
      return c.json((await companyBoards(db, viewerOf(c), companyId)).map(boardJson), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/quadroPadrao",
      tags,
      summary: "The default audit boards a company may be given",
      security: bearer,
      responses: { 200: jsonResponse("Boards", z.array(CompanyBoard)) },
    }),
    async (c) => c.json((await defaultBoards(db)).map(boardJson), 200),
  );

  // Registering is roleId 1's alone, refused before the body is read; an edit checks the id first (below).
  app.on("POST", "/empresas", requirePermission("manageMainCompanies"));
  app.openapi(
    createRoute({
      method: "post",
      path: "/empresas",
      tags,
      summary:
        "Register a main company with its audit boards and its first administrator (roleId 2, owner of a master CPF), " +
        "in one transaction; roleId 1 only",
      security: bearer,
      request: { body: jsonBody(CompanyCreateBody) },
      responses: {
        201: jsonResponse("Created", CompanyDetail),
        400: errorResponses[400],
        403: errorResponses[400],
        409: errorResponses[400],
      },
    }),
    async (c) => {
      const { userAdmin, ...body } = c.req.valid("json");
      const { password, ...admin } = userAdmin;
      // Hashed before the transaction: scrypt's ~100 ms would otherwise hold the (PGlite: only) connection.
      const passwordHash = await hashPassword(password);
      const row = await createCompany(db, viewerOf(c), { ...body, userAdmin: { ...admin, passwordHash } });
      return c.json(detailJson(row), 201);
    },
  );

  app.openapi(
    createRoute({
      method: "put",
      path: "/empresas",
      tags,
      summary:
        "Edit a main company (id): every field, its status and its boards; roleId 1 only (another tenant's id is 404 " +
        "for everyone)",
      security: bearer,
      request: { body: jsonBody(CompanyUpdateBody) },
      responses: {
        200: jsonResponse("Saved", CompanyDetail),
        400: errorResponses[400],
        403: errorResponses[400],
        404: errorResponses[404],
        409: errorResponses[400],
      },
    }),
    async (c) => {
      const { id, ...body } = c.req.valid("json");
      const viewer = viewerOf(c);
      await findCompany(db, viewer, id);
      if (!can(c.get("user"), "manageMainCompanies")) throw new ApiError(403, DENIED);
      return c.json(detailJson(await updateCompany(db, viewer, id, body)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/empresas/{companyId}",
      tags,
      summary: "One main company the caller may see, with its enabled audit boards",
      security: bearer,
      request: { params: z.object({ companyId: int32 }) },
      responses: { 200: jsonResponse("The company", CompanyDetail), 404: errorResponses[404] },
    }),
    async (c) => c.json(detailJson(await findCompany(db, viewerOf(c), c.req.valid("param").companyId)), 200),
  );

  return app;
}
