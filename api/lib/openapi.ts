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
