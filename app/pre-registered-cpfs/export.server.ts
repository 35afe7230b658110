import { formatCnpjText, formatCpfText } from "../../api/domain/masks";
import { statusLabel } from "../../api/domain/organisation";
import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import { failLoad } from "~/lib/fail-load.server";
import { readListParams } from "~/lib/list-params";
import { fileDate, xlsxResponse } from "~/lib/xlsx.server";
import { listPreRegisteredCpfPage, type PreRegisteredCpf } from "~/models/pre-registered-cpfs.server";

import { requireCpfs, type CpfArgs } from "./cpfs.server";
import { DEFAULT_SORT } from "./sort";

/**
 * 'Exportar Excel' of /pre-cadastro-usuarios (spec 000 §9): the page on screen (same search, order, page and size)
 * as listagem-cpfs-DD-MM-YYYY.xlsx, the date in America/Fortaleza. Columns as on screen.
 */
export async function cpfExportLoader(args: CpfArgs) {
  const { api } = await requireCpfs(args);
  const params = readListParams(args.request.url, DEFAULT_SORT);
  const result = await listPreRegisteredCpfPage(api, params);
  if (!result.ok) return failLoad(api, result, T.unexpectedDescription);
  return xlsxResponse<PreRegisteredCpf>(
    `listagem-cpfs-${fileDate()}.xlsx`,
    "CPFs",
    [
      { header: "CPF", width: 18, value: (row) => formatCpfText(row.CPF) },
      { header: "Filial", width: 36, value: (row) => row.NOME_FILIAL },
      { header: "CNPJ", width: 22, value: (row) => formatCnpjText(row.CNPJ) },
      { header: "Status", width: 10, value: (row) => statusLabel(row.ATIVO) },
    ],
    result.data.items,
  );
}
