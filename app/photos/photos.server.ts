import type { LoaderFunctionArgs } from "@remix-run/node";

import { callApiForFile, type SignedInCaller } from "~/api.server";
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
export function photoFileLoader(args: LoaderFunctionArgs, size: PhotoSize) {
  return streamedFile(args, (api) => getPhoto(api, args.params.name ?? "", size));
}

/**
 * /ocorrencias/:id/fotos/:name and /inspecoes/:id/fotos/:name: a photo of an incident (the visitor's, a resolution's)
 * or of an inspection's item, from the API's same path, for whoever may read the incident or the inspection.
 */
export function recordPhotoLoader(args: LoaderFunctionArgs, base: "/ocorrencias" | "/inspecoes") {
  const path = `${base}/${encodeURIComponent(args.params.id ?? "")}/fotos/${encodeURIComponent(args.params.name ?? "")}`;
  return streamedFile(args, (api) => callApiForFile(api, path));
}

/** A file the API serves to the signed-in user, streamed on with its headers; its error as plain text. */
async function streamedFile(
  { request, context }: LoaderFunctionArgs,
  fetchFile: (api: SignedInCaller) => ReturnType<typeof callApiForFile>,
) {
  const auth = await requireUser(request, context);
  const result = await fetchFile({ context, request, auth });
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
