import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";

import { can } from "../../api/domain/roles";

import type { SignedInCaller } from "~/api.server";
import { requirePage } from "~/session.server";

/** What a main-company route is handed by its route file: Remix's arguments. */
export type CompanyArgs = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };
export type RouteLoader<Loader extends (args: CompanyArgs) => unknown> = (
  args: LoaderFunctionArgs,
) => ReturnType<Loader>;

/**
 * What every /empresa-principal route needs: the page's rule (spec 000 §2: roleId 1), the user as an API caller, and
 * whether they register and edit (roleId 1: manageMainCompanies). The list is drawn read-only for anyone else the
 * route table lets in (decision in docs/organisation.md).
 */
export async function requireCompanies({ request, context }: CompanyArgs) {
  const auth = await requirePage(request, context, "/empresa-principal");
  const api: SignedInCaller = { context, request, auth };
  return { auth, api, canEdit: can(auth.user, "manageMainCompanies") };
}
