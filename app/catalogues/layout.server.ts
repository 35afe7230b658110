import type { CatalogueKind } from "../../api/domain/catalogues";

import { loadActiveBranches } from "~/models/branches.server";

import { requireCatalogue, type CatalogueArgs } from "./catalogue.server";

/** The frame of a catalogue's pages: title, help text, and the 'Cadastrar' tab when the user may register. */
export async function catalogueLayoutLoader(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  // The register tab needs a main company and at least one active branch to register into (spec 000 §2).
  const canRegister = catalogue.canEdit && (await loadActiveBranches(catalogue.api)).length > 0;
  const { helpEditor, helpViewer, listTab, registerTab } = catalogue.texts;
  return {
    canRegister,
    kind,
    title: catalogue.definition.titlePlural,
    // Only the texts the frame shows: every one sent is encoded into each page's data.
    texts: { help: catalogue.canEdit ? helpEditor : helpViewer, listTab, registerTab },
  };
}
