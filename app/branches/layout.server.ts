import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import { requireBranches, type BranchArgs } from "./branch.server";

/** The frame of /filiais: title, help text (another one when the user sees several companies), the tabs. */
export async function branchLayoutLoader(args: BranchArgs) {
  const { allCompanies, companyName } = await requireBranches(args);
  return { help: allCompanies ? T.helpAllCompanies : T.helpEditor, companyName };
}
