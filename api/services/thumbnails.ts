import sharp, { type ResizeOptions } from "sharp";

import { PHOTO_FOLDER } from "./execution.ts";
import { IMAGE_MAX_PIXELS } from "./images.ts";
import type { Storage } from "./storage.ts";

/**
 * Thumbnails for the pages phones open: a WebP of a few KB instead of an upload of up to 2 MB. Made on first request
 * with sharp and kept beside the uploads, in a folder per kind: an upload's file name is random and never reused, so a
 * thumbnail never goes stale (its answer is cached for a year).
 */

/** Avatars (the public room page's cards): a square of 96 pixels, twice the 48 CSS pixels drawn, for 2x screens. */
export const THUMB_SIZE = 96;
/**
 * Execution photos (report lists, phones; docs/photos.md): 320 pixels wide, the height in proportion, never enlarged.
 * A list draws them at most 160 CSS pixels wide, so 2x screens get their pixels too.
 */
export const PHOTO_THUMB_WIDTH = 320;

const KINDS = {
  avatar: {
    folder: "avatars",
    thumbFolder: "avatar-thumbs",
    resize: { width: THUMB_SIZE, height: THUMB_SIZE, fit: "cover" },
  },
  photo: {
    folder: PHOTO_FOLDER,
    thumbFolder: "photo-thumbs",
    resize: { width: PHOTO_THUMB_WIDTH, withoutEnlargement: true },
  },
} as const satisfies Record<string, { folder: string; thumbFolder: string; resize: ResizeOptions }>;

export type ThumbnailKind = keyof typeof KINDS;

/** The thumbnail of an upload of this kind; null when there is no such file or its bytes are not an image sharp reads. */
export async function thumbnail(storage: Storage, kind: ThumbnailKind, name: string): Promise<Uint8Array | null> {
  const { folder, thumbFolder, resize } = KINDS[kind];
  const thumbName = `${name.replace(/\./g, "-")}.webp`;
  const cached = await storage.read(thumbFolder, thumbName);
  if (cached) return cached;
  const original = await storage.read(folder, name);
  if (!original) return null;
  let bytes: Uint8Array;
  try {
    bytes = await sharp(original, { limitInputPixels: IMAGE_MAX_PIXELS })
      .rotate() // the photo's EXIF orientation, as phones take them
      .resize(resize)
      .webp({ quality: 70 })
      .toBuffer();
  } catch {
    return null;
  }
  await storage.write(thumbFolder, thumbName, bytes);
  return bytes;
}
