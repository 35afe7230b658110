import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";

import { BRANCH_TEXTS } from "../../api/domain/organisation";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { idParam } from "~/lib/list-params";
import { findBranch } from "~/models/branches.server";
import { requirePage } from "~/session.server";

/** What a branch route is handed by its route file: Remix's arguments. */
export type BranchArgs = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };
export type RouteLoader<Loader extends (args: BranchArgs) => unknown> = (
  args: LoaderFunctionArgs,
) => ReturnType<Loader>;

/**
 * What every /filiais route needs: the page's rules (roles 1 and 2, and a master CPF: 'Permissão negada!' otherwise,
 * spec 000 §6), the user as an API caller and the main company the branches belong to.
 */
export async function requireBranches({ request, context }: BranchArgs) {
  const auth = await requirePage(request, context, "/filiais");
  const api: SignedInCaller = { context, request, auth };
  // Roles 1 and 2 work for the whole main company: the scope's company (models/scope.server.ts scopeQuery).
  const companyId = auth.empresaPrincipal[0]?.Id_Empresas ?? auth.user.companyId;
  const company = auth.empresaPrincipal.find((entry) => entry.Id_Empresas === companyId);
  return { auth, api, companyId, companyName: company?.NOME ?? "", allCompanies: auth.empresaPrincipal.length > 1 };
}
export type BranchContext = Awaited<ReturnType<typeof requireBranches>>;

/** The branch an edit page is about: 404 outside the user's scope. */
export async function requireBranch(args: BranchArgs) {
  const context = await requireBranches(args);
  const result = await findBranch(context.api, idParam(args.params.id, BRANCH_TEXTS.notFound));
  if (!result.ok) return failLoad(context.api, result, BRANCH_TEXTS.loadFailed);
  invariantResponse(result.data, BRANCH_TEXTS.notFound, { status: 404 });
  return { ...context, branch: result.data };
}
