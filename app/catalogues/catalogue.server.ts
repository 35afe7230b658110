import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";

import { CATALOGUES, catalogueTexts, type CatalogueKind } from "../../api/domain/catalogues";
import { can } from "../../api/domain/roles";

import type { SignedInCaller } from "~/api.server";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { idParam } from "~/lib/list-params";
import { findCatalogueItems } from "~/models/catalogues.server";
import { requirePage } from "~/session.server";

/** What a catalogue route is handed by its route file: Remix's arguments and the catalogue it serves. */
export type CatalogueArgs = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };

/** A kind-taking loader as its route file exposes it (one argument), for `MetaFunction<RouteLoader<typeof x>>`. */
export type RouteLoader<Loader extends (args: CatalogueArgs, kind: CatalogueKind) => unknown> = (
  args: LoaderFunctionArgs,
) => ReturnType<Loader>;

/** What every catalogue route needs: the catalogue, the signed-in user as an API caller, and what they may do. */
export async function requireCatalogue({ request, context }: CatalogueArgs, kind: CatalogueKind) {
  const auth = await requirePage(request, context, `/${kind}`);
  const api: SignedInCaller = { context, request, auth };
  return {
    kind,
    definition: CATALOGUES[kind],
    texts: catalogueTexts(kind),
    api,
    // Branch-level users and users without a main company only read (spec 000 §6).
    canEdit: can(auth.user, "editRegisters") && auth.empresaPrincipal.length > 0,
  };
}
export type CatalogueContext = Awaited<ReturnType<typeof requireCatalogue>>;

/** The item an edit or removal page is about: 403 for read-only users, 404 outside the user's scope. */
export async function requireEditableItem(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  invariantResponse(catalogue.canEdit, "Permissão negada!", { status: 403 });
  const { notFound } = catalogue.texts;
  const result = await findCatalogueItems(catalogue.api, kind, [idParam(args.params.id, notFound)]);
  if (!result.ok) return failLoad(catalogue.api, result, catalogue.texts.loadFailed);
  const item = result.data[0];
  invariantResponse(item, notFound, { status: 404 });
  return { catalogue, item };
}
