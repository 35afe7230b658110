import type { AppLoadContext } from "@remix-run/node";

import { can } from "../../api/domain/roles";

import type { SignedInCaller } from "~/api.server";
import { invariantResponse } from "~/lib/invariant";
import { requirePage } from "~/session.server";

/** What a /pre-cadastro-usuarios route is handed by its route file: Remix's arguments. */
export type CpfArgs = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };

/**
 * What every /pre-cadastro-usuarios route needs: the page's rule (roles 1, 2, 3 or none, spec 000 §2), the user as
 * an API caller, and whether they may write: the main company's staff (roles 1 and 2 with a main company), as on the
 * catalogue screens; branch-level users get the list without tick boxes or register tab (spec 000 §6).
 */
export async function requireCpfs({ request, context }: CpfArgs) {
  const auth = await requirePage(request, context, "/pre-cadastro-usuarios");
  const api: SignedInCaller = { context, request, auth };
  return { auth, api, canEdit: can(auth.user, "editRegisters") && auth.empresaPrincipal.length > 0 };
}

/** The register and status pages: editors only. */
export async function requireCpfEditor(args: CpfArgs) {
  const context = await requireCpfs(args);
  invariantResponse(context.canEdit, "Permissão negada!", { status: 403 });
  return context;
}
