/** Photos as phones send them, made with sharp in the test, so each test shows what metadata it sends. */
import sharp from "sharp";

/** Where the photo was taken, as a phone writes it (EXIF's GPS IFD, libvips' "ifd3"): Fortaleza. */
const FORTALEZA = {
  GPSLatitudeRef: "S",
  GPSLatitude: "3/1 43/1 2400/100",
  GPSLongitudeRef: "W",
  GPSLongitude: "38/1 32/1 1200/100",
  GPSMapDatum: "WGS-84",
};

/**
 * A picture of width × height pixels carrying EXIF with the phone's make and model and a GPS position; with
 * `orientation`, the EXIF tag a phone writes when held sideways (6: show it turned 90° clockwise).
 */
export async function photoWithGps(
  width: number,
  height: number,
  { format = "jpeg", orientation }: { format?: "jpeg" | "png"; orientation?: number } = {},
) {
  let image = sharp({ create: { width, height, channels: 3, background: "#c62828" } })
    .toFormat(format)
    .withExif({ IFD0: { Make: "Fonezinho", Model: "X1" }, IFD3: FORTALEZA });
  if (orientation) image = image.withMetadata({ orientation });
  return image.toBuffer();
}

/** Whether an EXIF block (as sharp's metadata gives it, "Exif\0\0" then TIFF) points at a GPS IFD (tag 0x8825). */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.subarray(exif.toString("latin1", 0, 4) === "Exif" ? 6 : 0);
  const little = tiff.toString("latin1", 0, 2) === "II";
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  const count = u16(ifd0);
  for (let entry = 0; entry < count; entry++) if (u16(ifd0 + 2 + entry * 12) === 0x8825) return true;
  return false;
}

/** A PNG of 8,000 × 5,001 pixels (40.008 megapixels, one over 40 million): 127 KB, one colour. */
export const overFortyMegapixels = () =>
  sharp({ create: { width: 8000, height: 5001, channels: 3, background: "#888888" } })
    .png()
    .toBuffer();
