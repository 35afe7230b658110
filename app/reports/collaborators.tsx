import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";

import { REPORT_TEXTS as T } from "../../api/domain/reports";

import { DataList } from "~/components/data-list";
import { FilterChoices } from "~/components/filter-choices";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";

import { COLLABORATORS_DEFAULT_SORT as DEFAULT_SORT } from "./collaborator-report";
import type { collaboratorsLoader } from "./collaborators.server";
import { ReportFilters } from "./report-filters";
import { withQuery } from "./report-links";

const PATH = "/historico-colaboradores";

type Row = ReturnType<typeof useLoaderData<typeof collaboratorsLoader>>["rows"][number];

/**
 * /historico-colaboradores (spec 001 §2.9): the filters as one GET form (branch, period, search and 'Filtrar por',
 * page size), then one row per collaborator with the period's counts, sortable and paged; every control a link or a
 * form, so it works without JS and the view can be shared by e-mail.
 */
export default function CollaboratorsReport() {
  const { state, listQuery, notice, branches, fields, personal, total, rows } =
    useLoaderData<typeof collaboratorsLoader>();
  const location = useLocation();
  const drillDown = (id: number, level = "") => withQuery(`${PATH}/${id}${level}`, listQuery);
  return (
    <>
      <PageHeader title={T.collaboratorsTitle} help={T.collaboratorsTooltip}>
        <a className="button" href={withQuery(`${PATH}/exportar.xlsx`, listQuery)}>
          Exportar Excel
        </a>
      </PageHeader>
      {/* The drill-down levels: a dialog with JS, a section here without it. */}
      <Outlet />
      <ReportFilters key={location.key} state={state} branches={branches} defaultSort={DEFAULT_SORT}>
        {/* §2.9: present here; the old system's data it brings in is read by reports part 2 (issue 24). */}
        <label className="check" title={T.legacyTooltip}>
          <input type="checkbox" name="anteriores" value="1" defaultChecked={state.anteriores} />
          Mostrar dados anteriores à Agosto/2022
        </label>
        {fields.length > 1 ? <FilterChoices fields={fields} chosen={state.campos} defaultChoice="colaborador" /> : null}
      </ReportFilters>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="empty-state">{state.q ? "Nenhum resultado para a busca." : T.collaboratorsEmpty}</p>
      ) : (
        <DataList<Row>
          wide
          label={T.collaboratorsTitle}
          rows={rows}
          rowKey={(row) => row.id}
          sort={{ params: state, defaultSort: DEFAULT_SORT, path: PATH }}
          columns={[
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
            { id: "filial", label: "Filial", sortKey: "filial", cell: (row) => row.filial },
            ...(personal
              ? [
                  { id: "cpf", label: "CPF", cell: (row: Row) => row.cpf },
                  { id: "email", label: "E-mail", cell: (row: Row) => row.email, wrap: true },
                  { id: "telefone", label: "Telefone", cell: (row: Row) => row.telefone },
                ]
              : []),
            { id: "agendamentos", label: "Agendamentos", sortKey: "agendamentos", cell: (row) => row.agendamentos },
            { id: "completos", label: "Completos", sortKey: "completos", cell: (row) => row.completos },
            { id: "incompletos", label: "Incompletos", cell: (row) => row.incompletos },
            { id: "naoRealizados", label: "Não realizados", cell: (row) => row.naoRealizados },
          ]}
        />
      )}
      <Pager params={state} total={total} defaultSort={DEFAULT_SORT} path={PATH} />
    </>
  );
}
