import { USER_TEXTS as T } from "../../api/domain/users";

import { failLoad } from "~/lib/fail-load.server";
import { listCompanyUserPage } from "~/models/company-users.server";

import { readUserListParams } from "./params";
import { userRow } from "./rows.server";
import { requireUsers, type UserArgs } from "./users.server";

/** The list tab: one page of 20 users in scope as the URL's search, order and page ask. */
export async function userListLoader(args: UserArgs) {
  const { api, auth, showLevel } = await requireUsers(args);
  const params = readUserListParams(args.request.url);
  const result = await listCompanyUserPage(api, params);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  return {
    params,
    showLevel,
    rows: result.data.items.map((user) => userRow(user, auth.user)),
    total: result.data.total,
  };
}
