import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import { requireCpfs, type CpfArgs } from "./cpfs.server";

/** The frame of /pre-cadastro-usuarios: title, help text, the tabs (register only for editors). */
export async function cpfLayoutLoader(args: CpfArgs) {
  const { canEdit } = await requireCpfs(args);
  return { canEdit, help: canEdit ? T.help : T.helpViewer };
}
