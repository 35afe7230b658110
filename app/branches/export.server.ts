import { formatCnpjText } from "../../api/domain/masks";
import { BRANCH_TEXTS as T, statusLabel } from "../../api/domain/organisation";

import { failLoad } from "~/lib/fail-load.server";
import { readListParams } from "~/lib/list-params";
import { fileDate, xlsxResponse } from "~/lib/xlsx.server";
import { listBranchPage, type Branch } from "~/models/branches.server";

import { requireBranches, type BranchArgs } from "./branch.server";
import { DEFAULT_SORT } from "./sort";

/**
 * 'Exportar Excel' of /filiais (spec 000 §9): the page on screen (same search, order, page and size; 'Todos' is every
 * branch, a company has few) as listagem-filiais-DD-MM-YYYY.xlsx, the date in America/Fortaleza.
 */
export async function branchExportLoader(args: BranchArgs) {
  const { api } = await requireBranches(args);
  const params = readListParams(args.request.url, DEFAULT_SORT);
  const result = await listBranchPage(api, params);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  return xlsxResponse<Branch>(
    `listagem-filiais-${fileDate()}.xlsx`,
    T.title,
    [
      { header: "ID", width: 8, value: (branch) => branch.ID },
      { header: "Nome", width: 36, value: (branch) => branch.NOME },
      { header: "CNPJ", width: 22, value: (branch) => formatCnpjText(branch.CNPJ) },
      { header: "Endereço", width: 36, value: (branch) => branch.ENDERECO },
      { header: "Número", width: 10, value: (branch) => branch.NUMERO },
      { header: "Status", width: 10, value: (branch) => statusLabel(branch.ATIVO) },
    ],
    result.data.items,
  );
}
