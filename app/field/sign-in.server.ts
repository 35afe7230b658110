import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";

import { SIGN_IN_FAILED } from "~/lib/auth-messages";
import { SignInSchema } from "~/lib/schemas";
import { createFieldApiSession } from "~/models/field.server";

import { createFieldSession, fieldReturnPath, getFieldUser } from "./field-session.server";

/**
 * /campo/entrar: the field sign-in (docs/field-app.md 'Who, and where'). Same credentials, limits and lockout as the
 * back office's (POST /sessions/campo shares them); it admits the cleaning staff the back office refuses.
 */
export async function fieldSignInLoader({ request, context }: LoaderFunctionArgs) {
  const back = fieldReturnPath(new URL(request.url).searchParams.get("voltar"));
  if (await getFieldUser(request, context)) throw redirect(back);
  return { back };
}

export async function fieldSignInAction({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const back = fieldReturnPath(form.get("voltar"));
  const submission = parseWithZod(form, { schema: SignInSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return { error: submission.error?.email?.[0] ?? submission.error?.password?.[0] ?? SIGN_IN_FAILED.description };
  }
  const result = await createFieldApiSession({ context, request }, submission.value);
  if (!result.ok) {
    if (result.status >= 500) throw new Response(result.message, { status: 503 });
    return { error: result.status === 401 ? SIGN_IN_FAILED.description : result.message };
  }
  return redirect(back, { headers: { "set-cookie": await createFieldSession(context, result.data.token) } });
}
