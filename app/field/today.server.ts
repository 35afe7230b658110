import type { LoaderFunctionArgs } from "@remix-run/node";

import { getFieldDay } from "~/models/field.server";

import { fieldSignOutOnUnauthorized, requireFieldUser } from "./field-session.server";

/** 'Hoje' (docs/field-app.md 'Pages'): the caller's day as GET /execution/today answers it. */
export async function todayLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireFieldUser(request, context);
  const result = await getFieldDay({ context, request, auth: { token: user.token } });
  if (!result.ok) {
    await fieldSignOutOnUnauthorized(request, context, result.status);
    throw new Response(result.message, { status: result.status });
  }
  return { nome: user.nome, day: result.data };
}
