/**
 * List state lives in the page URL (DESIGN.md): ?q=&ordem=&dir=&pagina=&tamanho=, so a list can be shared by
 * e-mail and opens the same after sign-in. Changing the search or the page size goes back to page 1.
 */
import { INT32_MAX } from "../../api/domain/fields";
import { MAX_SEARCH_LENGTH, MAX_SORT_LENGTH } from "../../api/domain/limits";
import { parseBusinessDate } from "../../api/domain/schedule-expansion";
export const PAGE_SIZE_OPTIONS = [
  { value: "20", label: "20" },
  { value: "40", label: "40" },
  { value: "80", label: "80" },
  { value: "160", label: "160" },
  { value: "todos", label: "Todos" },
] as const;

export type ListParams = {
  q: string;
  ordem: string;
  dir: "asc" | "desc";
  pagina: number;
  tamanho: string;
  /**
   * Other query values a list keeps in its sort and pager links (the environments' 'Filtrar por' fields:
   * [["campos", "setor"], ...]). The search form carries them as its own fields.
   */
  extra?: [string, string][];
};

export function readListParams(url: URL | string, defaultSort: string): ListParams {
  const search = new URL(url, "http://x").searchParams;
  const tamanho = search.get("tamanho") ?? "20";
  // A sort name the API would refuse (too long) is no sort name: the list's own order.
  const ordem = textParam(search.get("ordem"), Infinity);
  return {
    q: textParam(search.get("q")),
    ordem: ordem && ordem.length <= MAX_SORT_LENGTH ? ordem : defaultSort,
    dir: search.get("dir") === "desc" ? "desc" : "asc",
    pagina: pageParam(search.get("pagina")),
    tamanho: PAGE_SIZE_OPTIONS.some((option) => option.value === tamanho) ? tamanho : "20",
  };
}

/** The API's paging query for these params. */
export function apiListQuery(params: ListParams) {
  return {
    q: params.q || undefined,
    sort: params.ordem,
    dir: params.dir,
    page: params.pagina,
    size: params.tamanho === "todos" ? 0 : Number(params.tamanho),
  };
}

/** A link to the same list with some params changed; default values are left out to keep URLs short. */
export function listHref(pathname: string, params: ListParams, changes: Partial<ListParams>, defaultSort: string) {
  const next = { ...params, ...changes };
  if (changes.q !== undefined || changes.tamanho !== undefined) next.pagina = changes.pagina ?? 1;
  const search = new URLSearchParams();
  if (next.q) search.set("q", next.q);
  if (next.ordem !== defaultSort) search.set("ordem", next.ordem);
  if (next.dir !== "asc") search.set("dir", next.dir);
  if (next.pagina !== 1) search.set("pagina", String(next.pagina));
  if (next.tamanho !== "20") search.set("tamanho", next.tamanho);
  for (const [name, value] of next.extra ?? []) search.append(name, value);
  const query = search.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** The pager shows the pages within 5 of the current one (spec 000 §9). */
export function pagerPages(current: number, totalPages: number) {
  const pages: number[] = [];
  for (let page = Math.max(1, current - 5); page <= Math.min(totalPages, current + 5); page++) pages.push(page);
  return pages;
}

/**
 * The URL readers below are where a page meets what anyone can type into its address: each reads a value the API
 * would refuse as absent (or as 404 for a path's id or day), so bad input never reaches the API as a 400 that the page
 * would answer with 500 (docs/security.md 'Hardening, round three').
 */

// Control characters (C0 and DEL): no text of ours holds them, and the databases refuse NUL outright.
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** A free text of the URL (a search): control characters as spaces, trimmed, at most `max` characters. */
export function textParam(value: string | null | undefined, max = MAX_SEARCH_LENGTH) {
  return (value ?? "").replace(CONTROL, " ").trim().slice(0, max);
}

/** An id in the URL's path (a collaborator, a room, an item): a positive 32-bit integer in digits, else 404. */
export function idParam(value: string | undefined, notFound = "Não encontrado") {
  const id = /^\d{1,10}$/.test(value ?? "") ? optionalIdParam(value!) : null;
  if (!id) throw new Response(notFound, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return id;
}

/** A day in the URL's path (yyyy-MM-dd): a real day (no 30 February, no month 13), else 404. */
export function dayParam(value: string | undefined, notFound = "Não encontrado") {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value ?? "") || parseBusinessDate(value!) !== value)
    throw new Response(notFound, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return value!;
}

/** An optional id of the URL (a filter, a form's choice): a positive 32-bit integer, else null. */
export function optionalIdParam(value: string | null) {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id <= INT32_MAX ? id : null;
}

/** The page a filtered list's URL asks for (`pagina`): 1 to 100,000, else 1. */
export function pageParam(value: string | null) {
  const page = Number(value ?? "1");
  return Number.isInteger(page) && page > 0 && page <= 100_000 ? page : 1;
}

/** A list's days filter (`de`, `ate`, yyyy-MM-dd): each a real date or null, given the wrong way round read right. */
export function dayRangeParams(search: URLSearchParams) {
  const day = (name: string) => parseBusinessDate(search.get(name) ?? "") ?? null;
  const [de, ate] = [day("de"), day("ate")].sort((a, b) => (a && b ? a.localeCompare(b) : 0));
  return { de: de ?? null, ate: ate ?? null };
}
