import { ENVIRONMENT_TEXTS as T } from "../../api/domain/environments";

import { removeEnvironment } from "~/models/environments.server";
import { safeRedirectTo, signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { environmentIdOf, requireEnvironment, requireEnvironments, type EnvironmentArgs } from "./environment.server";

export async function environmentRemoveLoader(args: EnvironmentArgs) {
  const { environment } = await requireEnvironment(args, { forEdit: true });
  const back = safeRedirectTo(new URL(args.request.url).searchParams.get("redirectTo"), "/ambientes");
  return { environment: { id: environment.id, name: environment.name, empresa: environment.empresa }, back };
}

/**
 * 'Sim': the removal, back to the list with 'Ambiente deletado com sucesso'; refused with 'Ambiente já possui
 * historico e não pode ser deletado' when it has history (the API's 409), else 'Erro ao deletar ambiente'.
 */
export async function environmentRemoveAction(args: EnvironmentArgs) {
  const { api } = await requireEnvironments(args);
  const back = safeRedirectTo((await args.request.formData()).get("redirectTo"), "/ambientes");
  const result = await removeEnvironment(api, environmentIdOf(args.params));
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return redirectWithToast(
      args.context,
      back,
      result.status === 409
        ? { type: "error", title: T.hasHistory }
        : { type: "error", title: T.deleteFailed, description: result.message },
    );
  }
  return redirectWithToast(args.context, back, { type: "success", title: T.deleted });
}
