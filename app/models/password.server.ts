import { callApi, type ApiCaller } from "~/api.server";

/** Password recovery: the e-mail with a reset link, then the new password with the link's token. */
export function requestPasswordReset(api: ApiCaller, body: { email: string }) {
  return callApi(api, "/password/forgot", { method: "POST", json: body });
}

export function resetPassword(api: ApiCaller, body: { token: string; password: string; passwordConfirmation: string }) {
  return callApi(api, "/password/reset", { method: "POST", json: body });
}
