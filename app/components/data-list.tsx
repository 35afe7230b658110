import { Fragment, type ReactNode } from "react";

import { AppLink } from "./app-link";
import type { SortLinks } from "./sort-header";

/**
 * The shared list (STYLE.md 7a): one <table> whose layout the stylesheet switches by the room it has (a container
 * query), so it needs no JS. With room: a plain table. Below 720 px (or `cardsBelow`) every row is a card: the tick
 * box beside the primary (name) cell, the other cells as 'label: value' (their `label` travels in data-label), the
 * row actions as buttons under them. The header row then shows only what acts on the whole list (tick all, sort
 * links). The table roles are written out because
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
  /** A control of its own (a button that cannot be a link): shown with the row actions, without a label. */
  action?: boolean;
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
  /** The header links of the columns that have a sortKey (`sortLinks` of ./sort-header: kept out of lists that
   *  do not sort, such as the agenda items of the scheduling form, whose script is at the JS budget). */
  sort?: SortLinks;
  /** The tick column: its header control ('Marcar Todos') and each row's tick box. */
  tick?: { header: ReactNode; cell: (row: Row) => ReactNode };
  /** Row actions: one column per action in the table, buttons under the card on phones. */
  actions?: { label: string; action: (row: Row) => RowAction }[];
  /** One header over all the action columns ('Ações'), instead of one per action. */
  actionsHeader?: string;
  label?: string;
  /** Many columns (the environments): tighter cells that wrap, so the table needs less room. */
  wide?: boolean;
  /** The room (px) below which rows are cards, for a table wider than the 720 px every list gets. */
  cardsBelow?: 1100 | 1400;
};

/** A cell's label on a phone's card, before its value: 'Empresa:', but a question stays one ('Feito? SIM'). */
const cardLabel = (label: string) => (/[?:]$/.test(label) ? label : `${label}:`);

export function DataList<Row>({
  rows,
  rowKey,
  columns,
  sort,
  tick,
  actions = [],
  actionsHeader,
  label,
  wide,
  cardsBelow,
}: DataListProps<Row>) {
  return (
    <div className={cardsBelow ? `table-scroll cards-below-${cardsBelow}` : "table-scroll"}>
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
                <Fragment key={column.id}>{sort.header(column.sortKey, column.label)}</Fragment>
              ) : (
                <th key={column.id} scope="col" role="columnheader">
                  {column.label}
                </th>
              ),
            )}
            {actionsHeader && actions.length ? (
              <th scope="col" colSpan={actions.length} className="col-action" role="columnheader">
                {actionsHeader}
              </th>
            ) : (
              actions.map((action) => (
                <th key={action.label} scope="col" className="col-action" role="columnheader">
                  {action.label}
                </th>
              ))
            )}
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
                  className={
                    column.primary ? "col-primary" : column.action ? "col-action" : column.wrap ? "col-wrap" : undefined
                  }
                  data-label={cardLabel(column.label)}
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
