import { readListParams, type ListParams } from "~/lib/list-params";

/** The list's default order (the API's sort key and the URL's ordem): by name. */
export const DEFAULT_SORT = "nome";

/** The users list is fixed at 20 a page (spec 000 §2, §9): a tamanho in the URL is ignored. */
export function readUserListParams(url: URL | string): ListParams {
  return { ...readListParams(url, DEFAULT_SORT), tamanho: "20" };
}
