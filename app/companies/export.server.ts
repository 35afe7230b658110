import { formatCnpjText } from "../../api/domain/masks";
import { COMPANY_TEXTS as T, statusLabel } from "../../api/domain/organisation";

import { failLoad } from "~/lib/fail-load.server";
import { readListParams } from "~/lib/list-params";
import { fileDate, xlsxResponse } from "~/lib/xlsx.server";
import { listCompanyPage, type Company } from "~/models/companies.server";

import { requireCompanies, type CompanyArgs } from "./company.server";
import { DEFAULT_SORT } from "./sort";

/**
 * 'Exportar Excel' of /empresa-principal: the page on screen. Spec 000 §9 names this file 'listagem-filiais' plus
 * the date DD-MM-YYYY, the same name as the branch list's export; we keep the spec's name (docs/organisation.md).
 */
export async function companyExportLoader(args: CompanyArgs) {
  const { api, canEdit } = await requireCompanies(args);
  const params = readListParams(args.request.url, DEFAULT_SORT);
  const result = await listCompanyPage(api, params);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  return xlsxResponse<Company>(
    `listagem-filiais-${fileDate()}.xlsx`,
    "Empresas matriz",
    [
      ...(canEdit ? [] : [{ header: "ID", width: 8, value: (company: Company) => company.ID }]),
      { header: "Nome", width: 36, value: (company) => company.NOME },
      { header: "CNPJ", width: 22, value: (company) => formatCnpjText(company.CNPJ) },
      { header: "Endereço", width: 36, value: (company) => company.ENDERECO },
      { header: "Número", width: 10, value: (company) => company.NUMERO },
      { header: "Status", width: 10, value: (company) => statusLabel(company.ATIVO) },
    ],
    result.data.items,
  );
}
