import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";

import { REPORT_TEXTS as T } from "../../api/domain/reports";

import { FilterChoices } from "~/components/filter-choices";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import {
  bookingsWithCompleted,
  ENVIRONMENT_FIELDS,
  ENVIRONMENTS_DEFAULT_SORT as DEFAULT_SORT,
} from "./environment-report";
import type { environmentsLoader } from "./environments.server";
import { LegacyToggle, ReportFilters } from "./report-filters";
import { withQuery } from "./report-links";

const PATH = "/historico-ambientes";

/**
 * /historico-ambientes (spec 001 §2.10): the filters as one GET form (branch, period, search and 'Filtrar por', page
 * size), the rooms as cards (environment, category, sector, floor) that open 'Histórico do Ambiente', the pager,
 * and the downloads of every row of the rooms found.
 */
export default function EnvironmentsReport() {
  const { state, listQuery, notice, branches, total, cards } = useLoaderData<typeof environmentsLoader>();
  const location = useLocation();
  return (
    <>
      <PageHeader title={T.environmentsTitle} help={T.environmentsTooltip}>
        <a className="button" href={withQuery(`${PATH}/exportar.xlsx`, listQuery)}>
          Exportar Excel
        </a>
        <a className="button" href={withQuery(`${PATH}/exportar.pdf`, listQuery)}>
          Exportar PDF
        </a>
      </PageHeader>
      <Outlet />
      <ReportFilters key={location.key} state={state} branches={branches} defaultSort={DEFAULT_SORT}>
        <LegacyToggle checked={state.anteriores} />
        <FilterChoices fields={[...ENVIRONMENT_FIELDS]} chosen={state.campos} defaultChoice="ambiente" />
      </ReportFilters>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {cards.length === 0 ? (
        <p className="empty-state">{state.q ? NO_SEARCH_RESULTS : T.environmentsEmpty}</p>
      ) : (
        <ul className="report-cards" aria-label={T.environmentsTitle}>
          {cards.map((card) => (
            <li key={card.id}>
              <Link className="report-card" to={withQuery(`${PATH}/${card.id}`, listQuery)} preventScrollReset>
                <strong>{card.nome}</strong>
                <dl>
                  <dt>Filial</dt>
                  <dd>{card.filial || "-"}</dd>
                  <dt>Categoria</dt>
                  <dd>{card.categoria || "-"}</dd>
                  <dt>Setor</dt>
                  <dd>{card.setor || "-"}</dd>
                  <dt>Andar</dt>
                  <dd>{card.andar || "-"}</dd>
                  <dt>Agendamentos</dt>
                  <dd>{bookingsWithCompleted(card.agendamentos, card.completos)}</dd>
                </dl>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager params={state} total={total} defaultSort={DEFAULT_SORT} path={PATH} />
    </>
  );
}
