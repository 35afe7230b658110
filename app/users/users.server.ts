import type { AppLoadContext } from "@remix-run/node";

import { canEditUser } from "../../api/domain/roles";
import { USER_TEXTS as T } from "../../api/domain/users";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { findCompanyUser } from "~/models/company-users.server";
import { requirePage, safeRedirectTo } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { USERS_PATH } from "./links";

/** What a /listagem-usuarios route is handed by its route file: Remix's arguments. */
export type UserArgs = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };

/** Ours: the toast of an edit or names page opened for a user the §6 rules keep from the viewer. */
export const EDIT_DENIED = {
  type: "error",
  title: "Permissão negada!",
  description: "Seu nível de acesso não permite editar este usuário.",
} as const;

/**
 * What every /listagem-usuarios route needs: the page's rule (roles 1, 2, 3 or none, spec 000 §2), the user as an API
 * caller, whether the register tab is offered (users with a main company, as on the CPF page: branch-level users
 * have none, spec 000 §6 'no create tabs for roles without a main company') and whether the 'Nível' column shows
 * (only with a master CPF, spec 000 §2).
 */
export async function requireUsers({ request, context }: UserArgs) {
  const auth = await requirePage(request, context, "/listagem-usuarios");
  const api: SignedInCaller = { context, request, auth };
  return { auth, api, canRegister: auth.empresaPrincipal.length > 0, showLevel: auth.hasMasterCpf };
}
export type UsersContext = Awaited<ReturnType<typeof requireUsers>>;

/** The register page and its action: users with a main company only. */
export async function requireUserRegistrar(args: UserArgs) {
  const context = await requireUsers(args);
  invariantResponse(context.canRegister, "Permissão negada!", { status: 403 });
  return context;
}

/** The URL's user id: a PostgreSQL integer (1 to 2³¹ − 1) in plain digits, else 404. */
export function userIdOf(value: string | undefined, message: string = T.notFound) {
  const text = value ?? "";
  const id = /^\d{1,10}$/.test(text) ? Number(text) : 0;
  invariantResponse(id >= 1 && id <= 2 ** 31 - 1, message, { status: 404 });
  return id;
}

/** Where a page opened from the list goes back to: the list as it was (its search, order and page). */
export function listBackOf(request: Request, value?: FormDataEntryValue | null) {
  const wanted = value === undefined ? new URL(request.url).searchParams.get("redirectTo") : value;
  const back = safeRedirectTo(wanted, USERS_PATH);
  // Only the list: a redirectTo elsewhere (or to another user's page) is not where these pages return.
  return back === USERS_PATH || back.startsWith(`${USERS_PATH}?`) ? back : USERS_PATH;
}

/**
 * The user an edit or names page is about, in the list's scope (404 otherwise, as the API answers), and whether the
 * viewer may change them (spec 000 §6, api/domain/roles.ts canEditUser).
 */
export async function requireListedUser(args: UserArgs) {
  const context = await requireUsers(args);
  const id = userIdOf(args.params.id);
  const result = await findCompanyUser(context.api, id);
  if (!result.ok) return failLoad(context.api, result, T.loadFailed);
  invariantResponse(result.data, T.notFound, { status: 404 });
  const user = result.data;
  const editor = context.auth.user;
  const canEdit = canEditUser(editor, { id: user.id, roleId: user.roleId, coordenador: user.coordenador });
  return { ...context, user, canEdit, self: user.id === editor.id };
}

/** As requireListedUser, for pages that change the user: one the viewer may not edit goes back with the toast. */
export async function requireEditableUser(args: UserArgs, back: string) {
  const context = await requireListedUser(args);
  if (!context.canEdit) throw await redirectWithToast(args.context, back, EDIT_DENIED);
  return context;
}
