import { Form, Link, useLoaderData } from "@remix-run/react";

import { DataList, type DataColumn } from "~/components/data-list";
import { BranchFilter, DayRangeFields, FilterSelect } from "~/components/filter-select";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";
import type { ListParams } from "~/lib/list-params";

import type { incidentListLoader } from "./incidents.server";

type Row = ReturnType<typeof useLoaderData<typeof incidentListLoader>>["rows"][number];

const COLUMNS: DataColumn<Row>[] = [
  {
    id: "ambiente",
    label: "Ambiente",
    primary: true,
    cell: (row) => <Link to={`/ocorrencias/${row.id}`}>{row.ambiente.nome}</Link>,
  },
  { id: "filial", label: "Filial", cell: (row) => row.filial.nome },
  { id: "tipo", label: "Tipo", cell: (row) => (row.relatos > 1 ? `${row.tipo} (${row.relatos} relatos)` : row.tipo) },
  {
    id: "status",
    label: "Status",
    cell: (row) => (
      <span className={`incident-status incident-${row.status}`}>
        {row.statusLabel}
        {row.atrasada ? <strong className="incident-overdue"> · Atrasada</strong> : null}
      </span>
    ),
  },
  { id: "relatada", label: "Relatada em", cell: (row) => row.criadaEmText },
  { id: "prazo", label: "Prazo", cell: (row) => row.prazoText },
  { id: "responsavel", label: "Responsável", cell: (row) => row.responsavel ?? "Coordenadores da filial" },
];

/** /ocorrencias: the incidents of the caller's scope, newest first; the status and 'Só atrasadas' in the URL. */
export default function IncidentList() {
  const {
    texts: T,
    statuses,
    kinds,
    branches,
    mayEditKinds,
    filters,
    rows,
    total,
  } = useLoaderData<typeof incidentListLoader>();
  // The shared pager: newest first always, 20 a page, the filters kept in its links.
  const listParams: ListParams = {
    q: "",
    ordem: "recentes",
    dir: "asc",
    pagina: filters.pagina,
    tamanho: "20",
    extra: (
      [
        ["status", filters.status],
        ["tipo", filters.tipo],
        ["filial", filters.filial],
        ["de", filters.de],
        ["ate", filters.ate],
        ["atrasadas", filters.atrasadas ? "1" : null],
      ] as const
    ).flatMap(([name, value]) => (value === null ? [] : [[name, String(value)] as [string, string]])),
  };
  return (
    <>
      <PageHeader title={T.title} help={T.titleTooltip} />
      {mayEditKinds ? (
        <p>
          <Link to="/ocorrencias/tipos">Tipos de ocorrência</Link>
        </p>
      ) : null}
      <Form method="get" className="list-search incident-filters" role="search">
        <FilterSelect name="status" label="Status" all="Todos" value={filters.status} options={statuses} />
        <FilterSelect
          name="tipo"
          label="Tipo"
          all="Todos"
          value={filters.tipo}
          options={kinds.map((kind) => ({ value: kind.id, label: kind.nome }))}
        />
        <BranchFilter branches={branches} value={filters.filial} />
        <DayRangeFields label="Relatadas de" de={filters.de} ate={filters.ate} />
        <label className="check">
          <input type="checkbox" name="atrasadas" value="1" defaultChecked={filters.atrasadas} />
          Só atrasadas
        </label>
        <button type="submit" className="button">
          Filtrar
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="empty-state">{T.empty}</p>
      ) : (
        <DataList
          label={`${T.title} (${total})`}
          wide
          cardsBelow={1100}
          rows={rows}
          rowKey={(row) => row.id}
          columns={COLUMNS}
        />
      )}
      <Pager params={listParams} total={total} defaultSort="recentes" />
    </>
  );
}
