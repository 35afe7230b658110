import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * A signed timestamp for a public form (the room page's rating and report forms, issue 28): `<ms>.<signature>` over
 * the form's subject (the room id) and the time the page was drawn. The API refuses a post whose token is forged or
 * whose age says a robot (too fast) or a stale page (a day old), without telling which.
 */
export type FormTokens = {
  issue: (subject: string, now: number) => string;
  /** The time the token was issued, or null when it is not one of ours for this subject. */
  read: (subject: string, token: string) => number | null;
};

/** Tokens signed with the server's secret; without one (tests in one process) a random key of this process. */
export function formTokens(secret: string | undefined): FormTokens {
  const key = secret ? `form-token:${secret}` : randomBytes(32);
  const sign = (subject: string, issuedAt: number) =>
    createHmac("sha256", key).update(`${subject}.${issuedAt}`).digest("base64url").slice(0, 27);
  return {
    issue: (subject, now) => `${now}.${sign(subject, now)}`,
    read: (subject, token) => {
      const match = /^(\d{13})\.([\w-]{27})$/.exec(token);
      if (!match) return null;
      const issuedAt = Number(match[1]);
      const expected = Buffer.from(sign(subject, issuedAt));
      return timingSafeEqual(expected, Buffer.from(match[2]!)) ? issuedAt : null;
    },
  };
}
