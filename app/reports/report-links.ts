/**
 * The report pages' links (browser-safe): the drill-down levels are routes under the list's path, and carry the
 * list's query (period, branch, search, page) so 'Voltar' and 'Ok' find the list as it was.
 */

/**
 * The drill-down's own parameters: the days' page, the day's procedure search, 'Mostrar revisões'; the incomplete
 * tasks' procedure (`tarefa`), the dialog's search (`busca`) and page (`itens`), the avatar shown (`avatar`).
 */
export const DRILL_DOWN_PARAMS = ["dias", "procedimento", "revisoes", "tarefa", "busca", "itens", "avatar"] as const;

/** `path` with `query` (a URLSearchParams or its text), and `extra` set on it. */
export function withQuery(path: string, query: URLSearchParams | string, extra: Record<string, string | null> = {}) {
  const search = new URLSearchParams(query);
  for (const [name, value] of Object.entries(extra)) {
    if (value === null) search.delete(name);
    else search.set(name, value);
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * A report list's shouldRevalidate: moving between its drill-down levels (the same list query, other drill-down
 * parameters) does not read the list again; a changed list query, a form or the default reasons do.
 */
export function listUnchanged({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: {
  currentUrl: URL;
  nextUrl: URL;
  formMethod?: string;
  defaultShouldRevalidate: boolean;
}) {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  const list = (url: URL) => {
    const search = new URLSearchParams(url.search);
    for (const name of DRILL_DOWN_PARAMS) search.delete(name);
    search.sort();
    return search.toString();
  };
  return list(currentUrl) !== list(nextUrl) ? true : defaultShouldRevalidate && currentUrl.search === nextUrl.search;
}

/** A drill-down's own page number, kept in `name`: 1 when absent or not a number. */
export function dialogPage(search: URLSearchParams, name: string) {
  return Math.max(1, Math.min(10_000, Math.trunc(Number(search.get(name))) || 1));
}

/** A drill-down's pager: this page of `total` items, `size` a page, and the links to the pages around it. */
export type DialogPagerState = {
  page: number;
  pages: number;
  total: number;
  previous: string | null;
  next: string | null;
};

export function dialogPager(url: URL, name: string, page: number, total: number, size: number): DialogPagerState {
  const pages = Math.max(1, Math.ceil(total / size));
  const href = (to: number) => withQuery(url.pathname, url.search, { [name]: to === 1 ? null : String(to) });
  return {
    page,
    pages,
    total,
    previous: page > 1 ? href(page - 1) : null,
    next: page < pages ? href(page + 1) : null,
  };
}
