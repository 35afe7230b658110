import type { AppLoadContext } from "@remix-run/node";

/**
 * The server's public base URL for what leaves the app and must keep working for years (the QR codes printed on
 * doors): the public origin server.ts works out per request (api/lib/http-guards.ts `publicOrigin`: PUBLIC_URL, else
 * behind TRUST_PROXY the proxy's forwarded host and scheme, else the request's own; docs/qr-codes.md), or the
 * request's origin where no server.ts made the context.
 */
export function publicUrlOf(context: Pick<AppLoadContext, "publicUrl">, request: Request) {
  return context.publicUrl ?? new URL(request.url).origin;
}
