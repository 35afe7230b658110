import { USER_TEXTS as T } from "../../api/domain/users";

import { failLoad } from "~/lib/fail-load.server";
import { fileDate, xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";
import { listCompanyUserPage } from "~/models/company-users.server";

import { readUserListParams } from "./params";
import { userRow, type UserRow } from "./rows.server";
import { requireUsers, type UserArgs } from "./users.server";

/**
 * 'Exportar Excel' of /listagem-usuarios (spec 000 §9): the page on screen (same search, order and page, 20 rows) as
 * listagem-usuarios-DD-MM-YYYY.xlsx, the date in America/Fortaleza. Columns as on screen ('Nível' only for those who
 * see it), without the edit button.
 */
export async function userExportLoader(args: UserArgs) {
  const { api, auth, showLevel } = await requireUsers(args);
  const params = readUserListParams(args.request.url);
  const result = await listCompanyUserPage(api, params);
  if (!result.ok) return failLoad(api, result, T.loadFailed);
  const columns: SheetColumn<UserRow>[] = [
    { header: "Empresa", width: 30, value: (row) => row.empresa },
    { header: "Nome", width: 32, value: (row) => row.nome },
    { header: "CPF", width: 16, value: (row) => row.cpf },
    { header: "E-mail", width: 32, value: (row) => row.email },
    { header: "Telefone", width: 18, value: (row) => row.telefone },
    { header: "Data de Nascimento", width: 18, value: (row) => row.nascimento },
  ];
  if (showLevel) columns.push({ header: "Nível", width: 20, value: (row) => row.nivel });
  return xlsxResponse<UserRow>(
    `listagem-usuarios-${fileDate()}.xlsx`,
    "Usuários",
    columns,
    result.data.items.map((user) => userRow(user, auth.user)),
  );
}
