/** Lower case without accents: the searches made in a loader ignore both, as every search of the product. */
export function foldForSearch(text: string) {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}
