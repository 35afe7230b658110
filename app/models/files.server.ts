import { callApiForFile, type SignedInCaller } from "~/api.server";

/** The file as stored, or its 320-pixel-wide WebP thumbnail (made once by the API). */
export type PhotoSize = "full" | "thumb";

/**
 * An execution photo (GET /files/photos/{name} and /thumb, docs/photos.md): the API's answer to stream on (bytes,
 * content type, cache headers), or its failure: 404 'Arquivo não encontrado' for anything outside the user's scope.
 */
export function getPhoto(api: SignedInCaller, name: string, size: PhotoSize) {
  return callApiForFile(api, `/files/photos/${encodeURIComponent(name)}${size === "thumb" ? "/thumb" : ""}`);
}
