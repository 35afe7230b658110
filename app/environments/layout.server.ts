import { ENVIRONMENT_TEXTS as T } from "../../api/domain/environments";

import { loadActiveBranches } from "~/models/branches.server";

import { requireEnvironments, type EnvironmentArgs } from "./environment.server";

/** The frame of /ambientes: title, help text, and the 'Cadastrar ambiente' tab when the user may register. */
export async function environmentLayoutLoader(args: EnvironmentArgs) {
  const { api, canEdit } = await requireEnvironments(args);
  // The register tab needs a main company, write rights and an active branch to register into (spec 000 §2).
  const canRegister = canEdit && (await loadActiveBranches(api)).length > 0;
  // Texts travel as data: importing the domain module here would put zod/mini in every /ambientes page's bundle.
  return {
    canRegister,
    help: canEdit ? T.helpEditor : T.helpViewer,
    texts: { listTab: T.listTab, registerTab: T.registerTab },
  };
}
