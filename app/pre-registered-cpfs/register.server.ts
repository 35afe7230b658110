import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { CPF_TEXTS as T, PRE_REGISTER_LEVELS, preRegisterLevelsFor } from "../../api/domain/pre-registered-cpfs";

import { loadActiveBranches } from "~/catalogues/catalogue.server";
import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { createPreRegisteredCpf } from "~/models/pre-registered-cpfs.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { requireCpfEditor, type CpfArgs } from "./cpfs.server";
import { CpfFormSchema } from "./form-schema";

/** 'Cadastro individual': the active branches of the company and the levels this user may give (spec 000 §6). */
export async function cpfRegisterLoader(args: CpfArgs) {
  const { api, auth } = await requireCpfEditor(args);
  const branches = await loadActiveBranches(api);
  const allowed = preRegisterLevelsFor(auth.user) as readonly number[];
  return { branches, levels: PRE_REGISTER_LEVELS.filter((level) => allowed.includes(level.id)) };
}

/** The form posted: a new active pre-registration, then back to the list with 'CPF pré-cadastrado com sucesso'. */
export async function cpfRegisterAction(args: CpfArgs) {
  const { api } = await requireCpfEditor(args);
  const submission = parseWithZod(await args.request.formData(), { schema: CpfFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const result = await createPreRegisteredCpf(api, submission.value);
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }),
        toast: { type: "error", title: T.createFailed, description: result.message },
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, "/pre-cadastro-usuarios", {
    type: "success",
    title: T.created,
    description: result.data.NOME_FILIAL,
  });
}
