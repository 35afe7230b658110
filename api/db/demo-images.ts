import sharp from "sharp";

/**
 * The demo's images, drawn with sharp from small SVGs (no file is read, no font is needed): the simulated
 * executions' photos and the collaborators' avatars the room page and the board show.
 */

/** A 64×48 JPEG of colour `rgb` with a darker band across: a stand-in for a photo taken in the room. */
export function demoPhoto([r, g, b]: [number, number, number]): Promise<Uint8Array> {
  const dark = `rgb(${Math.round(r * 0.6)},${Math.round(g * 0.6)},${Math.round(b * 0.6)})`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48">
    <rect width="64" height="48" fill="rgb(${r},${g},${b})"/><rect y="16" width="64" height="16" fill="${dark}"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 70 }).toBuffer();
}

const AVATAR_BACKGROUNDS = ["#00697a", "#7a4b00", "#3b5bab", "#8a2f5b", "#2f7a3b", "#5b4b8a"];

/** A 256×256 JPEG avatar: a person's silhouette on one of a few colours (`index` picks it). */
export function demoAvatar(index: number): Promise<Uint8Array> {
  const background = AVATAR_BACKGROUNDS[index % AVATAR_BACKGROUNDS.length];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" fill="${background}"/>
    <circle cx="128" cy="100" r="48" fill="#f1e3d3"/>
    <path d="M40 256c0-56 40-92 88-92s88 36 88 92z" fill="#f1e3d3"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}
