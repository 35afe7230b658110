import * as z from "zod/mini";

import { booleanField, branchFields } from "../../api/domain/organisation";

/**
 * The branch forms' schemas (STYLE 3: one schema, conform in the browser, parseWithZod in the action), built from
 * the API's own field rules and messages (api/domain/organisation.ts): 'Dados da filial' and 'Editar filial'.
 */
export const BranchFormSchema = z.object(branchFields);

/** The edit form adds the status (a radio 'Ativo' / 'Inativo' posting true or false). */
export const BranchEditSchema = z.object({ ...branchFields, ATIVO: booleanField });
