import { z } from "@hono/zod-openapi";

/** Shared response shapes for the OpenAPI document. */
export const ErrorBody = z
  .object({
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .openapi("Error");

export const errorResponses = {
  400: { description: "Dados inválidos", content: { "application/json": { schema: ErrorBody } } },
  401: { description: "Sem sessão válida", content: { "application/json": { schema: ErrorBody } } },
  404: {
    description: "Não encontrado (ou fora do escopo do usuário)",
    content: { "application/json": { schema: ErrorBody } },
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

const INT32_MAX = 2_147_483_647;
/** Ids are PostgreSQL integers: anything beyond 32 bits is a 400 here, not a database error. */
export const int32 = z.coerce
  .number()
  .int()
  .min(-INT32_MAX - 1)
  .max(INT32_MAX);

/** Wire formats of the scheduling answers: a `time` column as 'HH:mm', a timestamp as ISO 8601 (or null). */
export const hhmm = (time: string) => time.slice(0, 5);
export const iso = (date: Date | null) => (date === null ? null : date.toISOString());
/** A timestamp that JSON aggregation in SQL may hand back as text already. */
export const isoText = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
