import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";

import { COMPANY_TEXTS as T, companyFormErrors } from "../../api/domain/organisation";

import type { FormActionData } from "~/components/forms";
import { failLoad } from "~/lib/fail-load.server";
import { createCompany, listDefaultBoards } from "~/models/companies.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { requireCompanies, type CompanyArgs } from "./company.server";
import { CompanyRegisterSchema, REGISTER_INVALID_TOAST } from "./form-schema";

/** 'Cadastrar empresa' (roleId 1): the default boards to choose from. */
export async function companyRegisterLoader(args: CompanyArgs) {
  const { api, canEdit } = await requireCompanies(args);
  if (!canEdit) throw redirect("/empresa-principal");
  const boards = await listDefaultBoards(api);
  if (!boards.ok) return failLoad(api, boards, T.loadFailed);
  return { boards: boards.data };
}

const HIDDEN = { hideFields: ["password", "confirmPassword"] };

/**
 * The register form posted: the company, its boards and its first administrator in one API call (one transaction
 * there). A refusal marks the field (a CNPJ, e-mail or CPF already taken) and says why in 'Erro no Cadastro'.
 */
export async function companyRegisterAction(args: CompanyArgs) {
  const { api } = await requireCompanies(args);
  const submission = parseWithZod(await args.request.formData(), {
    schema: CompanyRegisterSchema,
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(HIDDEN), toast: REGISTER_INVALID_TOAST }, { status: 400 });
  }
  const {
    nomeuser,
    email,
    cpf,
    nascimento,
    telefone,
    password,
    confirmPassword: _confirm,
    ...company
  } = submission.value;
  const result = await createCompany(api, {
    ...company,
    userAdmin: { nome: nomeuser, email, cpf, dataNascimento: nascimento, telefone, password },
  });
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ ...HIDDEN, fieldErrors: companyFormErrors(result.fieldErrors) }),
        toast: { type: "error", title: T.createFailedTitle, description: result.message || T.createInvalidDescription },
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, "/empresa-principal", {
    type: "success",
    title: T.successTitle,
    description: T.created,
  });
}
