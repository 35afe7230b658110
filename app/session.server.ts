import { redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";

import { can, isBranchLevel, type Permission } from "../api/domain/roles";
import type { SessionAnswer } from "../api/routes/sessions";

import { cookieStorage } from "./lib/cookie-storage.server";
import { PAGES, type PagePath } from "./lib/navigation";
import { revokeApiSession } from "./models/sessions.server";
import { redirectWithToast } from "./toast.server";

/** The signed, httpOnly cookie session: the API token and the little the layout needs (spec 000 §3 Session). */
export const SESSION_MAX_AGE_S = 24 * 60 * 60;

const SessionUser = z.object({
  token: z.string(),
  dataHoraToken: z.string(),
  user: z.object({
    id: z.number(),
    nome: z.string(),
    avatarUrl: z.string().nullable(),
    roleId: z.number().nullable(),
    coordenador: z.number().nullable(),
    companyId: z.number(),
    filialClientId: z.number().nullable(),
  }),
  hasMasterCpf: z.boolean(),
  empresaPrincipal: z.array(z.object({ Id_Empresas: z.number(), NOME: z.string() })),
  nivelAcesso: z.string(),
});
export type SessionUser = z.infer<typeof SessionUser>;

const sessionStorage = (context: AppLoadContext) => cookieStorage(context, "sessao", SESSION_MAX_AGE_S);

function isExpired(session: SessionUser) {
  return Date.now() - new Date(session.dataHoraToken).getTime() > SESSION_MAX_AGE_S * 1000;
}

/** The signed-in user, or null when signed out or the session is over a day old. */
export async function getSessionUser(request: Request, context: AppLoadContext) {
  const session = await sessionStorage(context).getSession(request.headers.get("cookie"));
  const parsed = SessionUser.safeParse(session.get("auth"));
  if (!parsed.success || isExpired(parsed.data)) return null;
  return parsed.data;
}

/** Where the current page is, so sign-in can bring the user back (shared report links keep their query). */
function currentPath(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

export function safeRedirectTo(value: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\"))
    return fallback;
  return value;
}

/** The home page after sign-in: clients (roleId 7) have no 'Início' and land on their task report. */
export function homeOf(user: Pick<SessionUser["user"], "roleId">) {
  return user.roleId === 7 ? "/historico-tarefas" : "/dashboard";
}

/** Private pages: signed out goes to sign-in (keeping the target); a role outside the table gets 'Permissão negada!'. */
export async function requireUser(request: Request, context: AppLoadContext, permission?: Permission) {
  const auth = await getSessionUser(request, context);
  if (!auth) {
    const target = currentPath(request);
    const query = target === "/" ? "" : `?${new URLSearchParams({ redirectTo: target })}`;
    throw redirect(`/${query}`, { headers: { "set-cookie": await clearSession(request, context) } });
  }
  if (permission && !can(auth.user, permission)) {
    throw await redirectWithToast(context, homeOf(auth.user), {
      type: "error",
      title: "Permissão negada!",
      description: "Você não tem acesso a esta página.",
    });
  }
  return auth;
}

/** A page of the route table: its role rule, and for /filiais the master-CPF rule of spec 000 §6. */
export async function requirePage(request: Request, context: AppLoadContext, path: PagePath) {
  const page = PAGES[path];
  const auth = await requireUser(request, context, page.access === "private" ? undefined : page.access);
  if ("needsMasterCpf" in page && page.needsMasterCpf && !auth.hasMasterCpf) {
    throw await redirectWithToast(context, homeOf(auth.user), {
      type: "error",
      title: "Permissão negada!",
      description: "Para cadastrar uma nova FILIAL entre em contato com o administrador do sistema",
    });
  }
  return auth;
}

/** Sign-in, sign-up and password pages: a signed-in user goes home. */
export async function requireAnonymous(request: Request, context: AppLoadContext) {
  const auth = await getSessionUser(request, context);
  if (auth) throw redirect(homeOf(auth.user));
}

export async function createUserSession(context: AppLoadContext, answer: z.infer<typeof SessionAnswer>) {
  const storage = sessionStorage(context);
  const session = await storage.getSession();
  const data: SessionUser = {
    token: answer.token,
    dataHoraToken: answer.dataHoraToken,
    user: {
      id: answer.user.id,
      nome: answer.user.nome,
      avatarUrl: answer.user.avatar_url,
      roleId: answer.user.roleId,
      coordenador: answer.user.coordenador,
      companyId: answer.user.companyId,
      filialClientId: answer.user.filialClientId,
    },
    hasMasterCpf: answer.cpfUserMaster.length > 0,
    empresaPrincipal: answer.empresaPrincipal,
    nivelAcesso: answer.nivelAcesso,
  };
  session.set("auth", data);
  return storage.commitSession(session);
}

/** Keeps the cookie in step after a profile change (name, avatar). */
export async function updateSessionUser(
  request: Request,
  context: AppLoadContext,
  patch: Partial<SessionUser["user"]>,
) {
  const storage = sessionStorage(context);
  const session = await storage.getSession(request.headers.get("cookie"));
  const parsed = SessionUser.safeParse(session.get("auth"));
  if (!parsed.success) return undefined;
  session.set("auth", { ...parsed.data, user: { ...parsed.data.user, ...patch } });
  return storage.commitSession(session);
}

export async function clearSession(request: Request, context: AppLoadContext) {
  const storage = sessionStorage(context);
  return storage.destroySession(await storage.getSession(request.headers.get("cookie")));
}

/** Sign-out: the API token is revoked, then the cookie is dropped. */
export async function logout(request: Request, context: AppLoadContext) {
  const auth = await getSessionUser(request, context);
  if (auth) await revokeApiSession({ context, request, auth });
  return redirect("/", { headers: { "set-cookie": await clearSession(request, context) } });
}

/** An API 401 means the token was revoked or expired: back to sign-in, keeping the page. */
export async function signOutOnUnauthorized(request: Request, context: AppLoadContext, status: number) {
  if (status !== 401) return;
  const target = currentPath(request);
  throw redirect(`/?${new URLSearchParams({ redirectTo: target })}`, {
    headers: { "set-cookie": await clearSession(request, context) },
  });
}

export function layoutFacts(auth: SessionUser) {
  const { user } = auth;
  return {
    ...user,
    nivelAcesso: auth.nivelAcesso,
    hasMasterCpf: auth.hasMasterCpf,
    hasMainCompany: auth.empresaPrincipal.length > 0,
    branchLevel: isBranchLevel(user),
    companyLabel:
      auth.empresaPrincipal.length === 1
        ? `${auth.empresaPrincipal[0].Id_Empresas} - ${auth.empresaPrincipal[0].NOME}`
        : "Todas as empresas",
  };
}
