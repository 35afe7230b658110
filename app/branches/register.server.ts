import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { createBranch } from "~/models/branches.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { branchFailureToast } from "./branch-actions.server";
import { requireBranches, type BranchArgs } from "./branch.server";
import { BranchFormSchema } from "./form-schema";

/** 'Cadastrar filial': the form starts empty; its read-only ID is the main company's. */
export async function branchRegisterLoader(args: BranchArgs) {
  const { companyId, companyName } = await requireBranches(args);
  return { companyId, companyName };
}

/** 'Dados da filial' posted: a new active branch of the user's main company. */
export async function branchRegisterAction(args: BranchArgs) {
  const { api, companyId } = await requireBranches(args);
  const submission = parseWithZod(await args.request.formData(), {
    schema: BranchFormSchema,
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const result = await createBranch(api, { ...submission.value, Id_Empresas: companyId });
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }),
        toast: branchFailureToast(result, T.createFailed),
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, "/filiais", {
    type: "success",
    title: T.created,
    description: result.data.NOME,
  });
}
