import type { z } from "zod";

import { MeAnswer, type SignUpBody, UserAnswer } from "../../api/routes/users";

import { type ApiCaller, callApi, type SignedInCaller } from "~/api.server";

/** The user calls of the REST API: sign-up, the signed-in user's own record, avatar, contact and password. */
export function signUp(api: ApiCaller, body: z.input<typeof SignUpBody>) {
  return callApi(api, "/users", { method: "POST", json: body });
}

export function getMe(api: SignedInCaller) {
  return callApi(api, "/users/me", { schema: MeAnswer });
}

export function uploadAvatar(api: SignedInCaller, avatar: File) {
  const upload = new FormData();
  upload.set("avatar", avatar);
  upload.set("user_id", String(api.auth.user.id));
  return callApi(api, "/users/avatar", { method: "PATCH", formData: upload, schema: UserAnswer });
}

export function updateContact(api: SignedInCaller, contact: { email: string; telefone: string }) {
  return callApi(api, "/users/update", {
    method: "PUT",
    json: { nome: api.auth.user.nome, ...contact },
    schema: UserAnswer,
  });
}

export function changeOwnPassword(
  api: SignedInCaller,
  change: { telefone: string; password: string; oldPassword: string },
) {
  const { user } = api.auth;
  return callApi(api, "/users", {
    method: "PUT",
    json: { userId: user.id, nome: user.nome, ativo: true, ...change },
    schema: UserAnswer,
  });
}
