import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { createLevelsFor, levelById, USER_LEVELS, USER_TEXTS as T } from "../../api/domain/users";

import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { loadActiveBranches } from "~/models/branches.server";
import { companyOf, createCompanyUser, createUserName } from "~/models/company-users.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { failureToast, formFieldErrors } from "./failures.server";
import { UserCreateSchema } from "./form-schema";
import { USERS_PATH } from "./links";
import { requireUserRegistrar, type UserArgs } from "./users.server";

const HIDDEN = ["password", "confirmPassword"];

/** 'Cadastrar usuário': the company's id (read-only), the levels this user may create (spec 000 §6), the branches. */
export async function userRegisterLoader(args: UserArgs) {
  const { api, auth } = await requireUserRegistrar(args);
  const branches = await loadActiveBranches(api);
  const allowed = createLevelsFor(auth.user) as readonly number[];
  const companyId = companyOf(api);
  return {
    companyId,
    companyName: auth.empresaPrincipal.find((company) => company.Id_Empresas === companyId)?.NOME ?? "",
    branches,
    levels: USER_LEVELS.filter((level) => allowed.includes(level.id)).map(({ id, label, branch }) => ({
      id,
      label,
      branch,
    })),
  };
}

/**
 * The form posted: the create call of the chosen level (the main company for Administrador and Auditor, the branch
 * for the others), then POST /nameUser with the new user's name (spec 000 §7), then back to the list with 'O usuário
 * foi cadastrado com sucesso.'. A refusal: 'Erro ao cadastrar!' with the server's reason, its field messages inline.
 */
export async function userRegisterAction(args: UserArgs) {
  const { api } = await requireUserRegistrar(args);
  const submission = parseWithZod(await args.request.formData(), {
    schema: UserCreateSchema,
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data<FormActionData>(
      { result: submission.reply({ hideFields: HIDDEN }), toast: BLANK_FIELDS_TOAST },
      { status: 400 },
    );
  }
  const { roleId, filialId, confirmPassword: _confirm, ...fields } = submission.value;
  const level = levelById(roleId)!;
  const result = await createCompanyUser(api, level, level.branch ? (filialId ?? null) : null, fields);
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ fieldErrors: formFieldErrors(result), hideFields: HIDDEN }),
        toast: failureToast(result, T.createFailed, T.checkData),
      },
      { status: result.status },
    );
  }
  // The original follows every create with the user's name as their first name (spec 000 §7); the user exists
  // either way, so a refused name does not undo the create.
  await createUserName(api, result.data.id, result.data.nome);
  return redirectWithToast(args.context, USERS_PATH, {
    type: "success",
    title: T.created,
    description: result.data.nome,
  });
}
