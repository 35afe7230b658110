import type { Submission } from "@conform-to/react";

import { ENVIRONMENT_TEXTS as T, lacksCatalogues, markAllOptional } from "../../api/domain/environments";

import type { ApiFailure, SignedInCaller } from "~/api.server";
import { BLANK_FIELDS_TOAST } from "~/components/forms";
import { failLoad } from "~/lib/fail-load.server";
import { getEnvironmentFormOptions, type EnvironmentForm } from "~/models/environments.server";
import { signOutOnUnauthorized } from "~/session.server";
import type { ToastInput } from "~/toast.server";

import { MARK_ALL_FIELD } from "./form-schema";

/** A branch's choices as the form draws them (names and ids; risks with their colour). */
export type FormOptions = {
  categorias: { id: number; name: string }[];
  setores: { id: number; name: string }[];
  riscos: { id: number; name: string; color: string }[];
  procedimentos: { id: number; name: string }[];
};

export function formOptionsOf(answer: EnvironmentForm): FormOptions {
  return {
    categorias: answer.categorias.map((item) => ({ id: item.ID_CATEGORIA, name: item.DESCRICAO })),
    setores: answer.setores.map((item) => ({ id: item.id, name: item.name })),
    riscos: answer.riscos.map((item) => ({ id: item.id, name: item.name, color: item.color })),
    procedimentos: answer.procedimentos.map((item) => ({ id: item.ID_PROCEDIMENTO, name: item.NAME_PROCEDIMENTO })),
  };
}

/** The branch's options, and whether it lacks what an environment needs ('Cadastros não realizados', spec 000 §8). */
export async function loadFormOptions(api: SignedInCaller, branchId: number) {
  const result = await getEnvironmentFormOptions(api, branchId);
  if (!result.ok) return failLoad(api, result, "Erro ao carregar dados, por favor atualize a página");
  const options = formOptionsOf(result.data);
  const lacking = lacksCatalogues({ categories: options.categorias.length, sectors: options.setores.length });
  return { options, lacking };
}

/**
 * 'Marcar todos' as the server applies it (so it works without JS): every procedure of the branch optional, none
 * mandatory. With JS the form has done the same already; applying it again changes nothing.
 */
export async function applyMarkAllOptional(api: SignedInCaller, form: FormData, branchId: number) {
  if (form.get(MARK_ALL_FIELD) === null) return;
  const { options } = await loadFormOptions(api, branchId);
  const all = markAllOptional(
    { mandatory: [], optional: [] },
    options.procedimentos.map((item) => item.id),
  );
  form.delete("procedures");
  form.delete("proceduresNotMandatory");
  for (const id of all.optional) form.append("proceduresNotMandatory", String(id));
}

/**
 * A refused form: the spec's 'Campos em branco' toast, except when the only problem is a procedure in both lists
 * (no field is blank then): that says what is wrong instead.
 */
export function invalidFormToast(submission: Submission<unknown>, failedTitle: string): ToastInput {
  const errors: Record<string, string[] | null> = submission.status === "error" ? (submission.error ?? {}) : {};
  const fields = Object.entries(errors)
    .filter(([, messages]) => messages?.length)
    .map(([name]) => name);
  if (fields.length === 1 && fields[0] === "proceduresNotMandatory")
    return { type: "error", title: failedTitle, description: T.procedureConflict };
  return BLANK_FIELDS_TOAST;
}

/** An API refusal of a create or an edit as the form shows it: the duplicate name is an info toast (spec 000 §5). */
export async function apiFailureToast(
  api: SignedInCaller,
  failure: ApiFailure,
  texts: { failed: string; unexpected: string },
): Promise<ToastInput> {
  await signOutOnUnauthorized(api.request, api.context, failure.status);
  if (failure.status === 409) return { type: "info", title: T.duplicateTitle, description: T.duplicateDescription };
  if (failure.status >= 500) return { type: "error", title: texts.unexpected, description: failure.message };
  return { type: "error", title: texts.failed, description: failure.message };
}
