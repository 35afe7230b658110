import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import { failLoad } from "~/lib/fail-load.server";
import { readListParams } from "~/lib/list-params";
import { listBranchPage } from "~/models/branches.server";

import { requireBranches, type BranchArgs } from "./branch.server";
import { DEFAULT_SORT } from "./sort";

/** The list tab: one page of the main company's branches as the URL's search, order, page and size ask. */
export async function branchListLoader(args: BranchArgs) {
  const { api } = await requireBranches(args);
  const params = readListParams(args.request.url, DEFAULT_SORT);
  const result = await listBranchPage(api, params);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  return { params, page: result.data };
}
