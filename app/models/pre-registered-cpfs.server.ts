import { CPF_CSV_FIELD } from "../../api/domain/pre-registered-cpf-csv";
import {
  CpfImported,
  CpfStatusAnswer,
  PreRegisteredCpf,
  PreRegisteredCpfPage,
  type CpfCreateBody,
  type CpfStatusBody,
} from "../../api/routes/pre-registered-cpfs";

import { callApi, type SignedInCaller } from "~/api.server";
import { apiListQuery, type ListParams } from "~/lib/list-params";

/** The pre-registered CPF calls of the REST API (spec 000 §7 'CPFs, users, branches, companies'), for one user. */
export type { PreRegisteredCpf };

/**
 * The path's companyId is the session's: the main company for company-wide users, the user's branch for
 * branch-level ones (they have no empresaPrincipal; their User.companyId is the branch).
 */
function companyOf(api: SignedInCaller) {
  return api.auth.empresaPrincipal[0]?.Id_Empresas ?? api.auth.user.companyId;
}

/** One page of /pre-cadastro-usuarios, as the URL's search, order, page and size ask. */
export function listPreRegisteredCpfPage(api: SignedInCaller, params: ListParams) {
  return callApi(api, `/empresas/funcionarios/${companyOf(api)}`, {
    query: apiListQuery(params),
    schema: PreRegisteredCpfPage,
  });
}

/** Every pre-registration in scope (the confirmation page finds the ticked ones here). */
export function listPreRegisteredCpfs(api: SignedInCaller) {
  return callApi(api, `/empresas/funcionarios/${companyOf(api)}`, { schema: PreRegisteredCpf.array() });
}

export function createPreRegisteredCpf(api: SignedInCaller, body: Omit<CpfCreateBody, "idEmpresa">) {
  return callApi(api, "/empresas/saveFuncionarios", {
    method: "POST",
    json: { ...body, idEmpresa: companyOf(api) },
    schema: PreRegisteredCpf,
  });
}

/** 'Cadastro em lote': one CSV file (columns cpf;nivel) into a branch of the company, all its rows or none. */
export function importPreRegisteredCpfCsv(api: SignedInCaller, branchId: string, file: File) {
  const upload = new FormData();
  upload.set(CPF_CSV_FIELD, file);
  upload.set("idEmpresa", String(companyOf(api)));
  upload.set("idEmpresaFilial", branchId);
  return callApi(api, "/empresas/saveCSVFuncionarios", { method: "POST", formData: upload, schema: CpfImported });
}

export function changePreRegisteredCpfStatus(api: SignedInCaller, body: CpfStatusBody) {
  return callApi(api, "/empresas/ativaInativaDeleteFuncionarios", {
    method: "PUT",
    json: body,
    schema: CpfStatusAnswer,
  });
}
