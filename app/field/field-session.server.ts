import { redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";

import { cookieStorage } from "~/lib/cookie-storage.server";
import { revokeApiSession } from "~/models/sessions.server";
import { checkSessionToken, safeRedirectTo } from "~/session.server";
import { toastCookie } from "~/toast.server";

/**
 * The field app's session (docs/field-app.md 'Who, and where'): its own cookie, `campo`, holding a field token of
 * the API (sessions.kind 'campo', 30 days). The back office's pages read only `sessao` and the field pages only this
 * one; each also checks the session's kind (`checkSessionToken`), since a value moved from one cookie to the other
 * passes the signature.
 */
export const FIELD_SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;
const FIELD_COOKIE = "campo";
export const FIELD_HOME = "/campo";

const fieldStorage = (context: AppLoadContext) => cookieStorage(context, FIELD_COOKIE, FIELD_SESSION_MAX_AGE_S);
const CookieSession = z.object({ token: z.string().min(1) });

export type FieldUser = { token: string; id: number; nome: string; companyId: number };

async function fieldToken(request: Request, context: AppLoadContext) {
  const session = await fieldStorage(context).getSession(request.headers.get("cookie"));
  const parsed = CookieSession.safeParse(session.get("auth"));
  return parsed.success ? parsed.data.token : null;
}

/** Where sign-in sends a signed-out visitor, keeping the page (a room's QR link keeps its value). */
export function fieldSignInPath(request: Request) {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return back === FIELD_HOME ? "/campo/entrar" : `/campo/entrar?${new URLSearchParams({ voltar: back })}`;
}

/** The field user, checked against the sessions table on every request, or null (a back-office session too). */
export async function getFieldUser(request: Request, context: AppLoadContext): Promise<FieldUser | null> {
  const token = await fieldToken(request, context);
  if (!token) return null;
  const answer = await checkSessionToken(request, context, token, "campo");
  if (!answer) return null;
  if ("unavailable" in answer) throw new Response(answer.unavailable, { status: 503 });
  const { user } = answer;
  return { token, id: user.id, nome: user.nome, companyId: user.companyId };
}

/** Field pages: signed out goes to the field sign-in, which brings the cleaner back here. */
export async function requireFieldUser(request: Request, context: AppLoadContext) {
  const user = await getFieldUser(request, context);
  if (!user) {
    throw redirect(fieldSignInPath(request), { headers: { "set-cookie": await clearFieldSession(request, context) } });
  }
  return user;
}

/** An API 401 in the middle of a page: the session ended (deactivated, password changed): sign in again. */
export async function fieldSignOutOnUnauthorized(request: Request, context: AppLoadContext, status: number) {
  if (status !== 401) return;
  throw redirect(fieldSignInPath(request), { headers: { "set-cookie": await clearFieldSession(request, context) } });
}

export async function createFieldSession(context: AppLoadContext, token: string) {
  const storage = fieldStorage(context);
  const session = await storage.getSession();
  session.set("auth", { token } satisfies z.infer<typeof CookieSession>);
  return storage.commitSession(session);
}

export async function clearFieldSession(request: Request, context: AppLoadContext) {
  const storage = fieldStorage(context);
  return storage.destroySession(await storage.getSession(request.headers.get("cookie")));
}

/** A return path inside the field app only: anything else (a back-office page, another site) goes to 'Hoje'. */
export function fieldReturnPath(value: FormDataEntryValue | string | null | undefined) {
  const path = safeRedirectTo(value, FIELD_HOME);
  return path === FIELD_HOME || path.startsWith(`${FIELD_HOME}/`) || path.startsWith(`${FIELD_HOME}?`)
    ? path
    : FIELD_HOME;
}

/** 'Sair': the token is revoked (its sessions row ends), the cookie dropped. */
export async function fieldLogout(request: Request, context: AppLoadContext) {
  const token = await fieldToken(request, context);
  if (token) await revokeApiSession({ context, request, auth: { token } });
  const headers = new Headers();
  headers.append("set-cookie", await clearFieldSession(request, context));
  headers.append(
    "set-cookie",
    await toastCookie(context, { type: "success", title: "Sessão encerrada", description: "Você saiu do app." }),
  );
  return redirect("/campo/entrar", { headers });
}
