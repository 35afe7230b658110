import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";

import { UNEXPECTED } from "../api/domain/messages";

import type { SessionUser } from "~/session.server";

/**
 * The transport to the REST API, used only by app/models/*. Without API_URL it calls the in-process handler (no
 * socket); with it, it speaks HTTP. Answers are checked with the API's own zod schemas: raw JSON never reaches a
 * component.
 */
export type ApiFailure = {
  ok: false;
  status: number;
  message: string;
  fieldErrors?: Record<string, string[]>;
  /** The API's Retry-After (a 409 while the same Idempotency-Key is still answered, a 429, a 503). */
  retryAfter?: string;
};
export type ApiResult<T> = { ok: true; status: number; data: T } | ApiFailure;

/** Who is calling: the request being served and, for private calls, the signed-in user's token. */
export type ApiCaller = { context: AppLoadContext; request: Request; auth?: { token: string } };

/** A signed-in user as the caller of every model's API calls (app/models/*). */
export type SignedInCaller = ApiCaller & { auth: SessionUser };

const ErrorBody = z.object({
  message: z.string().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});

type CallOptions<T> = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  json?: unknown;
  formData?: FormData;
  query?: Record<string, string | number | undefined | null>;
  /** Extra request headers the API reads (the field app's Idempotency-Key). */
  headers?: Record<string, string>;
  schema?: z.ZodType<T>;
};

export async function callApi<T = null>(
  caller: ApiCaller,
  path: string,
  options: CallOptions<T> = {},
): Promise<ApiResult<T>> {
  const response = await send(caller, path, options, "application/json");
  if (!response.ok) return failureOf(response);
  if (!options.schema || response.status === 204) return { ok: true, status: response.status, data: null as T };
  const data = options.schema.parse(await response.json());
  return { ok: true, status: response.status, data };
}

/** A GET whose answer is a file (a photo): the API's own response, to stream on with its headers, or the failure. */
export async function callApiForFile(
  caller: ApiCaller,
  path: string,
): Promise<{ ok: true; response: Response } | ApiFailure> {
  const response = await send(caller, path, {}, "*/*");
  return response.ok ? { ok: true, response } : failureOf(response);
}

async function send(
  { context, request, auth }: ApiCaller,
  path: string,
  options: Omit<CallOptions<unknown>, "schema">,
  accept: string,
) {
  const base = context.apiUrl ?? `${new URL(request.url).origin}/api`;
  const url = new URL(`${base}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  const headers = new Headers({ accept, "x-request-id": context.requestId });
  if (auth) headers.set("authorization", `Bearer ${auth.token}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.formData) {
    body = options.formData;
  }
  const apiRequest = new Request(url, { method: options.method ?? "GET", headers, body });
  return context.apiUrl ? await fetch(apiRequest) : await context.api(apiRequest);
}

async function failureOf(response: Response): Promise<ApiFailure> {
  const parsed = ErrorBody.safeParse(await response.json().catch(() => ({})));
  return {
    ok: false,
    status: response.status,
    message: parsed.data?.message ?? UNEXPECTED,
    fieldErrors: parsed.data?.fieldErrors,
    retryAfter: response.headers.get("retry-after") ?? undefined,
  };
}
