import sharp from "sharp";

import type { Storage } from "./storage.ts";

/**
 * Avatar thumbnails for the pages phones open (the public room page's cards): a square WebP of THUMB_SIZE pixels
 * (twice the 48 CSS pixels drawn, for 2x screens), a few KB instead of an upload of up to 2 MB. Made on first request
 * with sharp and kept beside the uploads: an avatar's file name is random and never reused, so a thumbnail never goes
 * stale.
 */
export const THUMB_SIZE = 96;
const THUMB_FOLDER = "avatar-thumbs";

/** The thumbnail of an avatar file; null when there is no such avatar or its bytes are not an image sharp reads. */
export async function avatarThumbnail(storage: Storage, name: string): Promise<Uint8Array | null> {
  const thumbName = `${name.replace(/\./g, "-")}.webp`;
  const cached = await storage.read(THUMB_FOLDER, thumbName);
  if (cached) return cached;
  const original = await storage.read("avatars", name);
  if (!original) return null;
  let bytes: Uint8Array;
  try {
    bytes = await sharp(original, { limitInputPixels: 40_000_000 })
      .rotate() // the photo's EXIF orientation, as phones take them
      .resize(THUMB_SIZE, THUMB_SIZE, { fit: "cover" })
      .webp({ quality: 70 })
      .toBuffer();
  } catch {
    return null;
  }
  await storage.write(THUMB_FOLDER, thumbName, bytes);
  return bytes;
}
