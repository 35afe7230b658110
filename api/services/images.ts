import { fileTypeFromBuffer } from "file-type";
import sharp, { type FormatEnum, type Metadata, type Sharp } from "sharp";

import { ApiError } from "../lib/errors.ts";

import type { Storage } from "./storage.ts";

/**
 * Uploaded images, one path for all of them (docs/photos.md 'Metadata'): execution photos, avatars, visitors' and
 * inspections' photos and incident proofs are decoded by sharp, turned upright by their EXIF orientation and stored
 * as a JPEG without any metadata, so no file tells where (GPS) or with what phone it was taken. Files stored before
 * that lose their metadata the first time they are read (`readStrippedImage`).
 */

export const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * The most pixels any image may have: decoding holds width × height × 3 bytes (40 MP is 120 MB), and a file of a few
 * hundred KB can declare far more. Read from the header before anything is decoded.
 */
export const IMAGE_MAX_PIXELS = 40_000_000;

export const IMAGE_TEXTS = {
  type: "A foto deve ser uma imagem JPEG, PNG, GIF ou WebP.",
  tooLarge: `A foto é grande demais: no máximo ${IMAGE_MAX_PIXELS / 1_000_000} megapixels.`,
} as const;

export type UploadOptions = {
  /** The longest side kept (the image is shrunk to fit, never enlarged); none keeps every pixel. */
  maxSide?: number;
  /** The form field the refusal names, if the caller's answers name fields. */
  field?: string;
  /** The refusal of bytes that are not an accepted image, when the caller's differs. */
  typeMessage?: string;
};

/**
 * Without sharp's `mozjpeg` preset: its trellis quantisation made an 8-megapixel phone photo take 12 times as long
 * (docs/photos.md 'Metadata') for files 14% smaller.
 */
const JPEG = { quality: 80 } as const;

const tooManyPixels = (meta: Metadata) => (meta.width ?? 0) * (meta.height ?? 0) > IMAGE_MAX_PIXELS;

/** A file's bytes as sharp reads them, never past the pixel limit, upright (frames of an animation are left as they are). */
function decoder(bytes: Uint8Array, animated = false) {
  const image = sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, animated });
  return animated ? image : image.autoOrient();
}

/** An upload as stored: an accepted type (read from the bytes), within the pixel limit, upright, JPEG, no metadata. */
export async function reencodedUpload(bytes: Uint8Array, options: UploadOptions = {}): Promise<Uint8Array> {
  const refusal = (status: 413 | 415, message: string) =>
    new ApiError(status, message, options.field ? { [options.field]: [message] } : undefined);
  const typeMessage = options.typeMessage ?? IMAGE_TEXTS.type;
  const type = bytes.byteLength ? await fileTypeFromBuffer(bytes) : undefined;
  if (!type || !IMAGE_TYPES.has(type.mime)) throw refusal(415, typeMessage);
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw refusal(415, typeMessage);
  }
  if (tooManyPixels(meta)) throw refusal(413, IMAGE_TEXTS.tooLarge);
  try {
    let image = decoder(bytes);
    if (options.maxSide)
      image = image.resize({
        width: options.maxSide,
        height: options.maxSide,
        fit: "inside",
        withoutEnlargement: true,
      });
    // A transparent PNG or GIF on white, not on JPEG's default black.
    return await image.flatten({ background: "#ffffff" }).jpeg(JPEG).toBuffer();
  } catch {
    throw refusal(415, typeMessage);
  }
}

/** Whether a stored file carries metadata that can say who, where or with what (EXIF with its GPS, XMP, IPTC). */
const carriesMetadata = (meta: Metadata) => Boolean(meta.exif || meta.xmp || meta.iptc);

/** Writes a stored image's pixels again, upright and without metadata, in its own format (its name says the type). */
function sameFormat(image: Sharp, format: keyof FormatEnum) {
  return format === "jpeg" ? image.jpeg(JPEG) : image.toFormat(format);
}

/**
 * A stored image as it may be served: a file written before uploads were re-encoded is stripped of its metadata on
 * its first read and written back under its own name, so every later read is the stripped file (docs/photos.md
 * 'Files stored before'). null when there is no such file, or when one with metadata cannot be re-encoded (over the
 * pixel limit): serving it would serve its metadata too.
 */
export async function readStrippedImage(storage: Storage, folder: string, name: string): Promise<Uint8Array | null> {
  const bytes = await storage.read(folder, name);
  if (!bytes) return null;
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    return bytes; // not an image sharp reads: nothing it could strip
  }
  if (!carriesMetadata(meta)) return bytes;
  if (tooManyPixels(meta) || !meta.format) return null;
  let stripped: Uint8Array;
  try {
    stripped = await sameFormat(decoder(bytes, (meta.pages ?? 1) > 1), meta.format).toBuffer();
  } catch {
    return null;
  }
  await storage.write(folder, name, stripped);
  return stripped;
}
