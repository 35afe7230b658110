import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { formatCpfText, formatPhone } from "../../api/domain/masks";
import { legacyRoleName } from "../../api/domain/roles";
import { levelById, levelChoicesFor, USER_LEVELS, USER_TEXTS as T } from "../../api/domain/users";

import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { loadActiveBranches } from "~/models/branches.server";
import type { ListedUser } from "~/models/company-users.server";
import { changeCompanyUserLevel, updateCompanyUser } from "~/models/company-users.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { failureToast, formFieldErrors } from "./failures.server";
import { EDIT_INTENT, NO_LEVEL, UserEditSchema, UserLevelSchema } from "./form-schema";
import { listBackOf, requireEditableUser, type UserArgs } from "./users.server";

const HIDDEN = ["password", "confirmPassword"];

/** The branch a user works in, if any: the own branch of branch-level staff, the client branch of a client. */
function branchOf(user: ListedUser) {
  if (user.roleId === 7) return user.filialClientId;
  if (user.roleId === 1 || user.roleId === 2 || user.roleId === 4) return null;
  return user.companyId;
}

/**
 * 'Editar Usuário': the user (name, CPF formatted, e-mail), the tab (?aba=nivel is 'Alterar nível de acesso'), and
 * for that tab the levels this viewer may give (spec 000 §6 'Level choices on edit') and the active branches. A user
 * outside the list's scope is 404; one the viewer may not edit goes back to the list with 'Permissão negada!'.
 */
export async function userEditLoader(args: UserArgs) {
  const back = listBackOf(args.request);
  const { api, auth, user, self } = await requireEditableUser(args, back);
  const tab = new URL(args.request.url).searchParams.get("aba") === "nivel" ? "nivel" : "informacoes";
  const choices = levelChoicesFor(auth.user) as readonly number[];
  const levels = USER_LEVELS.filter((level) => choices.includes(level.id)).map(({ id, label, branch }) => ({
    id,
    label,
    branch,
  }));
  const branches = tab === "nivel" && !self ? await loadActiveBranches(api) : [];
  const ownBranch = branchOf(user);
  return {
    back,
    tab,
    self,
    user: {
      id: user.id,
      nome: user.nome,
      cpf: formatCpfText(user.cpf),
      email: user.email,
      telefone: formatPhone(user.telefone),
      ativo: user.ativo === 1,
      nivel: legacyRoleName(user),
      roleId: user.roleId,
    },
    levels,
    branches,
    branchId: branches.some((branch) => branch.id === ownBranch) ? ownBranch : (branches[0]?.id ?? null),
  };
}

/**
 * The two forms of 'Editar Usuário' (a hidden intent, STYLE 4). 'Alterar informações': PUT /users, then back to the
 * list with 'O usuário foi alterado com sucesso.'. 'Alterar nível de acesso': 'Sem nível' answers the info toast 'É
 * necessário escolher um nível para o usuário!' and changes nothing (spec 000 §4); a level goes through its
 * transformTo* call, then back to the list with 'O acesso do usuário foi alterado com sucesso.'. A refusal: 'Erro ao
 * editar usuário!' with the server's reason.
 */
export async function userEditAction(args: UserArgs) {
  const form = await args.request.formData();
  const back = listBackOf(args.request, form.get("redirectTo"));
  const { api, user } = await requireEditableUser(args, back);

  if (form.get("intent") === EDIT_INTENT.level) {
    const submission = parseWithZod(form, { schema: UserLevelSchema, disableAutoCoercion: true });
    if (submission.status !== "success") {
      return data<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
    }
    if (submission.value.roleId === NO_LEVEL) {
      return data<FormActionData>({ result: submission.reply(), toast: { type: "info", title: T.chooseLevel } });
    }
    const level = levelById(submission.value.roleId);
    if (!level?.transform) {
      return data<FormActionData>(
        { result: submission.reply({ fieldErrors: { roleId: [T.levelInvalid] } }), toast: BLANK_FIELDS_TOAST },
        { status: 400 },
      );
    }
    const result = await changeCompanyUserLevel(
      api,
      { transform: level.transform, branch: level.branch },
      user.id,
      level.branch ? (submission.value.filialId ?? null) : null,
    );
    if (!result.ok) {
      await signOutOnUnauthorized(args.request, args.context, result.status);
      return data<FormActionData>(
        {
          result: submission.reply({ fieldErrors: formFieldErrors(result) }),
          toast: failureToast(result, T.editFailed, T.editFailedFallback),
        },
        { status: result.status },
      );
    }
    return redirectWithToast(args.context, back, { type: "success", title: T.levelChanged, description: user.nome });
  }

  const submission = parseWithZod(form, { schema: UserEditSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>(
      { result: submission.reply({ hideFields: HIDDEN }), toast: BLANK_FIELDS_TOAST },
      { status: 400 },
    );
  }
  const { nome, telefone, ativo, password } = submission.value;
  const result = await updateCompanyUser(api, {
    userId: user.id,
    nome,
    telefone,
    ativo,
    ...(password ? { password } : {}),
  });
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ fieldErrors: formFieldErrors(result), hideFields: HIDDEN }),
        toast: failureToast(result, T.editFailed, T.editFailedFallback),
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, back, {
    type: "success",
    title: T.edited,
    description: result.data.user.nome,
  });
}
