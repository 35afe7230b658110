/**
 * Where a page loads an execution photo (history.image), from its file name: the web app's routes, which carry the
 * session to the API (an <img> cannot send the bearer token). docs/photos.md.
 */
const base = (name: string) => `/fotos/${encodeURIComponent(name)}`;

/** The photo as stored. */
export const photoUrl = (name: string) => base(name);

/** Its 320-pixel-wide WebP thumbnail, for lists and phones. */
export const photoThumbUrl = (name: string) => `${base(name)}/miniatura`;

/** The zoom page (works without JS): the photo as large as the screen allows and 'Voltar' to `back` (a path of ours). */
export const photoZoomUrl = (name: string, back: string) =>
  `${base(name)}/ampliar?${new URLSearchParams({ voltar: back })}`;
