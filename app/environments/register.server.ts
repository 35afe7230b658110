import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";

import { ENVIRONMENT_TEXTS as T, INT32_MAX } from "../../api/domain/environments";

import type { FormActionData } from "~/components/forms";
import { loadActiveBranches } from "~/models/branches.server";
import { createEnvironment } from "~/models/environments.server";
import { scopeQuery, startingBranchId } from "~/models/scope.server";
import { redirectWithToast } from "~/toast.server";

import { requireEnvironments, type EnvironmentArgs } from "./environment.server";
import { environmentFormSchema, SHOWN_BRANCH_FIELD } from "./form-schema";
import { apiFailureToast, applyMarkAllOptional, invalidFormToast, loadFormOptions } from "./form.server";

const branchIdOf = (value: FormDataEntryValue | string | null) => {
  const id = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : 0;
  return id >= 1 && id <= INT32_MAX ? id : null;
};

/**
 * /ambientes/cadastrar: the register form for one branch. The branch is ?empresa= (the form's live company change
 * fetches this loader with it) or ?companyId= (the no-JS 'Carregar' button submits the form by GET), else the user's
 * own branch or the main company (`startingBranchId`); ?name= and ?andar= keep what was typed across that reload. Category and
 * sector start on the branch's first, risks and procedures empty (spec 000 §4).
 */
export async function environmentRegisterLoader(args: EnvironmentArgs) {
  const { api, canEdit } = await requireEnvironments(args);
  if (!canEdit) throw redirect("/ambientes");
  const branches = await loadActiveBranches(api);
  if (!branches.length) throw redirect("/ambientes");
  const url = new URL(args.request.url);
  const asked = branchIdOf(url.searchParams.get("empresa") ?? url.searchParams.get("companyId"));
  const branchId = startingBranchId(branches, scopeQuery(api.auth), asked);
  const { options, lacking } = await loadFormOptions(api, branchId);
  return {
    branches,
    branchId,
    options,
    lacking,
    typed: {
      name: url.searchParams.get("name")?.slice(0, 200) ?? "",
      andar: url.searchParams.get("andar")?.slice(0, 200) ?? "",
    },
  };
}

/**
 * 'Cadastrar'. A company other than the one whose options the page showed (chosen without JS, and posted without
 * 'Carregar') reloads the form for it, keeping the name and floor: the category, sector, risks and procedures shown
 * belonged to the other branch (spec 000 §4 resets them on a company change).
 */
export async function environmentRegisterAction(args: EnvironmentArgs) {
  const { api } = await requireEnvironments(args);
  const form = await args.request.formData();
  const branchId = branchIdOf(form.get("companyId"));
  const shown = branchIdOf(form.get(SHOWN_BRANCH_FIELD));
  if (branchId !== null && shown !== null && branchId !== shown) {
    const query = new URLSearchParams({ empresa: String(branchId) });
    for (const field of ["name", "andar"]) {
      const value = form.get(field);
      if (typeof value === "string" && value) query.set(field, value);
    }
    return redirectWithToast(args.context, `/ambientes/cadastrar?${query}`, {
      type: "info",
      title: "Empresa alterada",
      description: "Escolha a categoria, o setor, os riscos e os procedimentos da nova empresa.",
    });
  }
  if (branchId !== null) await applyMarkAllOptional(api, form, branchId);

  const submission = parseWithZod(form, { schema: environmentFormSchema(true), disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>(
      { result: submission.reply(), toast: invalidFormToast(submission, T.createFailed) },
      { status: 400 },
    );
  }
  const result = await createEnvironment(api, submission.value);
  if (!result.ok) {
    const toast = await apiFailureToast(api, result, { failed: T.createFailed, unexpected: T.createUnexpected });
    return data<FormActionData>(
      { result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }), toast },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, "/ambientes", { type: "success", title: T.created });
}
