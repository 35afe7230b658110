import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { COMPANY_TEXTS as T } from "../../api/domain/organisation";

import type { FormActionData } from "~/components/forms";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { findCompany, listDefaultBoards, updateCompany } from "~/models/companies.server";
import { safeRedirectTo, signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { requireCompanies, type CompanyArgs } from "./company.server";
import { CompanyEditSchema, EDIT_INVALID_TOAST } from "./form-schema";

/** The company an edit is about: 403 for read-only users, 404 when the user may not see it. */
async function requireEditableCompany(args: CompanyArgs) {
  const context = await requireCompanies(args);
  invariantResponse(context.canEdit, "Permissão negada!", { status: 403 });
  const id = Number(args.params.id);
  invariantResponse(Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647, T.notFound, { status: 404 });
  const company = await findCompany(context.api, id);
  if (!company.ok) return failLoad(context.api, company, T.loadFailed);
  return { ...context, company: company.data };
}

/** 'Editar Empresa': the company as saved with its boards, and every default board to choose from. */
export async function companyEditLoader(args: CompanyArgs) {
  const { api, company } = await requireEditableCompany(args);
  const boards = await listDefaultBoards(api);
  if (!boards.ok) return failLoad(api, boards, T.loadFailed);
  // A board the company has that is no longer a default one still shows (ticked), so saving does not drop it unseen.
  const options = [...boards.data, ...company.quadros.filter((q) => !boards.data.some((b) => b.ID === q.ID))];
  return {
    company,
    boards: options.sort((a, b) => a.ID - b.ID),
    back: safeRedirectTo(new URL(args.request.url).searchParams.get("redirectTo"), "/empresa-principal"),
  };
}

export async function companyEditAction(args: CompanyArgs) {
  const { api, company } = await requireEditableCompany(args);
  const form = await args.request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), "/empresa-principal");
  const submission = parseWithZod(form, { schema: CompanyEditSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(), toast: EDIT_INVALID_TOAST }, { status: 400 });
  }
  const result = await updateCompany(api, { id: company.ID, ...submission.value });
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }),
        toast: { type: "error", title: T.editFailedTitle, description: result.message },
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, back, { type: "success", title: T.successTitle, description: T.edited });
}
