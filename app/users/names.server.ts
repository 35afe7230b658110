import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { USER_TEXTS as T } from "../../api/domain/users";

import { BLANK_FIELDS_TOAST, type FormActionData } from "~/components/forms";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { createUserName, listUserNames, updateUserName } from "~/models/company-users.server";
import { signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { failureToast, formFieldErrors } from "./failures.server";
import { NAME_INTENT, UserNameSchema } from "./form-schema";
import { namesHref } from "./links";
import {
  EDIT_DENIED,
  listBackOf,
  requireEditableUser,
  requireListedUser,
  userIdOf,
  type UserArgs,
} from "./users.server";

/**
 * 'Nomes do Usuário' (a dialog drawn as a page): the user's other names, and the tab (?aba=cadastrar 'Cadastrar
 * Nome', ?editar=ID 'Editar Nome'). Everyone who sees the user sees the names; adding, renaming and removing follow
 * the edit rules of spec 000 §6 (a viewer who may not edit the user gets the list only).
 */
export async function userNamesLoader(args: UserArgs) {
  const back = listBackOf(args.request);
  const { api, user, canEdit } = await requireListedUser(args);
  const search = new URL(args.request.url).searchParams;
  const editing = search.get("editar");
  const tab = editing !== null ? "editar" : search.get("aba") === "cadastrar" ? "cadastrar" : "lista";
  const list = namesHref(user.id, back);
  if (tab !== "lista" && !canEdit) throw await redirectWithToast(args.context, list, EDIT_DENIED);
  const names = await listUserNames(api, user.id);
  if (!names.ok) return failLoad(api, names, T.loadFailed);
  let name = null;
  if (editing !== null) {
    const id = userIdOf(editing, T.nameNotFound);
    name = names.data.find((entry) => entry.id === id) ?? null;
    invariantResponse(name, T.nameNotFound, { status: 404 });
  }
  return {
    back,
    tab,
    canEdit,
    user: { id: user.id, nome: user.nome, empresa: user.empresa },
    names: names.data.map((entry) => ({ id: entry.id, name: entry.name })),
    editing: name ? { id: name.id, name: name.name } : null,
  };
}

/** 'Salvar': a new name (POST /nameUser) or a renamed one (PUT /nameUser), then the list with 'Nome foi alterado…'. */
export async function userNamesAction(args: UserArgs) {
  const form = await args.request.formData();
  const back = listBackOf(args.request, form.get("redirectTo"));
  const { api, user } = await requireEditableUser(args, back);
  const list = namesHref(user.id, back);
  const submission = parseWithZod(form, { schema: UserNameSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const update = form.get("intent") === NAME_INTENT.update;
  const result = update
    ? await updateUserName(api, userIdOf(String(form.get("nameId") ?? ""), T.nameNotFound), submission.value.name)
    : await createUserName(api, user.id, submission.value.name);
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    return data<FormActionData>(
      {
        result: submission.reply({ fieldErrors: formFieldErrors(result) }),
        toast: failureToast(result, update ? T.nameFailed : T.createFailed, T.checkData),
      },
      { status: result.status },
    );
  }
  return redirectWithToast(args.context, list, { type: "success", title: T.nameSaved, description: result.data.name });
}
