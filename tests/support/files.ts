/** Upload fixtures built in code, so each test shows exactly what bytes it sends. */
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A valid RGB PNG of width x height pixels of one colour. */
export function tinyPng(width = 2, height = 2, rgb: [number, number, number] = [0x1e, 0x88, 0xe5]): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(pixels)),
      chunk("IEND", new Uint8Array()),
    ]),
  );
}

/** A multipart body for PATCH /api/users/avatar. */
export function avatarForm(file: { bytes: Uint8Array; name: string; type: string }, userId?: number) {
  const form = new FormData();
  form.set("avatar", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }));
  if (userId !== undefined) form.set("user_id", String(userId));
  return form;
}

export const pngFile = (userId?: number) =>
  avatarForm({ bytes: tinyPng(), name: "foto.png", type: "image/png" }, userId);
