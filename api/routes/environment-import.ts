import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import { assertBranchInScope } from "../auth/scope.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { IMPORT_MAX_ROWS, IMPORT_TEXTS } from "../domain/environment-import.ts";
import { INT32_MAX } from "../domain/environments.ts";
import { ApiError } from "../lib/errors.ts";
import { bearer, errorResponses, jsonResponse } from "../lib/openapi.ts";
import { EnvironmentImportRejected, importEnvironments } from "../services/environment-import.ts";

/**
 * POST /environments/import: the spreadsheet importer of environments (issue 10; docs/environments.md 'Importing
 * environments'). HTTP only; the reading, rules and SQL are api/services/environment-import.ts. Writes: roleId 1 and
 * 2 only, into an active branch of the caller's main company (companyId = the branch, as in POST /environments).
 */

export const EnvironmentsImported = z
  .object({ created: z.number().openapi({ description: "How many environments were created" }) })
  .openapi("EnvironmentsImported");
export type EnvironmentsImported = z.infer<typeof EnvironmentsImported>;

export const EnvironmentImportErrors = z
  .object({
    message: z.string(),
    errors: z
      .array(z.string())
      .openapi({ description: "Every problem, each naming its line ('Linha 3: ...'); at most 50 and a count" }),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .openapi("EnvironmentImportErrors");

const path = "/environments/import";

export function environmentImportRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.on("POST", path, requirePermission("editRegisters"));

  app.openapi(
    createRoute({
      method: "post",
      path,
      tags: ["Ambientes"],
      summary:
        `Import environments from an .xlsx (first sheet) or a CSV into a branch (companyId = the branch): all rows ` +
        `or none, at most ${IMPORT_MAX_ROWS} rows; a refusal lists every row's problem`,
      security: bearer,
      request: {
        body: {
          // Both optional here: the handler answers the messages for a missing file or branch.
          content: {
            "multipart/form-data": {
              schema: z.object({
                file: z.any().optional().openapi({ type: "string", format: "binary" }),
                companyId: z.string().optional().openapi({ description: "The branch (filial) id" }),
              }),
            },
          },
          required: true,
        },
      },
      responses: {
        201: jsonResponse("Imported", EnvironmentsImported),
        400: jsonResponse("The file or some rows were refused; nothing was written", EnvironmentImportErrors),
        403: errorResponses[400],
        404: errorResponses[404],
        413: errorResponses[400],
      },
    }),
    async (ctx) => {
      const scope = ctx.get("scope");
      const form = await ctx.req.formData();
      const branchField = form.get("companyId");
      const branchId =
        typeof branchField === "string" && /^\s*\d{1,10}\s*$/.test(branchField) ? Number(branchField) : 0;
      if (branchId < 1 || branchId > INT32_MAX) {
        const message = IMPORT_TEXTS.branchRequired;
        return ctx.json({ message, errors: [message], fieldErrors: { companyId: [message] } }, 400);
      }
      try {
        // The branch is checked before the file, so a branch outside the scope answers 404 whatever was sent.
        await assertBranchInScope(db, scope, branchId, { active: true });
        const file = form.get("file");
        if (!(file instanceof File) || file.size === 0)
          throw new EnvironmentImportRejected([IMPORT_TEXTS.fileRequired]);
        const bytes = new Uint8Array(await file.arrayBuffer());
        const created = await importEnvironments(db, scope, branchId, { name: file.name, type: file.type, bytes });
        return ctx.json({ created }, 201);
      } catch (error) {
        if (error instanceof EnvironmentImportRejected) return ctx.json(error.body(), 400);
        if (error instanceof ApiError && error.status === 400) {
          return ctx.json({ message: error.message, errors: [error.message] }, 400);
        }
        throw error;
      }
    },
  );

  return app;
}
