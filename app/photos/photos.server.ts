import type { LoaderFunctionArgs } from "@remix-run/node";

import { photoUrl } from "~/lib/photos";
import { getPhoto, type PhotoSize } from "~/models/files.server";
import { homeOf, requireUser, safeRedirectTo, signOutOnUnauthorized } from "~/session.server";

/** The API answer's headers a photo keeps on its way to the browser (the cache rule is the API's: docs/photos.md). */
const PASSED_ON = ["content-type", "content-length", "cache-control", "x-content-type-options"];

/**
 * /fotos/:name and /fotos/:name/miniatura: the photo (or its thumbnail) streamed from the API with the signed-in
 * user's token, with the API's headers. Signed out goes to sign-in, as every private URL; out of scope, or no such
 * photo, is the API's 404 'Arquivo não encontrado'.
 */
export async function photoFileLoader({ request, context, params }: LoaderFunctionArgs, size: PhotoSize) {
  const auth = await requireUser(request, context);
  const result = await getPhoto({ context, request, auth }, params.name ?? "", size);
  if (!result.ok) {
    await signOutOnUnauthorized(request, context, result.status);
    return new Response(result.message, {
      status: result.status,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const headers = new Headers();
  for (const name of PASSED_ON) {
    const value = result.response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(result.response.body, { status: 200, headers });
}

/**
 * /fotos/:name/ampliar?voltar=: the zoom page. The thumbnail's answer (a few KB, made once) tells whether the photo is
 * the user's to see, so a name out of scope is a 404 page rather than a broken image; 'Voltar' goes to `voltar`
 * through safeRedirectTo (a path of ours, else the user's home).
 */
export async function photoZoomLoader({ request, context, params }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  const name = params.name ?? "";
  const result = await getPhoto({ context, request, auth }, name, "thumb");
  if (!result.ok) {
    await signOutOnUnauthorized(request, context, result.status);
    throw new Response(result.message, { status: result.status });
  }
  await result.response.body?.cancel();
  const back = safeRedirectTo(new URL(request.url).searchParams.get("voltar"), homeOf(auth.user));
  return { src: photoUrl(name), back };
}
