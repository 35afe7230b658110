import { Form, Link, Outlet, useLoaderData } from "@remix-run/react";

import { DataList } from "~/components/data-list";
import { FilterChoices } from "~/components/filter-choices";
import { PageHeader } from "~/components/page-header";

import type { BoardCard, boardLoader } from "./board.server";
import { SEARCH_FIELDS } from "./search-fields";

const FIELDS = Object.entries(SEARCH_FIELDS).map(([key, label]) => ({ key, label }));

/**
 * /dashboard (spec 001 §2.6): the search form (a plain GET form), the period heading, the two views ('Quadro', the four
 * columns; 'Tabela', the same bookings as rows) and the schedule detail as a nested route (<Outlet />).
 */
export default function Board() {
  const {
    texts: T,
    state,
    heading,
    notice,
    columns,
    rows,
    total,
    incidents,
    showDate,
    showBranch,
    moreHref,
    viewHref,
  } = useLoaderData<typeof boardLoader>();
  return (
    <>
      <PageHeader title={T.title} help={T.titleTooltip} />
      <Form
        method="get"
        className="list-search board-filter"
        role="search"
        key={`${state.inicio}|${state.fim}|${state.q}`}
      >
        <div className="field">
          <label htmlFor="q">Buscar</label>
          <input id="q" name="q" type="search" defaultValue={state.q} placeholder="Digite para buscar" />
        </div>
        <FilterChoices fields={FIELDS} chosen={state.campos} defaultChoice="colaborador" />
        <div className="field field-date">
          <label htmlFor="inicio">{T.dataIni}</label>
          <input id="inicio" name="inicio" type="date" defaultValue={state.inicio} required />
        </div>
        <div className="field field-date">
          <label htmlFor="fim">{T.dataFim}</label>
          <input id="fim" name="fim" type="date" defaultValue={state.fim} required />
        </div>
        {state.vista !== "quadro" ? <input type="hidden" name="vista" value={state.vista} /> : null}
        <button type="submit" className="button">
          Filtrar
        </button>
      </Form>

      <div className="board-bar">
        <h2 className="board-period">{heading}</h2>
        <nav className="view-toggle" aria-label="Visualização">
          <Link to={viewHref.quadro} aria-current={state.vista === "quadro" ? "page" : undefined}>
            {T.boardView}
          </Link>
          <Link to={viewHref.tabela} aria-current={state.vista === "tabela" ? "page" : undefined}>
            {T.tableView}
          </Link>
        </nav>
      </div>
      {incidents && incidents.total > 0 ? (
        <section className="board-incidents" aria-labelledby="board-incidents">
          <h2 id="board-incidents">Ocorrências abertas no período ({incidents.total})</h2>
          <ul>
            {incidents.items.map((incident) => (
              <li key={incident.id}>
                <Link to={incident.href}>{incident.text}</Link> · {incident.statusLabel}
                {incident.atrasada ? <strong className="incident-overdue"> · Atrasada</strong> : null}
              </li>
            ))}
          </ul>
          {incidents.total > incidents.items.length ? <Link to={incidents.allHref}>Ver todas</Link> : null}
        </section>
      ) : null}
      {/* The schedule detail: a dialog with JS; without JS, a section here, above the columns. */}
      <Outlet />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}

      {state.vista === "quadro" ? (
        <div className="board">
          {columns.map((column) => (
            <section
              key={column.key}
              className={`board-column board-${column.key}`}
              aria-labelledby={`col-${column.key}`}
            >
              <header className="board-column-head">
                <h3 id={`col-${column.key}`}>
                  {column.title} <span className="board-count">({column.total})</span>
                </h3>
                <details className="help">
                  <summary aria-label={`Ajuda: ${column.title}`}>?</summary>
                  <p>{column.tooltip}</p>
                </details>
              </header>
              {column.cards.length ? (
                <ul className="board-cards">
                  {column.cards.map((card) => (
                    <li key={card.id}>
                      <BoardCardLink card={card} showDate={showDate} showBranch={showBranch} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="board-empty">{T.empty}</p>
              )}
            </section>
          ))}
        </div>
      ) : rows.length ? (
        <DataList
          label={`Agendamentos do período (${total})`}
          cardsBelow={1100}
          rows={rows}
          rowKey={(row) => row.id}
          columns={[
            {
              id: "situacao",
              label: "Situação",
              cell: (row) => <span className={`status-dot board-${row.column}`}>{row.columnTitle}</span>,
            },
            {
              id: "horario",
              label: "Horário",
              primary: true,
              cell: (row) => (
                <>
                  <Link to={row.href} preventScrollReset>
                    {row.horario}
                  </Link>{" "}
                  <span className="muted">{row.tipo}</span>
                </>
              ),
            },
            ...(showDate ? [{ id: "dia", label: "Data", cell: (row: BoardCard) => row.dia }] : []),
            { id: "ambiente", label: "Ambiente", wrap: true, cell: (row) => row.ambiente },
            { id: "colaborador", label: "Colaborador", wrap: true, cell: (row) => row.colaborador },
            ...(showBranch ? [{ id: "filial", label: "Filial", cell: (row: BoardCard) => row.filial }] : []),
            { id: "realizado", label: T.performed, cell: (row) => row.realizado ?? "-" },
          ]}
        />
      ) : (
        <p className="empty-state">{T.empty}</p>
      )}
      {moreHref ? (
        <p className="board-more">
          <Link to={moreHref} preventScrollReset className="button">
            Mostrar mais
          </Link>
        </p>
      ) : null}
    </>
  );
}

function BoardCardLink({ card, showDate, showBranch }: { card: BoardCard; showDate: boolean; showBranch: boolean }) {
  return (
    <Link to={card.href} className="board-card" preventScrollReset>
      <span className="board-card-time">
        {showDate ? `${card.dia} · ` : ""}
        {card.horario} <span className="board-card-type">{card.tipo}</span>
      </span>
      <strong className="board-card-place">{card.ambiente}</strong>
      <span className="muted">
        {card.setor}
        {showBranch ? ` · ${card.filial}` : ""}
      </span>
      <span className="board-card-who">
        {card.avatarUrl ? (
          <img src={card.avatarUrl} alt="" width={28} height={28} loading="lazy" className="board-avatar" />
        ) : (
          <span className="board-avatar" aria-hidden="true" />
        )}
        {card.colaborador}
      </span>
      {card.realizado ? <span className="board-card-done">{card.realizado}</span> : null}
    </Link>
  );
}
