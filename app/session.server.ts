import { redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";

import { can, isBranchLevel, type Permission } from "../api/domain/roles";
import type { CurrentSessionAnswer, SessionAnswer } from "../api/routes/sessions";

import { cookieStorage } from "./lib/cookie-storage.server";
import { PAGES, type PagePath } from "./lib/navigation";
import { getCurrentSession, revokeApiSession } from "./models/sessions.server";
import { redirectWithToast, toastCookie } from "./toast.server";

/**
 * The signed, httpOnly cookie session holds one thing: the API's random bearer token, an opaque id of a row in the
 * sessions table (only its hash is stored there). Every private page checks it against that table through
 * GET /api/sessions/current, which also answers the layout facts (name, level, companies): nothing about the user
 * lives in the cookie, so sign-out, a password change or an inactivation end the session at once.
 */
export const SESSION_MAX_AGE_S = 24 * 60 * 60;

const CookieSession = z.object({ token: z.string().min(1) });

/** The signed-in user as pages see it: the token from the cookie, the rest re-read from the API on each request. */
export type SessionUser = {
  token: string;
  dataHoraToken: string;
  user: {
    id: number;
    nome: string;
    avatarUrl: string | null;
    roleId: number | null;
    coordenador: number | null;
    companyId: number;
    filialClientId: number | null;
  };
  hasMasterCpf: boolean;
  empresaPrincipal: { Id_Empresas: number; NOME: string }[];
  nivelAcesso: string;
};

const SESSION_COOKIE = "sessao";
const sessionStorage = (context: AppLoadContext) => cookieStorage(context, SESSION_COOKIE, SESSION_MAX_AGE_S);

/** Whether the request carries the session cookie at all (not whether it is valid): public pages ask before reading it. */
export const hasSessionCookie = (request: Pick<Request, "headers">) =>
  new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`).test(request.headers.get("cookie") ?? "");

/** The token the cookie carries, if any (not yet checked). */
async function cookieToken(request: Request, context: AppLoadContext) {
  // A queued export runs as its requester with a token of its own, checked like any other (docs/exports.md).
  if (context.exportJob) return context.exportJob.token;
  const session = await sessionStorage(context).getSession(request.headers.get("cookie"));
  const parsed = CookieSession.safeParse(session.get("auth"));
  return parsed.success ? parsed.data.token : null;
}

/**
 * The one check of a cookie's token, for both apps (this one's `sessao`, the field app's `campo`): the session row
 * behind it, or null when it is revoked, expired or of the other kind; `unavailable` when the API is out. The kind is
 * what keeps each cookie to its own app: both cookies are signed with the same secret and the signature does not cover
 * the cookie's name, so a value moved from one cookie to the other passes the signature (docs/field-app.md 'Who, and
 * where'). A session of the other kind is treated as no session (not revoked: it stays valid in its own cookie).
 */
export async function checkSessionToken(
  request: Request,
  context: AppLoadContext,
  token: string,
  kind: CurrentSessionAnswer["kind"],
): Promise<CurrentSessionAnswer | null | { unavailable: string }> {
  const result = await getCurrentSession({ context, request, auth: { token } });
  if (!result.ok) {
    if (result.status === 401 || result.status === 403) return null;
    return { unavailable: result.message };
  }
  return result.data.kind === kind ? result.data : null;
}

/**
 * One check per request: the layout's loader and the page's loader run for the same request (same load context),
 * so the answer is kept for that context only, keyed by the cookie header (its signature is checked once too).
 */
type Checked = SessionUser | null | { unavailable: string };
const checked = new WeakMap<AppLoadContext, Map<string, Promise<Checked>>>();

async function checkCookie(request: Request, context: AppLoadContext): Promise<Checked> {
  const token = await cookieToken(request, context);
  if (!token) return null;
  const answer = await checkSessionToken(request, context, token, "painel");
  if (!answer || "unavailable" in answer) return answer;
  return {
    token,
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
}

/** The signed-in user, checked against the sessions table, or null when signed out, revoked or expired. */
export async function getSessionUser(request: Request, context: AppLoadContext) {
  const cookie = request.headers.get("cookie") ?? "";
  let perContext = checked.get(context);
  if (!perContext) checked.set(context, (perContext = new Map()));
  let answer = perContext.get(cookie);
  if (!answer) perContext.set(cookie, (answer = checkCookie(request, context)));
  const result = await answer;
  // The API (its database) is out: an outage page, not a sign-out (server.ts answers it as 503). A new Response
  // per loader: Remix reads each thrown body once.
  if (result && "unavailable" in result) throw new Response(result.unavailable, { status: 503 });
  return result;
}

/** Where the current page is, so sign-in can bring the user back (shared report links keep their query). */
function currentPath(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** Control characters, every Unicode white space and the backslash: browsers drop or rewrite them in URLs. */
const UNSAFE_IN_REDIRECT =
  /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;
const OWN_ORIGIN = "http://ours.invalid";

/** The path of a URL decoded until it stops changing (so %2509 is caught too); null when it holds something unsafe. */
function decodedPath(pathAndQuery: string) {
  // Decoded, only the path decides where the browser goes: an encoded space in a search query ('q=sala%20azul') is fine.
  let decoded = pathAndQuery.split(/[?#]/, 1)[0];
  for (let round = 0; round < 3; round++) {
    if (UNSAFE_IN_REDIRECT.test(decoded)) return null;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) break;
    decoded = next;
  }
  return UNSAFE_IN_REDIRECT.test(decoded) ? null : decoded;
}

/**
 * The one check for every return URL (redirectTo, voltar): a path of this site, or the fallback. The value is
 * refused when it holds a control or white-space character or a backslash, raw or encoded (Chromium drops a tab, so
 * '/\t/evil.example' becomes '//evil.example'), and it must resolve on our origin. The answer is the resolved path,
 * query and hash, and the checks run on it too: resolving dot segments turns '/.//evil.example' into '//evil.example',
 * which a browser reads as another host, so the answer (decoded) must start with exactly one '/'.
 */
export function safeRedirectTo(value: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  if (typeof value !== "string" || value.length > 2048 || !value.startsWith("/")) return fallback;
  if (UNSAFE_IN_REDIRECT.test(value) || decodedPath(value) === null) return fallback;
  let url: URL;
  try {
    url = new URL(value, OWN_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== OWN_ORIGIN) return fallback;
  const answer = `${url.pathname}${url.search}${url.hash}`;
  const answerPath = decodedPath(answer);
  if (answerPath === null || !answerPath.startsWith("/") || answerPath.startsWith("//")) return fallback;
  return answer;
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
  session.set("auth", { token: answer.token } satisfies z.infer<typeof CookieSession>);
  return storage.commitSession(session);
}

/**
 * Profile changes (name, avatar) need no cookie update any more: the layout facts are read from the API on every
 * request. Kept so callers that append its answer as a cookie keep working; it answers no cookie.
 */
export async function updateSessionUser(
  _request: Request,
  _context: AppLoadContext,
  _patch: Partial<SessionUser["user"]>,
): Promise<string | undefined> {
  return undefined;
}

export async function clearSession(request: Request, context: AppLoadContext) {
  const storage = sessionStorage(context);
  return storage.destroySession(await storage.getSession(request.headers.get("cookie")));
}

export const SIGNED_OUT = { type: "success", title: "Sessão encerrada", description: "Você saiu do sistema." } as const;

/** Sign-out: the API token is revoked (the sessions row ends), then the cookie is dropped; sign-in says so. */
export async function logout(request: Request, context: AppLoadContext) {
  const token = await cookieToken(request, context);
  if (token) await revokeApiSession({ context, request, auth: { token } });
  const headers = new Headers();
  headers.append("set-cookie", await clearSession(request, context));
  headers.append("set-cookie", await toastCookie(context, SIGNED_OUT));
  return redirect("/", { headers });
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
