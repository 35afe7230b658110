import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/** The two body limits (BODY_LIMIT and UPLOAD_LIMIT) and their defaults. */
export type BodyLimits = { body: number; upload: number };
export const DEFAULT_BODY_LIMITS: BodyLimits = { body: 1024 * 1024, upload: 20 * 1024 * 1024 };

export function formatBytes(bytes: number) {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1)).toLocaleString("pt-BR")} MB`;
  return `${Math.round(bytes / 1024).toLocaleString("pt-BR")} KB`;
}

export function tooLargeMessage(limit: number, upload: boolean) {
  return upload
    ? `Os arquivos enviados passam do limite de ${formatBytes(limit)} por envio. Envie arquivos menores ou um de cada vez.`
    : `Os dados enviados passam do limite de ${formatBytes(limit)}.`;
}

/**
 * Refuses a request body over its limit before anyone buffers it: from Content-Length at once, and while reading a
 * body sent without one (chunked), stopping at the limit. Multipart bodies (CSV files, images) get the larger upload
 * limit; every other body (forms, JSON) the small one. `answer` writes the 413 (JSON for the API, a page for the web).
 */
export function limitBodies(
  limits: BodyLimits,
  answer: (c: Context, message: string) => Response | Promise<Response>,
): MiddlewareHandler {
  const forBody = bodyLimit({
    maxSize: limits.body,
    onError: (c) => answer(c, tooLargeMessage(limits.body, false)),
  });
  const forUpload = bodyLimit({
    maxSize: limits.upload,
    onError: (c) => answer(c, tooLargeMessage(limits.upload, true)),
  });
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    return type.startsWith("multipart/form-data") ? forUpload(c, next) : forBody(c, next);
  };
}
