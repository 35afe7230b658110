import type { ApiFailure, SignedInCaller } from "~/api.server";
import { signOutOnUnauthorized } from "~/session.server";

/**
 * A loader's API failure: a revoked token goes to sign-in; a refusal (4xx: 404 what was missing, 400 what was wrong in
 * the URL) is the page's answer with the API's words, since bad input is never a 500 (docs/security.md); anything
 * else is 500 with the page's message.
 */
export async function failLoad(api: SignedInCaller, failure: ApiFailure, message: string): Promise<never> {
  await signOutOnUnauthorized(api.request, api.context, failure.status);
  const refused = failure.status >= 400 && failure.status < 500;
  throw new Response(refused ? failure.message : message, {
    status: refused ? failure.status : 500,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
