import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";

import { ACTIVITY_FILTERS, ACTIVITY_TEXTS as T } from "../../api/domain/activities";

import { DataList, type DataColumn } from "~/components/data-list";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";
import { sortFields, sortLinks } from "~/components/sort-header";

import type { activitiesLoader } from "./activities.server";
import { ACTIVITIES_DEFAULT_SORT as DEFAULT_SORT, ACTIVITY_MOUNTS } from "./activity-report";
import { StatusChip } from "./drill-down";
import { ReportFilters } from "./report-filters";
import { withQuery } from "./report-links";
import { TaskPhoto } from "./task-photo";

type Row = ReturnType<typeof useLoaderData<typeof activitiesLoader>>["rows"][number];

/**
 * /historico-tarefas and /imagens-tarefas (spec 001 §2.12): the filters as one GET form that a <details> shows or
 * hides (branch for company-wide users, the activity filter, the period, the text filter, 'Pesquisar'), the slots as
 * the shared list (a table on wide screens, cards on phones) with 'Feito?', the pager, and the Excel file of the view.
 * A row's room opens its detail (a nested route: a dialog with JS, a section without).
 */
export default function ActivitiesReport() {
  const { path, state, listQuery, notice, branches, total, rows } = useLoaderData<typeof activitiesLoader>();
  const mount = ACTIVITY_MOUNTS[path];
  const location = useLocation();
  const columns: DataColumn<Row>[] = [
    ...(mount.photos
      ? [
          {
            id: "foto",
            label: "Foto",
            cell: (row: Row) => <TaskPhoto photo={row.photo} label={row.ambiente} />,
          },
        ]
      : []),
    {
      id: "ambiente",
      label: "Ambiente",
      sortKey: "ambiente",
      primary: true,
      cell: (row) => (
        <Link to={row.href} preventScrollReset aria-label={`${row.ambiente}, ${row.data} ${row.horario}: detalhes`}>
          {row.ambiente}
        </Link>
      ),
    },
    { id: "empresa", label: "Empresa", sortKey: "empresa", cell: (row) => row.empresa },
    { id: "data", label: "Data", sortKey: "data", cell: (row) => row.data },
    { id: "horario", label: "Horário", cell: (row) => row.horario },
    { id: "feito", label: "Feito?", cell: (row) => <StatusChip status={row.feito} /> },
  ];
  return (
    <>
      <PageHeader title={mount.title} help={T.tooltip}>
        <a className="button" href={withQuery(`${path}/exportar.xlsx`, listQuery)}>
          Exportar Excel
        </a>
      </PageHeader>
      {/* The detail: a dialog with JS, a section here without it. */}
      <Outlet />
      <details className="report-filters" open>
        <summary>
          <span className="filters-shown">Ocultar filtros</span>
          <span className="filters-hidden">Mostrar filtros</span>
        </summary>
        <ReportFilters
          key={location.key}
          state={state}
          branches={branches}
          defaultSort={DEFAULT_SORT}
          submitLabel="Pesquisar"
          sortFields={sortFields(columns)}
          fields={
            <div className="field">
              <label htmlFor="atividade">Atividades</label>
              <select id="atividade" name="atividade" defaultValue={state.atividade}>
                {ACTIVITY_FILTERS.map((filter) => (
                  <option key={filter.value} value={filter.value}>
                    {filter.label}
                  </option>
                ))}
              </select>
            </div>
          }
        />
      </details>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="empty-state">{T.empty}</p>
      ) : (
        <DataList<Row>
          label={mount.title}
          rows={rows}
          rowKey={(row) => row.id}
          sort={sortLinks({ params: state, defaultSort: DEFAULT_SORT, path })}
          columns={columns}
        />
      )}
      <Pager params={state} total={total} defaultSort={DEFAULT_SORT} path={path} />
    </>
  );
}
