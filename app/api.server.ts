import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";

/**
 * The one typed client of the REST API. Without API_URL it calls the in-process handler (no socket); with it,
 * it speaks HTTP. Answers are checked with zod: raw JSON never reaches a component.
 */
export type ApiFailure = { ok: false; status: number; message: string; fieldErrors?: Record<string, string[]> };
export type ApiResult<T> = { ok: true; status: number; data: T } | ApiFailure;

const ErrorBody = z.object({
  message: z.string().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});

type CallOptions<T> = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  token?: string;
  json?: unknown;
  formData?: FormData;
  query?: Record<string, string | number | undefined | null>;
  schema?: z.ZodType<T>;
};

export async function callApi<T = null>(
  context: AppLoadContext,
  request: Request,
  path: string,
  options: CallOptions<T> = {},
): Promise<ApiResult<T>> {
  const base = context.apiUrl ?? `${new URL(request.url).origin}/api`;
  const url = new URL(`${base}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, String(value));
  }
  const headers = new Headers({ accept: "application/json", "x-request-id": context.requestId });
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.formData) {
    body = options.formData;
  }
  const apiRequest = new Request(url, { method: options.method ?? "GET", headers, body });
  const response = context.apiUrl ? await fetch(apiRequest) : await context.api(apiRequest);

  if (!response.ok) {
    const parsed = ErrorBody.safeParse(await response.json().catch(() => ({})));
    return {
      ok: false,
      status: response.status,
      message: parsed.data?.message ?? "Ocorreu um erro inexperado, tente novamente mais tarde.",
      fieldErrors: parsed.data?.fieldErrors,
    };
  }
  if (!options.schema || response.status === 204) return { ok: true, status: response.status, data: null as T };
  const data = options.schema.parse(await response.json());
  return { ok: true, status: response.status, data };
}

/** Shapes the web app reads. */
export const ApiUser = z.object({
  id: z.number(),
  nome: z.string(),
  email: z.string(),
  cpf: z.string(),
  telefone: z.string(),
  dataNascimento: z.string().nullable(),
  avatar: z.string().nullable(),
  avatar_url: z.string().nullable(),
  roleId: z.number().nullable(),
  coordenador: z.number().nullable(),
  ativo: z.number(),
  companyId: z.number(),
  filialClientId: z.number().nullable(),
});

export const ApiSession = z.object({
  token: z.string(),
  dataHoraToken: z.string(),
  user: ApiUser,
  cpfUserMaster: z.array(z.object({ CPF: z.string(), Id_Empresas: z.number() })),
  empresaPrincipal: z.array(z.object({ Id_Empresas: z.number(), NOME: z.string() })),
  nivelAcesso: z.string(),
});
export type ApiSession = z.infer<typeof ApiSession>;

export const ApiMe = z.object({
  user: ApiUser,
  cpfUserMaster: ApiSession.shape.cpfUserMaster,
  empresaPrincipal: ApiSession.shape.empresaPrincipal,
  nivelAcesso: z.string(),
  empresa: z.string(),
  filial: z.string().nullable(),
});

export const ApiUserAnswer = z.object({ user: ApiUser });
