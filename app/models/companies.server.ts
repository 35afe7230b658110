import {
  CompanyBoard,
  CompanyDetail,
  CompanyPage,
  type Company,
  type CompanyCreateBody,
  type CompanyUpdateBody,
} from "../../api/routes/companies";

import { callApi, type SignedInCaller } from "~/api.server";
import { apiListQuery, type ListParams } from "~/lib/list-params";

/** The main-company calls of the REST API (spec 000 §7 'CPFs, users, branches, companies'), for one signed-in user. */
export type { Company, CompanyDetail };

/** One page of the main companies the user may see (/empresa-principal). */
export function listCompanyPage(api: SignedInCaller, params: ListParams) {
  return callApi(api, "/empresas/listmatriz", { query: apiListQuery(params), schema: CompanyPage });
}

/** One company with its enabled audit boards (404 when the user may not see it). */
export function findCompany(api: SignedInCaller, id: number) {
  return callApi(api, `/empresas/${id}`, { schema: CompanyDetail });
}

/** The default audit boards a company may be given (GET /quadroPadrao). */
export function listDefaultBoards(api: SignedInCaller) {
  return callApi(api, "/quadroPadrao", { schema: CompanyBoard.array() });
}

export function createCompany(api: SignedInCaller, body: CompanyCreateBody) {
  return callApi(api, "/empresas", { method: "POST", json: body, schema: CompanyDetail });
}

export function updateCompany(api: SignedInCaller, body: CompanyUpdateBody) {
  return callApi(api, "/empresas", { method: "PUT", json: body, schema: CompanyDetail });
}
