/** Reading /api/openapi.json in tests: the document as the API serves it, and its operations one by one. */
import { expect } from "vitest";

import type { TestApi } from "./api.ts";

export type OpenApiOperation = {
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema?: { type?: unknown } }[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, unknown>;
};
export type OpenApiDocument<O = OpenApiOperation> = {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, O>>;
  components?: { schemas?: Record<string, unknown> };
};

export async function readOpenApi<O = OpenApiOperation>(t: TestApi): Promise<OpenApiDocument<O>> {
  const answer = await t.get<OpenApiDocument<O>>("/api/openapi.json");
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Every operation, named as "POST /api/setor/" (method upper case, the document's path). */
export function operationsOf<O>(doc: OpenApiDocument<O>) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}
