/**
 * What every answer of the process gets, outermost in server.ts: a request id (the client's, up to 64 characters,
 * or a new one) echoed in `x-request-id` and in the log line, a CSP nonce for the page, the client's address (the
 * socket's, or the proxy's header when TRUST_PROXY says so), the security headers and one log line per request
 * (status 499 when the client left before the answer).
 */
import { randomBytes, randomUUID } from "node:crypto";

import { getConnInfo } from "@hono/node-server/conninfo";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";

import { clientAddressOf } from "./http-guards.ts";
import { replaceAnswer } from "./replace-answer.ts";

/** The status logged for a request whose client closed the connection before the answer (nginx's convention). */
export const CLIENT_CLOSED_REQUEST = 499;

export type FrameVariables = { requestId: string; nonce: string; clientAddress: string };

export function requestFrame(options: {
  logger: Logger;
  /** How many proxies of ours are in front (TRUST_PROXY, api/config.ts). */
  trustProxy: number;
  production: boolean;
}): MiddlewareHandler<{ Variables: FrameVariables }> {
  return async (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 64) || randomUUID();
    c.set("requestId", requestId);
    c.set("nonce", randomBytes(16).toString("base64"));
    c.set("clientAddress", clientAddressOf(c.req.raw, socketAddress(c), options.trustProxy));
    const begin = performance.now();
    await next();
    // On the answer's own headers: Hono's c.header() on a finished answer rebuilds it around a stream of its body,
    // which the page would then be read from and written through (docs/performance.md 'The render path').
    try {
      c.res.headers.set("x-request-id", requestId);
    } catch {
      // Headers that cannot change (a native Response.redirect() or a fetch() result): a copy, as c.header() makes.
      replaceAnswer(c, new Response(c.res.body, c.res));
      c.res.headers.set("x-request-id", requestId);
    }
    // The nonce of the page sent: a public page replayed from the cache keeps the one it was rendered with.
    setSecurityHeaders(c.res.headers, c.get("nonce"), options.production);
    options.logger.info(
      {
        requestId,
        method: c.req.method,
        path: c.req.path,
        // A client that left before the answer (its request aborted: Remix then answers 500) is nginx's 499, so that
        // 5xx in the log mean faults of ours.
        status: c.req.raw.signal.aborted ? CLIENT_CLOSED_REQUEST : c.res.status,
        ms: Math.round(performance.now() - begin),
      },
      "request",
    );
  };
}

function setSecurityHeaders(headers: Headers, nonce: string, production: boolean) {
  if ((headers.get("content-type") ?? "").startsWith("text/html")) {
    headers.set(
      "content-security-policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        // No injected stylesheet; the one <style> element (the public room page's, which inlines its few rules so a
        // phone needs no second request) carries this response's nonce.
        `style-src 'self' 'nonce-${nonce}'`,
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join("; "),
    );
  }
  headers.set("x-content-type-options", "nosniff");
  headers.set("referrer-policy", "strict-origin-when-cross-origin");
  headers.set("x-frame-options", "DENY");
  if (production) headers.set("strict-transport-security", "max-age=31536000");
}

function socketAddress(c: Parameters<typeof getConnInfo>[0]) {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // not served by @hono/node-server (app.fetch called directly)
  }
}
