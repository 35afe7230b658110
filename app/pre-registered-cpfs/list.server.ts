import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import { failLoad } from "~/lib/fail-load.server";
import { readListParams } from "~/lib/list-params";
import { listPreRegisteredCpfPage } from "~/models/pre-registered-cpfs.server";

import { requireCpfs, type CpfArgs } from "./cpfs.server";
import { DEFAULT_SORT } from "./sort";

/** The list tab: one page of the CPFs in scope as the URL's search, order, page and size ask. */
export async function cpfListLoader(args: CpfArgs) {
  const { api, canEdit } = await requireCpfs(args);
  const params = readListParams(args.request.url, DEFAULT_SORT);
  const result = await listPreRegisteredCpfPage(api, params);
  if (!result.ok) return failLoad(api, result, T.unexpectedDescription);
  return { params, page: result.data, canEdit };
}
