/**
 * The process's own HTTP guards (server.ts): which address a request comes from, the public origin of links, whether
 * a form post is from that origin, and the plain pages for 413 and 503 that must work when Remix or the database
 * cannot.
 */

/** The header server.ts sets (overwriting what a client sent) so the API's rate limits see the caller's address. */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

/** The header server.ts sets (overwriting what a client sent) so the API's e-mailed links use the public origin. */
export const PUBLIC_ORIGIN_HEADER = "x-public-origin";

/** What the process knows of its place on the network: PUBLIC_URL and how many proxies of ours are in front. */
export type NetworkSettings = { publicUrl?: string; trustProxy: number };

/**
 * The value of an X-Forwarded-* header that the outermost proxy of ours wrote. Each proxy appends to the list, so
 * the entries a client wrote are on the left and the one our first proxy added is `hops` from the right; fewer
 * entries than hops (a proxy that overwrites instead) give the leftmost. Without proxies of ours, nothing.
 */
function forwarded(request: Request, name: string, hops: number) {
  if (hops < 1) return undefined;
  const values = (request.headers.get(name) ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  return values[Math.max(0, values.length - hops)];
}

/**
 * The client's address: the socket's peer, or, behind TRUST_PROXY proxies of ours, the address the first of them
 * saw (counted from the right of X-Forwarded-For). The leftmost entries are whatever the client wrote: believing
 * them let a client rotate its address past the sign-in limits (issue 22 item 5).
 */
export function clientAddressOf(request: Request, socketAddress: string | undefined, trustProxy: number) {
  return forwarded(request, "x-forwarded-for", trustProxy)?.slice(0, 64) ?? socketAddress ?? "unknown";
}

/**
 * The origin users reach us at, for links that leave the app (QR codes, e-mailed links) and for the origin check of
 * form posts: PUBLIC_URL when set; else, behind proxies of ours, the host and scheme the first of them received
 * (X-Forwarded-Host, X-Forwarded-Proto); else the request's own. One notion for both, so a link never points where
 * a post from it would be refused (issue 22 item 12: behind nginx without PUBLIC_URL, links lost the port).
 */
export function publicOrigin(request: Request, settings: NetworkSettings) {
  if (settings.publicUrl) return settings.publicUrl;
  const own = new URL(request.url);
  const host = forwarded(request, "x-forwarded-host", settings.trustProxy);
  const scheme = forwarded(request, "x-forwarded-proto", settings.trustProxy)?.toLowerCase();
  if (!host && !scheme) return own.origin;
  // A name or address with an optional port, nothing else (no path, no credentials): otherwise the request's own.
  if (host && !HOST.test(host)) return own.origin;
  const protocol = scheme === "https" || scheme === "http" ? `${scheme}:` : own.protocol;
  try {
    return new URL(`${protocol}//${host ?? own.host}`).origin;
  } catch {
    return own.origin; // a port past 65535
  }
}

/**
 * The origin of links built outside a request (the incident alerts' sweep): PUBLIC_URL, which production requires
 * (api/config.ts); else, in development, the address the server listens on, a wildcard address read as localhost.
 * A relative link is never an answer: an e-mail client has no page to resolve it against.
 */
export function serverOrigin(settings: { publicUrl?: string; host: string }, port: number) {
  if (settings.publicUrl) return settings.publicUrl;
  const host = ["0.0.0.0", "::", "[::]"].includes(settings.host) ? "localhost" : settings.host;
  return new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`).origin;
}

const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Non-GET requests to the web app must come from our own pages: their Origin must be the public origin. Browsers
 * send Origin on every POST, same-origin form posts included, so a post without one is not from a browser page of
 * ours and is refused too; Referer is no fallback (a browser that sends it sends Origin as well).
 * Remix checks again after us, the Origin's host against the first X-Forwarded-Host or else Host, and throws (a 500)
 * when they differ: such a post (a proxy that rewrites Host, a client's own X-Forwarded-Host) is refused here first.
 */
export function sameOrigin(request: Request, expected: string) {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const named = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  try {
    const url = new URL(origin);
    return url.origin === new URL(expected).origin && url.host === named;
  } catch {
    return false;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A page (or JSON for data requests) for answers given outside Remix: a post from another origin (403), a body too
 * large or unreadable (413, 415, 400) and the database out (503).
 * No script and no inline style, so the CSP needs nothing for it.
 */
export function noticeResponse(
  request: Request,
  status: 400 | 403 | 413 | 415 | 429 | 503,
  title: string,
  message: string,
  headers: Record<string, string> = {},
) {
  const wantsHtml =
    (request.headers.get("accept") ?? "").includes("text/html") && !new URL(request.url).pathname.endsWith(".data");
  if (!wantsHtml) {
    return Response.json({ message }, { status, headers: { "cache-control": "no-store", ...headers } });
  }
  const body = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} | Limpeza</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Voltar ao início</a></p></main></body>
</html>`;
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * Web actions read their body with request.formData(), which throws on anything but a well-formed form: that was a
 * 500. The web app only ever posts forms (urlencoded or multipart), so any other body is refused here with 415, and an
 * empty body without a type is read as an empty form. A multipart body that does not parse was refused (400) before,
 * by the streaming form guard's own parse (`limitBodies`, api/lib/body-limit.ts): no second parse here.
 */
export async function checkFormBody(request: Request): Promise<Response | null> {
  if (request.method === "GET" || request.method === "HEAD") return null;
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type) {
    const length = request.headers.get("content-length");
    if ((length === null || length === "0") && !request.headers.has("transfer-encoding")) {
      request.headers.set("content-type", FORM_TYPES[0]);
      return null;
    }
  }
  if (!FORM_TYPES.some((form) => type.startsWith(form))) {
    return noticeResponse(request, 415, "Formato não suportado", "Envie os dados pelo formulário da página.");
  }
  return null;
}
