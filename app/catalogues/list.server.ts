import type { CatalogueKind } from "../../api/domain/catalogues";

import { failLoad } from "~/lib/fail-load.server";
import { readListParams } from "~/lib/list-params";
import { listCataloguePage } from "~/models/catalogues.server";

import { requireCatalogue, type CatalogueArgs } from "./catalogue.server";
import { DEFAULT_SORT } from "./sort";

/** The list tab: one page of the catalogue as the URL's search, order, page and size ask. */
export async function catalogueListLoader(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  const url = new URL(args.request.url);
  const params = readListParams(url, DEFAULT_SORT);
  const result = await listCataloguePage(catalogue.api, kind, params);
  if (!result.ok) return failLoad(catalogue.api, result, catalogue.texts.loadFailed);
  const { listTab, empty, duplicateButton, duplicateDialog } = catalogue.texts;
  return {
    kind,
    // Only what the page shows (as for the rows below).
    texts: { listTab, empty, duplicateButton, duplicateDialog },
    title: catalogue.definition.title,
    hasColor: catalogue.definition.hasColor,
    canEdit: catalogue.canEdit,
    params,
    // Only what the rows show: every field sent is encoded into the page's data and read again by the browser.
    page: {
      ...result.data,
      items: result.data.items.map(({ id, name, empresa, color }) => ({ id, name, empresa, color })),
    },
    tickAll: url.searchParams.get("marcar") === "todos",
  };
}
