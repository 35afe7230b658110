import { Form, useLocation, useSubmit } from "@remix-run/react";
import { Fragment, type ChangeEvent, type ReactNode } from "react";

import { MAX_PAGE_ROWS } from "../../api/domain/limits";

import { listHref, PAGE_SIZE_OPTIONS, pagerPages, type ListParams } from "~/lib/list-params";
import { useHydrated } from "~/lib/use-hydrated";

import { AppLink } from "./app-link";
import type { SortField } from "./sort-header";

/**
 * The parts every list page shares (DESIGN.md: one implementation per shared shape): search and page size as a
 * GET form, sortable headers, the pager. All plain links and forms; JS only submits a size or sort choice at once.
 */
export function ListSearch({
  params,
  label,
  defaultSort,
  filters,
  children,
  sortFields,
  pageSize = true,
  submitLabel,
}: {
  params: ListParams;
  label: string;
  defaultSort: string;
  /** Fields shown beside the search (a report's branch and period). */
  filters?: ReactNode;
  /** Secondary fields, folded with the sort and page size in 'Opções da lista' on phones ('Filtrar por'). */
  children?: ReactNode;
  /** The list's sortable columns (`sortFields` of ./sort-header): on phones a sort choice replaces the header links. */
  sortFields?: readonly SortField[];
  /** False where the list has a fixed page size (the users list, spec 000 §9). */
  pageSize?: boolean;
  /** The button's text where the spec names it (the activity reports' 'Pesquisar'); else 'Buscar'. */
  submitLabel?: string;
}) {
  const submit = useSubmit();
  // With JS a new page size or order applies at once; without it the button applies it too, and says so.
  const hydrated = useHydrated();
  const submitNow = (event: ChangeEvent<HTMLSelectElement>) => submit(event.currentTarget.form);
  const hasOptions = Boolean(children) || Boolean(sortFields?.length) || pageSize;
  return (
    <Form method="get" className="list-search" role="search">
      {sortFields?.length ? null : (
        <>
          {params.ordem !== defaultSort ? <input type="hidden" name="ordem" value={params.ordem} /> : null}
          {params.dir !== "asc" ? <input type="hidden" name="dir" value={params.dir} /> : null}
        </>
      )}
      <div className="field list-search-query">
        <label htmlFor="q">{label}</label>
        <input id="q" name="q" type="search" defaultValue={params.q} placeholder="Digite para buscar" />
      </div>
      {filters}
      <button type="submit" className="button list-search-submit">
        {submitLabel ?? (hydrated || !hasOptions ? "Buscar" : "Buscar e aplicar")}
      </button>
      {hasOptions ? (
        // On phones the secondary controls fold here so the data starts on the first screen (issue 27 §8); on wider
        // screens the stylesheet shows them in the form's row and hides the summary.
        <details className="list-options">
          <summary>Opções da lista</summary>
          <div className="list-options-body">
            {children}
            {sortFields?.length ? (
              // Keyed by the order shown: a header link changes it without drawing the form anew (with JS).
              <Fragment key={`${params.ordem}|${params.dir}`}>
                <div className="field list-sort">
                  <label htmlFor="ordem">Ordenar por</label>
                  <select id="ordem" name="ordem" defaultValue={params.ordem} onChange={submitNow}>
                    {sortFields.map((field) => (
                      <option key={field.key} value={field.key}>
                        {field.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field list-sort">
                  <label htmlFor="dir">Ordem</label>
                  <select id="dir" name="dir" defaultValue={params.dir} onChange={submitNow}>
                    <option value="asc">Crescente</option>
                    <option value="desc">Decrescente</option>
                  </select>
                </div>
              </Fragment>
            ) : null}
            {pageSize ? (
              <div className="field field-narrow">
                <label htmlFor="tamanho">Itens por página</label>
                <select id="tamanho" name="tamanho" defaultValue={params.tamanho} onChange={submitNow}>
                  {PAGE_SIZE_OPTIONS.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
          </div>
        </details>
      ) : null}
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
