import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";

import { REPORT_TEXTS as T } from "../../api/domain/reports";

import { DataList, type DataColumn } from "~/components/data-list";
import { FilterChoices } from "~/components/filter-choices";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";
import { sortFields, sortLinks } from "~/components/sort-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import { COLLABORATORS_DEFAULT_SORT as DEFAULT_SORT } from "./collaborator-report";
import type { collaboratorsLoader } from "./collaborators.server";
import { LegacyToggle, ProofFilters, ReportFilters } from "./report-filters";
import { withQuery } from "./report-links";

const PATH = "/historico-colaboradores";
/** The columns the list sorts by (besides the name): the API's sorts. */
const SORTABLE = ["filial", "agendamentos", "completos"] as const;

type Row = ReturnType<typeof useLoaderData<typeof collaboratorsLoader>>["rows"][number];

/**
 * /historico-colaboradores (spec 001 §2.9): the filters as one GET form (branch, period, search and 'Filtrar por',
 * page size), then one row per collaborator with the period's counts, sortable and paged; every control a link or a
 * form, so it works without JS and the view can be shared by e-mail.
 */
export default function CollaboratorsReport() {
  const { state, listQuery, notice, branches, fields, columns, total, rows } =
    useLoaderData<typeof collaboratorsLoader>();
  const location = useLocation();
  const drillDown = (id: number, level = "") => withQuery(`${PATH}/${id}${level}`, listQuery);
  const listColumns: DataColumn<Row>[] = [
    {
      id: "nome",
      label: "Colaborador",
      sortKey: "nome",
      primary: true,
      cell: (row) => (
        <span className="profile-link">
          <Link
            to={drillDown(row.id, "/detalhes")}
            preventScrollReset
            className="avatar-link"
            aria-label={`Detalhes de ${row.nome}`}
          >
            {row.avatarUrl ? (
              <img className="avatar" src={row.avatarUrl} alt="" width={32} height={32} loading="lazy" />
            ) : (
              <span className="avatar avatar-empty" aria-hidden="true" />
            )}
          </Link>
          <Link to={drillDown(row.id)} preventScrollReset>
            {row.nome}
          </Link>
        </span>
      ),
    },
    ...columns
      .filter((column) => state.colunas.includes(column.key))
      .map((column) => ({
        id: column.key,
        label: column.label,
        sortKey: (SORTABLE as readonly string[]).includes(column.key) ? column.key : undefined,
        wrap: column.key === "email",
        cell: (row: Row) => row[column.key],
      })),
  ];
  return (
    <>
      <PageHeader title={T.collaboratorsTitle} help={T.collaboratorsTooltip}>
        <Link className="button" to={withQuery(PATH, listQuery)}>
          Atualizar
        </Link>
        <a className="button" href={withQuery(`${PATH}/exportar.xlsx`, listQuery)}>
          Exportar Excel
        </a>
      </PageHeader>
      {/* The drill-down levels: a dialog with JS, a section here without it. */}
      <Outlet />
      <ReportFilters
        key={location.key}
        state={state}
        branches={branches}
        defaultSort={DEFAULT_SORT}
        sortFields={sortFields(listColumns)}
        fields={<ProofFilters semQr={state.semQr} atraso={state.atraso} />}
      >
        <LegacyToggle checked={state.anteriores} />
        {/* The column-filter dialog (§2.9): which columns the list (and its Excel file) shows. */}
        <FilterChoices title="Colunas" name="colunas" fields={columns} chosen={state.colunas} />
        {fields.length > 1 ? <FilterChoices fields={fields} chosen={state.campos} defaultChoice="colaborador" /> : null}
      </ReportFilters>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="empty-state">{state.q ? NO_SEARCH_RESULTS : T.collaboratorsEmpty}</p>
      ) : (
        <DataList<Row>
          wide
          cardsBelow={1400}
          label={T.collaboratorsTitle}
          rows={rows}
          rowKey={(row) => row.id}
          sort={sortLinks({ params: state, defaultSort: DEFAULT_SORT, path: PATH })}
          columns={listColumns}
        />
      )}
      <Pager params={state} total={total} defaultSort={DEFAULT_SORT} path={PATH} />
    </>
  );
}
