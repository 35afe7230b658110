import { Form, Link, useLoaderData } from "@remix-run/react";

import { DataList, type DataColumn } from "~/components/data-list";
import { BranchFilter, DayRangeFields, FilterSelect } from "~/components/filter-select";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";
import type { ListParams } from "~/lib/list-params";

import type { inspectionListLoader } from "./inspections.server";

type Data = ReturnType<typeof useLoaderData<typeof inspectionListLoader>>;
type Row = Data["rows"][number];
type ScoreRow = Data["scores"]["rows"][number];

const COLUMNS: DataColumn<Row>[] = [
  {
    id: "ambiente",
    label: "Ambiente",
    primary: true,
    cell: (row) => <Link to={`/inspecoes/${row.id}`}>{row.ambiente.nome}</Link>,
  },
  { id: "filial", label: "Filial", cell: (row) => row.filial.nome },
  { id: "nota", label: "Nota", cell: (row) => <strong>{row.notaText}</strong> },
  {
    id: "resultado",
    label: "Resultado",
    cell: (row) => (
      <span className={row.aprovada ? "inspection-passed" : "inspection-failed"}>
        {row.resultado}
        {row.reinspecaoDe ? " · reinspeção" : ""}
      </span>
    ),
  },
  { id: "inspetor", label: "Inspetor", cell: (row) => row.inspetor },
  { id: "em", label: "Data", cell: (row) => row.emText },
];

const SCORE_COLUMNS = (label: string): DataColumn<ScoreRow>[] => [
  { id: "nome", label, primary: true, cell: (row) => row.nome },
  { id: "media", label: "Nota média", cell: (row) => <strong>{row.mediaText}</strong> },
  { id: "inspecoes", label: "Inspeções", cell: (row) => row.inspecoes },
  { id: "aprovadas", label: "Aprovadas", cell: (row) => row.aprovadas },
];

/** /inspecoes: the inspections of the caller's scope, newest first, filters in the URL, and the period's scores. */
export default function InspectionList() {
  const {
    texts: T,
    filters,
    branches,
    mayInspect,
    mayEditChecklists,
    rows,
    total,
    scores,
    downloadQuery,
  } = useLoaderData<typeof inspectionListLoader>();
  const kept = (
    [
      ["filial", filters.filial],
      ["ambiente", filters.ambiente],
      ["de", filters.de],
      ["ate", filters.ate],
      ["resultado", filters.resultado],
      ["agrupar", filters.agrupar === "ambiente" ? null : filters.agrupar],
    ] as const
  ).flatMap(([name, value]) => (value === null ? [] : [[name, String(value)] as [string, string]]));
  const listParams: ListParams = {
    q: "",
    ordem: "recentes",
    dir: "asc",
    pagina: filters.pagina,
    tamanho: "20",
    extra: kept,
  };
  return (
    <>
      <PageHeader
        title={T.title}
        help="Inspeções com checklist de itens com peso: a nota é a soma dos pesos dos itens conformes dividida pela soma dos pesos dos itens aplicáveis."
      />
      <p className="inspection-links">
        {mayInspect ? (
          <Link to="/inspecoes/nova" className="button button-primary">
            {T.newInspection}
          </Link>
        ) : null}
        {mayEditChecklists ? <Link to="/inspecoes/checklists">Checklists e nota mínima</Link> : null}
        {total > 0 ? (
          <>
            <a className="button" href={`/inspecoes/exportar.xlsx${downloadQuery}`}>
              Exportar Excel
            </a>
            <a className="button" href={`/inspecoes/exportar.pdf${downloadQuery}`}>
              Exportar PDF
            </a>
          </>
        ) : null}
      </p>
      <Form method="get" className="list-search incident-filters" role="search">
        <BranchFilter branches={branches} value={filters.filial} />
        <FilterSelect
          name="resultado"
          label="Resultado"
          all="Todos"
          value={filters.resultado}
          options={[
            { value: "aprovada", label: T.passed },
            { value: "reprovada", label: T.failed },
          ]}
        />
        <DayRangeFields label="Inspecionadas de" de={filters.de} ate={filters.ate} />
        {filters.ambiente ? <input type="hidden" name="ambiente" value={filters.ambiente} /> : null}
        {filters.agrupar !== "ambiente" ? <input type="hidden" name="agrupar" value={filters.agrupar} /> : null}
        <button type="submit" className="button">
          Filtrar
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="empty-state">Nenhuma inspeção no período.</p>
      ) : (
        <DataList label={`${T.title} (${total})`} wide rows={rows} rowKey={(row) => row.id} columns={COLUMNS} />
      )}
      <Pager params={listParams} total={total} defaultSort="recentes" />

      <section aria-labelledby="pontuacao" className="inspection-scores">
        <h2 id="pontuacao">Nota média por {scores.label.toLowerCase()}</h2>
        <p className="muted">Período: {scores.period}.</p>
        <Form method="get" className="list-search">
          {kept
            .filter(([name]) => name !== "agrupar")
            .map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
          <FilterSelect
            name="agrupar"
            label="Agrupar por"
            all="Ambiente"
            value={filters.agrupar === "ambiente" ? "" : filters.agrupar}
            options={scores.groups.filter((group) => group.value !== "ambiente")}
          />
          <button type="submit" className="button">
            Agrupar
          </button>
        </Form>
        {scores.rows.length === 0 ? (
          <p className="empty-state">Nenhuma inspeção no período.</p>
        ) : (
          <DataList
            label={`Nota média por ${scores.label.toLowerCase()}`}
            rows={scores.rows}
            rowKey={(row) => row.chave}
            columns={SCORE_COLUMNS(scores.label)}
          />
        )}
      </section>
    </>
  );
}
