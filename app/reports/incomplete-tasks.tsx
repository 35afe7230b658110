import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";

import { INCOMPLETE_FILTERS, INCOMPLETE_TEXTS as T } from "../../api/domain/incomplete-tasks";

import { FilterChoices } from "~/components/filter-choices";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import type { incompleteListLoader } from "./incomplete-tasks.server";
import { LegacyToggle, ReportFilters } from "./report-filters";
import { withQuery } from "./report-links";

const PATH = "/tarefas-incompletas";

/**
 * /tarefas-incompletas (spec 001 §2.11): one GET form (branch, 'Filtrar por' single-select, the search box or the
 * two dates — CSS shows the one the choice uses, no JS needed —, the old system's data, the page size), the grid of
 * procedure names that open 'Histórico do Procedimento', the pager, the Excel file of the names.
 */
export default function IncompleteTasks() {
  const { state, listQuery, period, notice, branches, total, procedures } =
    useLoaderData<typeof incompleteListLoader>();
  const location = useLocation();
  return (
    <>
      <PageHeader title={T.title} help={T.tooltip}>
        <a className="button" href={withQuery(`${PATH}/exportar.xlsx`, listQuery)}>
          Exportar Excel
        </a>
      </PageHeader>
      <Outlet />
      <div className="incomplete-filters">
        <ReportFilters key={location.key} state={state} branches={branches} defaultSort="nome">
          <FilterChoices
            single
            name="campo"
            fields={INCOMPLETE_FILTERS}
            chosen={[state.campo]}
            defaultChoice="tarefa"
          />
          <LegacyToggle checked={state.anteriores} />
        </ReportFilters>
      </div>
      <p className="muted" aria-live="polite">
        {period}
      </p>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {procedures.length === 0 ? (
        <p className="empty-state">{state.q ? NO_SEARCH_RESULTS : T.empty}</p>
      ) : (
        <ul className="procedure-grid" aria-label="Procedimentos com tarefas incompletas">
          {procedures.map((procedure) => (
            <li key={procedure.nome}>
              <Link className="procedure-button" to={procedure.href} preventScrollReset>
                <span>{procedure.nome}</span>
                <span className="procedure-count" aria-label={`${procedure.tarefas} tarefas incompletas`}>
                  {procedure.tarefas}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager params={state} total={total} defaultSort="nome" path={PATH} />
    </>
  );
}
