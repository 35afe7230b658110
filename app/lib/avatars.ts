/** Where a page loads an avatar's 96×96 thumbnail (api/routes/files.ts), from its file name. */
export function avatarThumbUrl(name: string) {
  return `/api/files/avatars/${encodeURIComponent(name)}/thumb`;
}
