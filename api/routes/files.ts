import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requireUser } from "../auth/middleware.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { notFound } from "../lib/errors.ts";
import { bearer } from "../lib/openapi.ts";
import { readStrippedImage } from "../services/images.ts";
import { readPhoto } from "../services/photos.ts";
import { thumbnail } from "../services/thumbnails.ts";

/**
 * Uploaded files (docs/photos.md). Avatars are public (the room page shows staff photos; names are random); execution
 * photos need the bearer token and are served only within the caller's scope, anything else 404.
 */

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
};

export const FILE_NOT_FOUND = "Arquivo não encontrado";
const name = z.object({ name: z.string() });

const avatarFile = createRoute({
  method: "get",
  path: "/files/avatars/{name}",
  summary: "An avatar image (public: the room page shows staff photos; names are random)",
  request: { params: name },
  responses: { 200: { description: "The image" }, 404: { description: "No such file" } },
});

const avatarThumb = createRoute({
  method: "get",
  path: "/files/avatars/{name}/thumb",
  summary: "An avatar as a 96×96 WebP thumbnail (public, for the room page's cards)",
  request: { params: name },
  responses: { 200: { description: "The image (image/webp)" }, 404: { description: "No such file" } },
});

/** A photo route: bearer, and 404 for anything out of scope as for a name that does not exist (docs/photos.md). */
const photoRoute = <P extends string>(path: P, summary: string, image: string) =>
  createRoute({
    method: "get",
    path,
    summary,
    security: bearer,
    request: { params: name },
    responses: {
      200: { description: image },
      404: { description: "No such photo, or not in the caller's scope ('Arquivo não encontrado')" },
    },
  });

const photoFile = photoRoute(
  "/files/photos/{name}",
  "An execution photo (history.image) as stored, without metadata, if its booking is in the caller's scope",
  "The image (JPEG, PNG, GIF or WebP, from the file's extension)",
);

const photoThumb = photoRoute(
  "/files/photos/{name}/thumb",
  "An execution photo as a 320-pixel-wide WebP thumbnail (made once), if its booking is in scope",
  "The image (image/webp)",
);

/**
 * A year, immutable: a file's name is random and never reused. Avatars are public; a photo's answer depends on the
 * caller, so only the browser may keep it (`private`), never a shared cache.
 */
const PUBLIC_IMMUTABLE = "public, max-age=31536000, immutable";
const PRIVATE_IMMUTABLE = "private, max-age=31536000, immutable";

const contentTypeOf = (fileName: string) =>
  CONTENT_TYPES[fileName.split(".").pop() ?? ""] ?? "application/octet-stream";

function image(bytes: Uint8Array, contentType: string, cacheControl: string) {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { "content-type": contentType, "cache-control": cacheControl, "x-content-type-options": "nosniff" },
  });
}

/** A stored image only its caller may see (a photo in scope), by its file name's type. */
export const privateImage = (bytes: Uint8Array, fileName: string) =>
  image(bytes, contentTypeOf(fileName), PRIVATE_IMMUTABLE);

export function fileRoutes(deps: ApiDeps) {
  const app = new OpenAPIHono<ApiEnv>();
  const { db } = deps.database;

  app.openapi(avatarFile, async (c) => {
    const { name } = c.req.valid("param");
    const bytes = await readStrippedImage(deps.storage, "avatars", name);
    if (!bytes) throw notFound(FILE_NOT_FOUND);
    return image(bytes, contentTypeOf(name), PUBLIC_IMMUTABLE);
  });
  app.openapi(avatarThumb, async (c) => {
    const bytes = await thumbnail(deps.storage, "avatar", c.req.valid("param").name);
    if (!bytes) throw notFound(FILE_NOT_FOUND);
    return image(bytes, "image/webp", PUBLIC_IMMUTABLE);
  });

  // This module is mounted with the public routes (avatars), so the photos ask for the token themselves.
  app.use("/files/photos/*", requireUser(deps));
  app.openapi(photoFile, async (c) => {
    const { name } = c.req.valid("param");
    const bytes = await readPhoto({ db, storage: deps.storage }, c.get("scope"), name, "full");
    if (!bytes) throw notFound(FILE_NOT_FOUND);
    return image(bytes, contentTypeOf(name), PRIVATE_IMMUTABLE);
  });
  app.openapi(photoThumb, async (c) => {
    const bytes = await readPhoto({ db, storage: deps.storage }, c.get("scope"), c.req.valid("param").name, "thumb");
    if (!bytes) throw notFound(FILE_NOT_FOUND);
    return image(bytes, "image/webp", PRIVATE_IMMUTABLE);
  });
  return app;
}
