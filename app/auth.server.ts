import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { AppLoadContext } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { z } from "zod";

import { isBlockedOnWeb } from "../api/domain/roles";
import type { SessionAnswer } from "../api/routes/sessions";

import { ACCESS_BLOCKED, SIGN_IN_FAILED } from "./lib/auth-messages";
import { SignInSchema } from "./lib/schemas";
import { createApiSession, revokeApiSession } from "./models/sessions.server";
import type { ToastInput } from "./toast.server";

export { ACCESS_BLOCKED, SIGN_IN_FAILED };
type ApiSessionAnswer = z.infer<typeof SessionAnswer>;

/** Why a sign-in did not produce a session: the form reply to render and the toast to show. */
export class SignInRefused extends Error {
  constructor(
    public result: SubmissionResult<string[]>,
    public toast: ToastInput,
  ) {
    super(toast.title);
  }
}

/**
 * remix-auth's form strategy against POST /api/sessions. Blocked users (coordenador 0, ASG, inactive) get a
 * token from the API, which is revoked at once: the web app never keeps a session for them.
 */
export function authenticator(context: AppLoadContext) {
  const auth = new Authenticator<ApiSessionAnswer>();
  auth.use(
    new FormStrategy(async ({ form, request }) => {
      const submission = parseWithZod(form, { schema: SignInSchema, disableAutoCoercion: true });
      if (submission.status !== "success")
        throw new SignInRefused(submission.reply({ hideFields: ["password"] }), SIGN_IN_FAILED);
      const { email, password } = submission.value;
      const result = await createApiSession({ context, request }, { email, password });
      // The API's database is out: say so (server.ts answers the 503 page), not 'check the credentials'.
      if (!result.ok && result.status >= 500) throw new Response(result.message, { status: 503 });
      if (!result.ok) {
        throw new SignInRefused(
          submission.reply({ hideFields: ["password"] }),
          result.status === 403
            ? ACCESS_BLOCKED
            : { ...SIGN_IN_FAILED, ...(result.status === 429 ? { description: result.message } : {}) },
        );
      }
      if (isBlockedOnWeb(result.data.user)) {
        await revokeApiSession({ context, request, auth: result.data });
        throw new SignInRefused(submission.reply({ hideFields: ["password"] }), ACCESS_BLOCKED);
      }
      return result.data;
    }),
    "form",
  );
  return auth;
}
