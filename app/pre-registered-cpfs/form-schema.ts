import * as z from "zod/mini";

import { preprocess } from "../../api/domain/fields";
import { CPF_TEXTS as T, levelField, preRegisteredCpfField } from "../../api/domain/pre-registered-cpfs";

/**
 * 'Cadastro individual' (STYLE 3: one schema, conform in the browser, parseWithZod in the action), built from the
 * API's own rules and messages (api/domain/pre-registered-cpfs.ts): the branch, the CPF and the access level.
 */
export const CpfFormSchema = z.object({
  idEmpresaFilial: preprocess(
    (value) => (value === "" || value === undefined ? undefined : Number(value)),
    z.number({ error: T.branchRequired }).check(z.int({ error: T.branchRequired })),
  ),
  cpf: preRegisteredCpfField,
  roleId: levelField,
});
