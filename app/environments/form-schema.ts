import * as z from "zod/mini";

import { checkProcedureLists, environmentFields, idField } from "../../api/domain/environments";

/**
 * The register and edit forms' schemas (STYLE 3: one schema, conform in the browser, parseWithZod in the action),
 * built from the API's own field rules and messages (api/domain/environments.ts). Kept beside the screens rather than
 * in lib/schemas.ts: that module is in the bundle of every form page, and these rules are only needed here.
 */
const PROCEDURE_LISTS = ["procedures", "proceduresNotMandatory"];

/**
 * The rule across the two procedure lists runs whenever both lists themselves parsed, even when another field
 * (the name, the floor) failed: the form then shows every message at once, not one round at a time.
 */
const whenListsParsed = {
  when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    !payload.issues.some((issue) => PROCEDURE_LISTS.includes(String(issue.path?.[0]))),
};

export const ENVIRONMENT_COMPANY_REQUIRED = "Escolha a empresa";

/** The optional procedures' 'Marcar todos' tick box: posted when ticked, applied by the server too (no JS needed). */
export const MARK_ALL_FIELD = "todosOpcionais";
/** The register form's hidden field naming the branch whose options the page showed. */
export const SHOWN_BRANCH_FIELD = "opcoesDe";

export function environmentFormSchema(withCompany: true): ReturnType<typeof createSchema>;
export function environmentFormSchema(withCompany: false): ReturnType<typeof editSchema>;
export function environmentFormSchema(withCompany: boolean) {
  return withCompany ? createSchema() : editSchema();
}

function editSchema() {
  return z.object(environmentFields).check(z.superRefine(checkProcedureLists, whenListsParsed));
}

function createSchema() {
  return z
    .object({ companyId: idField(ENVIRONMENT_COMPANY_REQUIRED), ...environmentFields })
    .check(z.superRefine(checkProcedureLists, whenListsParsed));
}
