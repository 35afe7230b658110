import type { AppLoadContext } from "@remix-run/node";

/**
 * The server's public base URL for what leaves the app and must keep working for years (the QR codes printed on
 * doors): PUBLIC_URL when set, else the origin the request came to (docs/qr-codes.md).
 */
export function publicUrlOf(context: Pick<AppLoadContext, "publicUrl">, request: Request) {
  return context.publicUrl ?? new URL(request.url).origin;
}
