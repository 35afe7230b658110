import { json, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";

import { CATALOGUES, catalogueTexts, isCatalogueKind } from "../../api/domain/catalogues";
import { can } from "../../api/domain/roles";

import { callApi, type ApiFailure } from "~/api.server";
import { requirePage, signOutOnUnauthorized, type SessionUser } from "~/session.server";

/** What every catalogue route needs: which catalogue the URL names, the user, and what they may do there. */
export async function requireCatalogue(request: Request, context: AppLoadContext) {
  const kind = new URL(request.url).pathname.split("/")[1];
  if (!isCatalogueKind(kind)) throw json("Página não encontrada", { status: 404 });
  const auth = await requirePage(request, context, `/${kind}`);
  return {
    kind,
    definition: CATALOGUES[kind],
    texts: catalogueTexts(kind),
    auth,
    // Branch-level users and users without a main company only read (spec 000 §6).
    canEdit: can(auth.user, "editRegisters") && auth.empresaPrincipal.length > 0,
    scopeQuery: scopeQuery(auth),
  };
}
export type CatalogueContext = Awaited<ReturnType<typeof requireCatalogue>>;

/** companyId (main company) for company-wide users, filialId (own branch) for branch-level ones. */
export function scopeQuery(auth: SessionUser) {
  const main = auth.empresaPrincipal[0];
  if (main && auth.user.roleId !== 3 && auth.user.roleId !== null) return { companyId: main.Id_Empresas };
  if (auth.user.roleId === 7 && auth.user.filialClientId) return { filialClientId: auth.user.filialClientId };
  return { filialId: auth.user.companyId };
}

export const CatalogueItem = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string().nullable().optional(),
  companyId: z.number(),
  empresa: z.string(),
});
export type CatalogueItem = z.infer<typeof CatalogueItem>;
export const CataloguePage = z.object({
  items: z.array(CatalogueItem),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});

const Branch = z.object({ ID: z.number(), NOME: z.string(), ATIVO: z.boolean() });

/** Active branches in the user's scope, for the register and duplicate selectors. */
export async function activeBranches(request: Request, context: AppLoadContext, catalogue: CatalogueContext) {
  const result = await callApi(context, request, "/empresas/filiais", {
    token: catalogue.auth.token,
    query: "companyId" in catalogue.scopeQuery ? { companyId: catalogue.scopeQuery.companyId } : {},
    schema: z.array(Branch),
  });
  if (!result.ok) await failLoad(request, context, result, "Erro ao carregar dados, por favor atualize a página");
  return result.ok
    ? result.data.filter((branch) => branch.ATIVO).map((branch) => ({ id: branch.ID, nome: branch.NOME }))
    : [];
}

/** A loader's API failure: a revoked token goes to sign-in; anything else is the page's load error. */
export async function failLoad(
  request: Request,
  context: AppLoadContext,
  failure: ApiFailure,
  message: string,
): Promise<never> {
  await signOutOnUnauthorized(request, context, failure.status);
  throw json(failure.status === 404 ? failure.message : message, { status: failure.status === 404 ? 404 : 500 });
}

/** The item an edit or removal page is about: 403 for read-only users, 404 outside the user's scope. */
export async function requireEditableItem(request: Request, context: AppLoadContext, id: string | undefined) {
  const catalogue = await requireCatalogue(request, context);
  if (!catalogue.canEdit) throw json("Permissão negada!", { status: 403 });
  const result = await callApi(context, request, catalogue.definition.apiPath, {
    token: catalogue.auth.token,
    query: { ...catalogue.scopeQuery, ids: String(Number(id) || 0) },
    schema: CatalogueItem.array(),
  });
  if (!result.ok) return failLoad(request, context, result, catalogue.texts.loadFailed);
  const item = result.data[0];
  if (!item)
    throw json(`${catalogue.definition.title} não encontrad${catalogue.definition.feminine ? "a" : "o"}`, {
      status: 404,
    });
  return { catalogue, item };
}
