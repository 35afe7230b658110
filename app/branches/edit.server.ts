import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { updateBranch } from "~/models/branches.server";
import { safeRedirectTo, signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { branchFailureToast } from "./branch-actions.server";
import { requireBranch, type BranchArgs } from "./branch.server";
import { BranchEditSchema } from "./form-schema";

/** 'Editar filial': the branch as saved, and where Cancelar and Salvar go back to (the list as it was). */
export async function branchEditLoader(args: BranchArgs) {
  const { branch } = await requireBranch(args);
  return { branch, back: safeRedirectTo(new URL(args.request.url).searchParams.get("redirectTo"), "/filiais") };
}

export async function branchEditAction(args: BranchArgs) {
  const { api, branch } = await requireBranch(args);
  const form = await args.request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), "/filiais");
  const submission = parseWithZod(form, { schema: BranchEditSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const result = await updateBranch(api, { ...submission.value, ID: branch.ID, Id_Empresas: branch.Id_Empresas });
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }),
        toast: branchFailureToast(result, T.editFailed),
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, back, { type: "success", title: T.edited, description: result.data.NOME });
}
