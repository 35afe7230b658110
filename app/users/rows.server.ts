import { formatCpfText, formatPhone } from "../../api/domain/masks";
import { canEditUser, legacyRoleName, type UserEditCheck } from "../../api/domain/roles";

import { formatDateBR } from "~/lib/format";
import type { ListedUser } from "~/models/company-users.server";

/**
 * A row of the users list as the screen and the export show it (formatted on the server: the browser gets text, not
 * date-fns): CPF and phone masked, the birth date dd/MM/yyyy, the level as the list names it (spec 000 §6, with
 * 'Coordenador Antigo' / 'ASG Antigo'), and whether the viewer may edit the user (the edit button).
 */
export function userRow(user: ListedUser, viewer: UserEditCheck) {
  return {
    id: user.id,
    empresa: user.empresa,
    nome: user.nome,
    ativo: user.ativo === 1,
    cpf: formatCpfText(user.cpf),
    email: user.email,
    telefone: formatPhone(user.telefone),
    nascimento: user.dataNascimento ? formatDateBR(user.dataNascimento) : "",
    nivel: legacyRoleName(user),
    canEdit: canEditUser(viewer, { id: user.id, roleId: user.roleId, coordenador: user.coordenador }),
  };
}
export type UserRow = ReturnType<typeof userRow>;
