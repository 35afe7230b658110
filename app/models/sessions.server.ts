import { CurrentSessionAnswer, SessionAnswer } from "../../api/routes/sessions";

import { callApi, type ApiCaller } from "~/api.server";

/** Sign-in (POST /sessions), the session check of every private page (GET /sessions/current) and sign-out. */
export function createApiSession(api: ApiCaller, credentials: { email: string; password: string }) {
  return callApi(api, "/sessions", { method: "POST", json: credentials, schema: SessionAnswer });
}

/** Checks the token against the sessions table and answers the layout facts (name, level, companies). */
export function getCurrentSession(api: ApiCaller & { auth: { token: string } }) {
  return callApi(api, "/sessions/current", { schema: CurrentSessionAnswer });
}

export function revokeApiSession(api: ApiCaller & { auth: { token: string } }) {
  return callApi(api, "/sessions", { method: "DELETE" });
}
