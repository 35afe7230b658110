import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Env, Schema } from "hono";

import { MAX_BOOKING_ROWS } from "../domain/limits.ts";

/** Shared response shapes for the OpenAPI document. */
export const ErrorBody = z
  .object({
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .openapi("Error");

const errorJson = { "application/json": { schema: ErrorBody } } as const;
const retryAfter = (description: string) => ({
  "Retry-After": { description, schema: { type: "integer" as const, minimum: 1 } },
});

export const errorResponses = {
  400: { description: "Dados inválidos", content: errorJson },
  401: { description: "Sem sessão válida", content: errorJson },
  403: { description: "Permissão negada", content: errorJson },
  404: { description: "Não encontrado (ou fora do escopo do usuário)", content: errorJson },
  409: { description: "Conflito com um registro existente", content: errorJson },
  413: { description: "Corpo da requisição acima do limite (BODY_LIMIT / UPLOAD_LIMIT)", content: errorJson },
  415: { description: "Tipo de conteúdo não suportado", content: errorJson },
  429: {
    description: "Muitas tentativas",
    headers: retryAfter("Seconds to wait before trying again"),
    content: errorJson,
  },
  503: {
    description: "Banco de dados indisponível; tente de novo após Retry-After",
    headers: retryAfter("Seconds to wait before trying again"),
    content: errorJson,
  },
} as const;

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
  required: true,
});

export const jsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

export const bearer = [{ bearerAuth: [] }];

/** Query numbers arrive as text. */
export const queryId = z.coerce.number().int().optional();

export const INT32_MAX = 2_147_483_647;
/** Ids are PostgreSQL integers: anything beyond 32 bits is a 400 here, not a database error. */
export const int32 = z.coerce
  .number()
  .int()
  .min(-INT32_MAX - 1)
  .max(INT32_MAX);

/** The contract's scope query of the lists (spec 001 §7): the caller's main company, one branch, the client branch. */
export const branchScopeQuery = {
  companyId: int32.optional().openapi({ description: "The main company (the caller's)" }),
  filialId: int32.optional().openapi({ description: "One branch; -1 = every branch" }),
  filialClientId: int32.optional().openapi({ description: "The client branch (roleId 7)" }),
};

/** `limit` + `page` of the bookings and history lists: at most MAX_BOOKING_ROWS a page, and unpaged as many. */
export const limitPageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_BOOKING_ROWS)
    .optional()
    .openapi({
      description: `Rows per page (at most ${MAX_BOOKING_ROWS}). Without it the answer holds at most ${MAX_BOOKING_ROWS} rows: past that, 400`,
    }),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().openapi({ description: "From 1 (default 1)" }),
};

/** `campos`: the comma-separated fields a search (q) looks in, each one of `fields`; anything else is `message`. */
export function searchFieldsQuery<F extends string>(fields: readonly F[], message: string, byDefault: string) {
  return z
    .string()
    .max(100)
    .optional()
    .transform((value, ctx) => {
      const chosen = (value ?? "").split(",").filter(Boolean);
      if (chosen.some((field) => !(fields as readonly string[]).includes(field)))
        ctx.addIssue({ code: "custom", message });
      return chosen as F[];
    })
    .openapi({ type: "string", description: `Where q looks, comma-separated: ${fields.join(", ")} (${byDefault})` });
}

/** Wire formats of the scheduling answers: a `time` column as 'HH:mm', a timestamp as ISO 8601 (or null). */
export const hhmm = (time: string) => time.slice(0, 5);
export const iso = (date: Date | null) => (date === null ? null : date.toISOString());
/** A timestamp that JSON aggregation in SQL may hand back as text already. */
export const isoText = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;
type OpenApiConfig = Parameters<OpenAPIHono["getOpenAPI31Document"]>[0];
type Operation = NonNullable<NonNullable<OpenApiDocument["paths"]>[string]["get"]>;
type Parameter = { in?: string; required?: boolean; schema?: { type?: string | string[] } };

/** A path parameter any text satisfies (a file name): its zod check cannot fail. */
const anyText = (parameter: Parameter) =>
  parameter.in === "path" && parameter.schema?.type === "string" && Object.keys(parameter.schema).length === 1;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const ERROR_SCHEMA = { $ref: "#/components/schemas/Error" };

/** errorResponses[status] as the document writes it (the generator has already turned zod schemas into $refs). */
function documented(status: keyof typeof errorResponses) {
  const { description, ...rest } = errorResponses[status];
  return {
    description,
    ...("headers" in rest ? { headers: rest.headers } : {}),
    content: { "application/json": { schema: ERROR_SCHEMA } },
  };
}

/**
 * The answers every operation of a kind gives, whatever its route says, written once here instead of in ~100
 * createRoute calls (issue 22 item 6). Each rule is one piece of api/app.ts or @hono/zod-openapi that runs before
 * the route's handler:
 * - path parameters are required (OpenAPI 3.1), and no parameter is `null`: a URL carries text, never JSON null
 *   (z.coerce makes the generator write `required: false` and `type: [..., "null"]`);
 * - parameters and bodies are checked by zod (defaultHook: 400), and a JSON body may be malformed (400);
 * - a bearer operation goes through requireUser: 401; 403 to a field session outside the field calls
 *   (docs/field-app.md 'Calls'); it reads the sessions table and the handler the database, which answers 503 +
 *   Retry-After while it is away (public operations that touch it declare 503 themselves);
 * - any body but a GET's passes limitBodies first: 413 (whether the operation reads a body or not);
 * - a declared JSON or form body is checked against its content type by @hono/zod-openapi: 415;
 * - a public operation says so with `security: []` (OpenAPI: no security requirement), not by leaving it out.
 * What a route declares itself is kept (its own description of a 413, say); only missing answers are added.
 */
export function completeOpenApi(document: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) completeOperation(method, operation);
    }
  }
  return document;
}

function completeOperation(method: (typeof METHODS)[number], operation: Operation) {
  const responses = (operation.responses ??= {});
  const add = (status: keyof typeof errorResponses) => {
    responses[status] ??= documented(status);
  };
  const parameters = (operation.parameters ?? []) as Parameter[];
  for (const parameter of parameters) {
    if (parameter.in === "path") parameter.required = true;
    const type = parameter.schema?.type;
    if (Array.isArray(type) && type.includes("null")) {
      const rest = type.filter((name) => name !== "null");
      parameter.schema!.type = rest.length === 1 ? rest[0] : rest;
    }
  }
  const bodyTypes = Object.keys((operation.requestBody as { content?: object } | undefined)?.content ?? {});
  if (bodyTypes.length || parameters.some((parameter) => !anyText(parameter))) add(400);
  if (operation.security?.length) {
    add(401);
    add(403);
    add(503);
  } else {
    operation.security = [];
  }
  if (method !== "get" && method !== "head") add(413);
  if (bodyTypes.some((type) => /json|form/.test(type))) add(415);
}

/**
 * Serves the OpenAPI document at `path` of `api`, completed by completeOpenApi, with the one server it describes:
 * its paths already hold the /api base, so the server is this origin ("/", resolved against the document's URL).
 */
export function serveOpenApi<E extends Env, S extends Schema, B extends string>(
  api: OpenAPIHono<E, S, B>,
  path: string,
  config: Omit<OpenApiConfig, "servers">,
) {
  api.openAPIRegistry.register("Error", ErrorBody);
  api.get(path, (c) =>
    c.json(
      completeOpenApi(api.getOpenAPI31Document({ ...config, servers: [{ url: "/", description: "This server" }] })),
    ),
  );
}
