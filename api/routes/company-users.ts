import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";

import { requirePermission } from "../auth/middleware.ts";
import { hashPassword } from "../auth/password.ts";
import { userJson } from "../auth/users.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { USER_LEVELS, userCreateFields, userNameField, type UserLevel } from "../domain/users.ts";
import { notFound } from "../lib/errors.ts";
import { isPaged, ListQuery } from "../lib/list-query.ts";
import { bearer, errorResponses, int32, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  changeUserLevel,
  createUser,
  createUserName,
  deleteUserName,
  listUserNames,
  listUsers,
  pageUsers,
  updateUserName,
  USER_SORTS,
  type ListedUserRow,
  type UserNameRow,
} from "../services/users.ts";

import { User } from "./users.ts";

/**
 * The users of a main company and their other names, spec 000 §7 'CPFs, users, branches, companies': HTTP only, the
 * rules and SQL are api/services/users.ts. Everything here is for those who may open /listagem-usuarios
 * (manageRegisters: roles 1, 2, 3, none), except the names of one's own record, which everyone may keep; which levels
 * they may create or give and whom they may edit is decided per call by api/domain/users.ts and api/domain/roles.ts
 * (a 403 'Permissão negada!').
 */

/** A row of the users list: the contract's User and the name of its company (the branch, or the main company). */
export const ListedUser = User.extend({ empresa: z.string() }).openapi("ListedUser");
export type ListedUser = z.infer<typeof ListedUser>;

export const ListedUserPage = z
  .object({ items: z.array(ListedUser), total: z.number(), page: z.number(), size: z.number() })
  .openapi("ListedUserPage");
export type ListedUserPage = z.infer<typeof ListedUserPage>;

export const UserName = z.object({ id: z.number(), name: z.string(), tb_UsersId: z.number() }).openapi("UserName");
export type UserName = z.infer<typeof UserName>;

const listedUserJson = (row: ListedUserRow): ListedUser => ({ ...userJson(row), empresa: row.empresa });
const userNameJson = (row: UserNameRow): UserName => ({ id: row.id, name: row.name, tb_UsersId: row.user_id });

/** Administrador and Auditor belong to the main company (companyId); the other levels to a branch (filiaId). */
export const userCreateBody = (level: UserLevel) =>
  z
    .object({ ...userCreateFields, ...(level.branch ? { filiaId: int32 } : { companyId: int32 }) })
    .openapi(`UserCreate_${level.create}`);
export type UserCreateBody = z.input<ReturnType<typeof userCreateBody>>;

const levelChangeBody = (level: UserLevel) =>
  z
    .object({ userId: int32, ...(level.branch ? { filialId: int32 } : { companyId: int32 }) })
    .openapi(`UserLevel_${level.create}`);

export const UserNameCreateBody = z.object({ userId: int32, name: userNameField }).openapi("UserNameCreateBody");
export const UserNameUpdateBody = z.object({ id: int32, name: userNameField }).openapi("UserNameUpdateBody");

const tags = ["Usuários"];
const refusals = {
  400: errorResponses[400],
  403: errorResponses[400],
  404: errorResponses[404],
  409: errorResponses[400],
} as const;

const ListParams = ListQuery.extend({
  sort: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: `${USER_SORTS.join(", ")} (default nome)` }),
});

const listRoute = createRoute({
  method: "get",
  path: "/allUsers/{companyId}",
  tags,
  summary:
    "Users of the caller's main company (a branch-level user: their branch's). With q/sort/dir/page/size: one " +
    "page and the total",
  security: bearer,
  request: { params: z.object({ companyId: int32 }), query: ListParams },
  responses: {
    200: jsonResponse(
      "Users, or a page when paging parameters are given",
      z.union([z.array(ListedUser), ListedUserPage]),
    ),
    ...refusals,
  },
});

const namesRoute = createRoute({
  method: "get",
  path: "/nameUser",
  tags,
  summary: "The other names of a user in scope (everyone may read their own)",
  security: bearer,
  request: { query: z.object({ userId: int32 }) },
  responses: { 200: jsonResponse("Names", z.array(UserName)), ...refusals },
});

const nameCreateRoute = createRoute({
  method: "post",
  path: "/nameUser",
  tags,
  summary: "Add a name to a user the caller may edit",
  security: bearer,
  request: { body: jsonBody(UserNameCreateBody) },
  responses: { 201: jsonResponse("Created", UserName), ...refusals },
});

const nameUpdateRoute = createRoute({
  method: "put",
  path: "/nameUser",
  tags,
  summary: "Rename one of a user's names",
  security: bearer,
  request: { body: jsonBody(UserNameUpdateBody) },
  responses: { 200: jsonResponse("Updated", UserName), ...refusals },
});

const nameDeleteRoute = createRoute({
  method: "delete",
  path: "/nameUser/{id}",
  tags,
  summary: "Remove one of a user's names",
  security: bearer,
  request: { params: z.object({ id: int32 }) },
  responses: { 204: { description: "Removed" }, ...refusals },
});

export function companyUserRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const adminOf = (c: Context<ApiEnv>) => ({ scope: c.get("scope"), user: c.get("user") });

  // The names are not behind the page's rule: everyone keeps their own (issue 22, item 8); the service checks the rest.
  const paths = ["/allUsers/*"];
  for (const level of USER_LEVELS) {
    paths.push(`/empresas/${level.create}`);
    if (level.transform) paths.push(`/empresas/${level.transform}`);
  }
  for (const path of paths) app.use(path, requirePermission("manageRegisters"));

  app.openapi(listRoute, async (c) => {
    const scope = c.get("scope");
    const { companyId } = c.req.valid("param");
    const query = c.req.valid("query");
    // The session's companyId: the main company, or the branch for branch-level users (the contract's User.companyId).
    if (companyId !== scope.companyId && (scope.level === "company" || companyId !== scope.branchId)) throw notFound();
    if (isPaged(query)) {
      const { rows, total, page, size } = await pageUsers(db, scope, query);
      return c.json({ items: rows.map(listedUserJson), total, page, size }, 200);
    }
    return c.json((await listUsers(db, scope)).map(listedUserJson), 200);
  });

  for (const level of USER_LEVELS) {
    const path = `/empresas/${level.create}`;
    app.openapi(
      createRoute({
        method: "post",
        path,
        tags,
        summary: `Create a user of level ${level.label} (roleId ${level.id}) in the caller's ${
          level.branch ? "branch filiaId" : "main company companyId"
        }; then POST /nameUser`,
        security: bearer,
        request: { body: jsonBody(userCreateBody(level)) },
        responses: { 201: jsonResponse("Created", ListedUser), ...refusals },
      }),
      async (c) => {
        const body = c.req.valid("json") as z.infer<ReturnType<typeof userCreateBody>> & {
          filiaId?: number;
          companyId?: number;
        };
        const place = level.branch ? { branchId: body.filiaId! } : { companyId: body.companyId! };
        const row = await createUser(db, adminOf(c), level.id, place, {
          nome: body.nome,
          email: body.email,
          cpf: body.cpf,
          dataNascimento: body.dataNascimento,
          telefone: body.telefone,
          passwordHash: await hashPassword(body.password),
        });
        return c.json(listedUserJson(row), 201);
      },
    );
    if (!level.transform) continue;
    app.openapi(
      createRoute({
        method: "post",
        path: `/empresas/${level.transform}`,
        tags,
        summary: `Change another user's level to ${level.label} (roleId ${level.id})`,
        security: bearer,
        request: { body: jsonBody(levelChangeBody(level)) },
        responses: { 200: jsonResponse("Changed", ListedUser), ...refusals },
      }),
      async (c) => {
        const body = c.req.valid("json") as { userId: number; filialId?: number; companyId?: number };
        const place = level.branch ? { branchId: body.filialId! } : { companyId: body.companyId! };
        const row = await changeUserLevel(db, adminOf(c), body.userId, level.id, place);
        return c.json(listedUserJson(row), 200);
      },
    );
  }

  app.openapi(namesRoute, async (c) => {
    const { userId } = c.req.valid("query");
    return c.json((await listUserNames(db, adminOf(c), userId)).map(userNameJson), 200);
  });

  app.openapi(nameCreateRoute, async (c) => {
    const body = c.req.valid("json");
    return c.json(userNameJson(await createUserName(db, adminOf(c), body.userId, body.name)), 201);
  });

  app.openapi(nameUpdateRoute, async (c) => {
    const body = c.req.valid("json");
    return c.json(userNameJson(await updateUserName(db, adminOf(c), body.id, body.name)), 200);
  });

  app.openapi(nameDeleteRoute, async (c) => {
    await deleteUserName(db, adminOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
