import { useLocation } from "@remix-run/react";
import type { ReactNode } from "react";

import { listHref, type ListParams } from "~/lib/list-params";

import { AppLink } from "./app-link";

/** What DataList draws for a sortable column's header. */
export type SortLinks = { header: (column: string, label: string) => ReactNode };

/** The sort links of a list's headers: each column sorts by itself, a second click the other way. */
export function sortLinks(sort: { params: ListParams; defaultSort: string; path?: string }): SortLinks {
  return { header: (column, label) => <SortHeader column={column} label={label} {...sort} /> };
}

/** A sortable column's header: a link to the list sorted by it (again: the other way). */
function SortHeader({
  column,
  label,
  params,
  defaultSort,
  path,
}: {
  column: string;
  label: string;
  params: ListParams;
  defaultSort: string;
  /** The list's path, when the page may show a drill-down route's path (a report's dialog). */
  path?: string;
}) {
  const location = useLocation();
  const pathname = path ?? location.pathname;
  const active = params.ordem === column;
  const nextDir = active && params.dir === "asc" ? "desc" : "asc";
  return (
    <th
      scope="col"
      role="columnheader"
      aria-sort={active ? (params.dir === "asc" ? "ascending" : "descending") : "none"}
    >
      <AppLink href={listHref(pathname, params, { ordem: column, dir: nextDir }, defaultSort)} className="sort-link">
        {label}
        <span aria-hidden="true">{active ? (params.dir === "asc" ? " ▲" : " ▼") : " ↕"}</span>
      </AppLink>
    </th>
  );
}

/** A sortable column as the search form's 'Ordenar por' choice offers it. */
export type SortField = { key: string; label: string };

/** The sortable columns of a list (those with a sortKey), for ListSearch's sort choice. */
export function sortFields(columns: readonly { label: string; sortKey?: string }[]): SortField[] {
  return columns.flatMap((column) => (column.sortKey ? [{ key: column.sortKey, label: column.label }] : []));
}
