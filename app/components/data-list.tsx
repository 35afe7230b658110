import type { ReactNode } from "react";

import type { ListParams } from "~/lib/list-params";

import { AppLink } from "./app-link";
import { SortHeader } from "./list-controls";

/**
 * The shared list (STYLE.md 7a): one <table> whose layout the stylesheet switches by width, so it needs no JS.
 * Wide: a plain table. Below 720 px every row is a card: the tick box beside the primary (name) cell, the other
 * cells as 'label: value' (their `label` travels in data-label), the row actions as buttons under them. The header
 * row then shows only what acts on the whole list (tick all, sort links). The table roles are written out because
 * browsers drop a table's semantics once CSS changes its display.
 */
export type DataColumn<Row> = {
  id: string;
  /** Header text, and the label in front of the value on a card. */
  label: string;
  cell: (row: Row) => ReactNode;
  /** The column the card starts with (the item's name): shown first, bold, with the tick box beside it. */
  primary?: boolean;
  /** The list's sort key for this column: the header becomes a sort link. */
  sortKey?: string;
  /** Long text (a comma-joined list): wraps in the wide table too, instead of widening it. */
  wrap?: boolean;
};

export type RowAction = {
  label: string;
  to: string;
  accessibleName: string;
  /** Destructive (Remover): red on the card. */
  danger?: boolean;
  onClick?: (event: React.MouseEvent) => void;
};

type DataListProps<Row> = {
  rows: Row[];
  rowKey: (row: Row) => string | number;
  columns: DataColumn<Row>[];
  /** Sorting state for the columns that have a sortKey. */
  sort?: { params: ListParams; defaultSort: string; path?: string };
  /** The tick column: its header control ('Marcar Todos') and each row's tick box. */
  tick?: { header: ReactNode; cell: (row: Row) => ReactNode };
  /** Row actions: one column per action in the table, buttons under the card on phones. */
  actions?: { label: string; action: (row: Row) => RowAction }[];
  label?: string;
  /** Many columns (the environments): tighter cells and headers that wrap, so the wide table scrolls less. */
  wide?: boolean;
};

export function DataList<Row>({ rows, rowKey, columns, sort, tick, actions = [], label, wide }: DataListProps<Row>) {
  return (
    <div className="table-scroll">
      <table
        className={wide ? "data-table data-list data-list-wide" : "data-table data-list"}
        aria-label={label}
        role="table"
      >
        <thead role="rowgroup">
          <tr role="row">
            {tick ? (
              <th scope="col" className="col-tick" role="columnheader">
                {tick.header}
              </th>
            ) : null}
            {columns.map((column) =>
              column.sortKey && sort ? (
                <SortHeader
                  key={column.id}
                  column={column.sortKey}
                  label={column.label}
                  params={sort.params}
                  defaultSort={sort.defaultSort}
                  path={sort.path}
                />
              ) : (
                <th key={column.id} scope="col" role="columnheader">
                  {column.label}
                </th>
              ),
            )}
            {actions.map((action) => (
              <th key={action.label} scope="col" className="col-action" role="columnheader">
                {action.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row">
              {tick ? (
                <td className="col-tick" role="cell">
                  {tick.cell(row)}
                </td>
              ) : null}
              {columns.map((column) => (
                <td
                  key={column.id}
                  role="cell"
                  className={column.primary ? "col-primary" : column.wrap ? "col-wrap" : undefined}
                  data-label={column.label}
                >
                  {column.cell(row)}
                </td>
              ))}
              {actions.map(({ label: actionLabel, action }) => {
                const { label: text, to, accessibleName, onClick, danger } = action(row);
                return (
                  <td key={actionLabel} className="col-action" role="cell">
                    <AppLink
                      href={to}
                      aria-label={accessibleName}
                      onClick={onClick}
                      className={danger ? "row-action row-action-danger" : "row-action"}
                    >
                      {text}
                    </AppLink>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
