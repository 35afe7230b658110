/**
 * The process's own HTTP guards (server.ts): which address a request comes from, whether a form post is from our
 * origin, and the plain pages for 413 and 503 that must work when Remix or the database cannot.
 */

/** The header server.ts sets (overwriting what a client sent) so the API's rate limits see the caller's address. */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

/**
 * The client's address: the socket's peer, or, only when TRUST_PROXY says a proxy of ours is in front, the first
 * address of X-Forwarded-For. A client can write any X-Forwarded-* header, so without that setting they are ignored.
 */
export function clientAddressOf(request: Request, socketAddress: string | undefined, trustProxy: boolean) {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return socketAddress ?? "unknown";
}

/**
 * Non-GET requests to the web app must come from our own pages. Browsers send Origin on every cross-site POST; its
 * absence means a same-site navigation or a non-browser client. X-Forwarded-Host is believed only with TRUST_PROXY.
 */
export function sameOrigin(request: Request, trustProxy: boolean) {
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return origin !== "null";
  const host =
    (trustProxy && request.headers.get("x-forwarded-host")?.split(",")[0]?.trim()) || request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A page (or JSON for data requests) for answers given outside Remix: a body too large or unreadable (413, 415,
 * 400) and the database out (503).
 * No script and no inline style, so the CSP needs nothing for it.
 */
export function noticeResponse(
  request: Request,
  status: 400 | 413 | 415 | 503,
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
 * 500. The web app only ever posts forms (urlencoded or multipart), so any other body is refused here with 415, a
 * multipart body that does not parse with 400, and an empty body without a type is read as an empty form.
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
  if (type.startsWith("multipart/form-data")) {
    try {
      await request.clone().formData();
    } catch {
      return noticeResponse(
        request,
        400,
        "Formulário inválido",
        "Os dados enviados não puderam ser lidos. Tente novamente.",
      );
    }
  }
  return null;
}
