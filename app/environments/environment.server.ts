import type { AppLoadContext } from "@remix-run/node";

import { ENVIRONMENT_TEXTS as T, INT32_MAX } from "../../api/domain/environments";
import { can } from "../../api/domain/roles";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { getEnvironment } from "~/models/environments.server";
import { requirePage } from "~/session.server";

/** What an environment route is handed by its route file: Remix's arguments. */
export type EnvironmentArgs = {
  request: Request;
  context: AppLoadContext;
  params: Record<string, string | undefined>;
};

/**
 * What every /ambientes route needs: the page's guard (session check against the API and the role table), the user
 * as an API caller, and whether they may write. Branch-level users and users without a main company only read, and
 * keep the export and QR downloads (spec 000 §6).
 */
export async function requireEnvironments({ request, context }: EnvironmentArgs) {
  const auth = await requirePage(request, context, "/ambientes");
  const api: SignedInCaller = { context, request, auth };
  return { api, canEdit: can(auth.user, "editRegisters") && auth.empresaPrincipal.length > 0 };
}

/** The URL's environment id: a PostgreSQL integer (1 to 2³¹ − 1) written in plain digits, else 404. */
export function environmentIdOf(params: EnvironmentArgs["params"]) {
  const text = params.id ?? "";
  const id = /^\d{1,10}$/.test(text) ? Number(text) : 0;
  invariantResponse(id >= 1 && id <= INT32_MAX, T.notFound, { status: 404 });
  return id;
}

/** The environment a page is about, in the user's scope (404 otherwise); `forEdit` also needs write rights (403). */
export async function requireEnvironment(args: EnvironmentArgs, { forEdit }: { forEdit: boolean }) {
  const environments = await requireEnvironments(args);
  if (forEdit) invariantResponse(environments.canEdit, "Permissão negada!", { status: 403 });
  const id = environmentIdOf(args.params);
  const result = await getEnvironment(environments.api, id);
  if (!result.ok) return failLoad(environments.api, result, T.loadFailed);
  return { ...environments, environment: result.data };
}
