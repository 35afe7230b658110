import { Form, useLocation, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";

import { MAX_PAGE_ROWS } from "../../api/domain/limits";

import { listHref, PAGE_SIZE_OPTIONS, pagerPages, type ListParams } from "~/lib/list-params";
import { useHydrated } from "~/lib/use-hydrated";

import { AppLink } from "./app-link";

/**
 * The parts every list page shares (DESIGN.md: one implementation per shared shape): search and page size as a
 * GET form, sortable headers, the pager. All plain links and forms; JS only submits the size choice at once.
 */
export function ListSearch({
  params,
  label,
  defaultSort,
  children,
  submitLabel,
}: {
  params: ListParams;
  label: string;
  defaultSort: string;
  /** More fields of the same GET form (the environments' 'Filtrar por' choices, which are `params.extra`). */
  children?: ReactNode;
  /** The button's text where the spec names it (the activity reports' 'Pesquisar'); else 'Buscar'. */
  submitLabel?: string;
}) {
  const submit = useSubmit();
  // With JS a new page size applies at once; without it the button applies it too, and says so.
  const hydrated = useHydrated();
  return (
    <Form method="get" className="list-search" role="search">
      {params.ordem !== defaultSort ? <input type="hidden" name="ordem" value={params.ordem} /> : null}
      {params.dir !== "asc" ? <input type="hidden" name="dir" value={params.dir} /> : null}
      <div className="field">
        <label htmlFor="q">{label}</label>
        <input id="q" name="q" type="search" defaultValue={params.q} placeholder="Digite para buscar" />
      </div>
      {children}
      <div className="field field-narrow">
        <label htmlFor="tamanho">Itens por página</label>
        <select
          id="tamanho"
          name="tamanho"
          defaultValue={params.tamanho}
          onChange={(event) => submit(event.currentTarget.form)}
        >
          {PAGE_SIZE_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button">
        {submitLabel ?? (hydrated ? "Buscar" : "Buscar e aplicar")}
      </button>
    </Form>
  );
}

export function Pager({
  params,
  total,
  defaultSort,
  path,
}: {
  params: ListParams;
  total: number;
  defaultSort: string;
  /** The list's path, when the page may show a drill-down route's path (a report's dialog). */
  path?: string;
}) {
  const location = useLocation();
  const pathname = path ?? location.pathname;
  // 'Todos' is one page of at most MAX_PAGE_ROWS rows (the API's cap): past it, the page says what it left out.
  if (params.tamanho === "todos" && total > MAX_PAGE_ROWS)
    return (
      <p className="notice pager-summary" role="status">
        {`Mostrando os primeiros ${count(MAX_PAGE_ROWS)} de ${count(total)} registros. ` +
          "Use a busca ou as páginas de 160 para ver os demais."}
      </p>
    );
  const size = params.tamanho === "todos" ? Math.max(total, 1) : Number(params.tamanho);
  const totalPages = Math.max(1, Math.ceil(total / size));
  if (totalPages <= 1) return <p className="muted pager-summary">{summary(total)}</p>;
  const href = (pagina: number) => listHref(pathname, params, { pagina }, defaultSort);
  return (
    <nav className="pager" aria-label="Paginação">
      <p className="muted pager-summary">{summary(total)}</p>
      <ul>
        {params.pagina > 1 ? (
          <li>
            <AppLink href={href(params.pagina - 1)} aria-label="Página anterior">
              ‹
            </AppLink>
          </li>
        ) : null}
        {pagerPages(params.pagina, totalPages).map((page) => (
          <li key={page}>
            {page === params.pagina ? (
              <span aria-current="page">{page}</span>
            ) : (
              <AppLink href={href(page)} aria-label={`Página ${page}`}>
                {page}
              </AppLink>
            )}
          </li>
        ))}
        {params.pagina < totalPages ? (
          <li>
            <AppLink href={href(params.pagina + 1)} aria-label="Próxima página">
              ›
            </AppLink>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

const count = (value: number) => value.toLocaleString("pt-BR");
const summary = (total: number) => (total === 1 ? "1 registro" : `${total} registros`);
