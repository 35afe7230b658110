import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { notFound } from "../lib/errors.ts";
import { avatarThumbnail } from "../services/thumbnails.ts";

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
};

const avatarFile = createRoute({
  method: "get",
  path: "/files/avatars/{name}",
  summary: "An avatar image (public: the room page shows staff photos; names are random)",
  request: { params: z.object({ name: z.string() }) },
  responses: { 200: { description: "The image" }, 404: { description: "No such file" } },
});

const avatarThumb = createRoute({
  method: "get",
  path: "/files/avatars/{name}/thumb",
  summary: "An avatar as a 96×96 WebP thumbnail (public, for the room page's cards)",
  request: { params: z.object({ name: z.string() }) },
  responses: { 200: { description: "The image (image/webp)" }, 404: { description: "No such file" } },
});

const IMMUTABLE = "public, max-age=31536000, immutable";

export function fileRoutes(deps: ApiDeps) {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(avatarFile, async (c) => {
    const { name } = c.req.valid("param");
    const bytes = await deps.storage.read("avatars", name);
    if (!bytes) throw notFound("Arquivo não encontrado");
    const extension = name.split(".").pop() ?? "";
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "content-type": CONTENT_TYPES[extension] ?? "application/octet-stream",
      "cache-control": IMMUTABLE,
      "x-content-type-options": "nosniff",
    });
  });
  app.openapi(avatarThumb, async (c) => {
    const bytes = await avatarThumbnail(deps.storage, c.req.valid("param").name);
    if (!bytes) throw notFound("Arquivo não encontrado");
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "image/webp",
      "cache-control": IMMUTABLE,
      "x-content-type-options": "nosniff",
    });
  });
  return app;
}
