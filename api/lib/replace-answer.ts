import type { Context } from "hono";

/**
 * Puts a new answer in place of Hono's (the compression, the public cache, the request frame): unset first, or
 * Hono's setter copies the old answer's headers over the new one's.
 */
export function replaceAnswer(c: Context, answer: Response) {
  (c as { res: Response | undefined }).res = undefined;
  c.res = answer;
}
