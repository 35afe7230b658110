import { USER_TEXTS as T } from "../../api/domain/users";

import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { listUserNames, removeUserName } from "~/models/company-users.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { nameRemoveHref, namesHref } from "./links";
import { listBackOf, requireEditableUser, userIdOf, type UserArgs } from "./users.server";

/**
 * The removal of a name asks first ('Tem certeza que deseja remover?', Sim / Não): this page without JS; with JS the
 * names page asks in a dialog and posts to the same action. Both go back to the names page, which keeps the list's
 * query (the ?redirectTo= of this URL).
 */
async function requireName(args: UserArgs) {
  const back = listBackOf(args.request);
  const context = await requireEditableUser(args, back);
  const nameId = userIdOf(args.params.nomeId, T.nameNotFound);
  return { ...context, back, nameId, namesPage: namesHref(context.user.id, back) };
}

export async function userNameRemoveLoader(args: UserArgs) {
  const { api, user, back, nameId, namesPage } = await requireName(args);
  const names = await listUserNames(api, user.id);
  if (!names.ok) return failLoad(api, names, T.loadFailed);
  const name = names.data.find((entry) => entry.id === nameId);
  invariantResponse(name, T.nameNotFound, { status: 404 });
  return {
    user: { id: user.id, nome: user.nome },
    name: { id: name.id, name: name.name },
    action: nameRemoveHref(user.id, name.id, back),
    namesPage,
  };
}

/** 'Sim': DELETE /nameUser/{id}, back to the names with 'Nome foi removido com sucesso.' or 'Erro ao remover item!'. */
export async function userNameRemoveAction(args: UserArgs) {
  const { api, nameId, namesPage } = await requireName(args);
  const result = await removeUserName(api, nameId);
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return redirectWithToast(args.context, namesPage, {
      type: "error",
      title: T.removeFailed,
      description: result.message,
    });
  }
  return redirectWithToast(args.context, namesPage, { type: "success", title: T.nameRemoved });
}
