import { COMPANY_TEXTS as T } from "../../api/domain/organisation";

import { failLoad } from "~/lib/fail-load.server";
import { readListParams } from "~/lib/list-params";
import { listCompanyPage } from "~/models/companies.server";

import { requireCompanies, type CompanyArgs } from "./company.server";
import { DEFAULT_SORT } from "./sort";

/** 'Listar empresas': one page of the main companies the user may see, as the URL asks. */
export async function companyListLoader(args: CompanyArgs) {
  const { api, canEdit } = await requireCompanies(args);
  const params = readListParams(args.request.url, DEFAULT_SORT);
  const result = await listCompanyPage(api, params);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  return { params, page: result.data, canEdit };
}
