import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { ENVIRONMENT_TEXTS as T } from "../../api/domain/environments";

import type { FormActionData } from "~/components/forms";
import { getEnvironment, updateEnvironment } from "~/models/environments.server";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { environmentIdOf, requireEnvironment, requireEnvironments, type EnvironmentArgs } from "./environment.server";
import { environmentFormSchema, MARK_ALL_FIELD } from "./form-schema";
import { apiFailureToast, applyMarkAllOptional, invalidFormToast, loadFormOptions } from "./form.server";

/** /ambientes/:id/editar: 'Editar ambiente', the register form without the company, on the environment's branch. */
export async function environmentEditLoader(args: EnvironmentArgs) {
  const { api, environment } = await requireEnvironment(args, { forEdit: true });
  const { options, lacking } = await loadFormOptions(api, environment.companyId);
  return {
    environment: {
      id: environment.id,
      name: environment.name,
      andar: environment.andar,
      empresa: environment.empresa,
      categoriaId: environment.categoriaId,
      setorId: environment.setorId,
      riscos: environment.riscos,
      procedures: environment.procedures,
      proceduresNotMandatory: environment.proceduresNotMandatory,
    },
    options,
    lacking,
    back: safeRedirectTo(new URL(args.request.url).searchParams.get("redirectTo"), "/ambientes"),
  };
}

/** 'Salvar': back to the list it came from with 'Ambiente editado com sucesso'. */
export async function environmentEditAction(args: EnvironmentArgs) {
  const { api } = await requireEnvironments(args);
  const id = environmentIdOf(args.params);
  const form = await args.request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), "/ambientes");
  if (form.get(MARK_ALL_FIELD) !== null) {
    // 'Marcar todos' needs the environment's branch (the edit form has no company field).
    const found = await getEnvironment(api, id);
    if (found.ok) await applyMarkAllOptional(api, form, found.data.companyId);
  }
  const submission = parseWithZod(form, { schema: environmentFormSchema(false), disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>(
      { result: submission.reply(), toast: invalidFormToast(submission, T.editFailed) },
      { status: 400 },
    );
  }
  const result = await updateEnvironment(api, id, submission.value);
  if (!result.ok) {
    const toast = await apiFailureToast(api, result, { failed: T.editFailed, unexpected: T.editUnexpected });
    return data<FormActionData>(
      { result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }), toast },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, back, { type: "success", title: T.edited });
}
