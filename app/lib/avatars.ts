/** Where a page loads an avatar's 96×96 thumbnail (api/routes/files.ts), from its file name. */
export function avatarThumbUrl(name: string) {
  return `/api/files/avatars/${encodeURIComponent(name)}/thumb`;
}

/** The avatar as stored (the zoomable viewer). */
export function avatarFullUrl(name: string) {
  return `/api/files/avatars/${encodeURIComponent(name)}`;
}
