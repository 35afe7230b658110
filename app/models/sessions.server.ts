import { SessionAnswer } from "../../api/routes/sessions";

import { callApi, type ApiCaller } from "~/api.server";

/** Sign-in (POST /sessions) and sign-out (DELETE /sessions: the token is revoked). */
export function createApiSession(api: ApiCaller, credentials: { email: string; password: string }) {
  return callApi(api, "/sessions", { method: "POST", json: credentials, schema: SessionAnswer });
}

export function revokeApiSession(api: ApiCaller & { auth: { token: string } }) {
  return callApi(api, "/sessions", { method: "DELETE" });
}
