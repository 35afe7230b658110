import { Form, Link, useLoaderData } from "@remix-run/react";

import { DataList, type DataColumn } from "~/components/data-list";
import { BranchFilter } from "~/components/filter-select";
import { Pager } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";
import type { ListParams } from "~/lib/list-params";

import type { inspectionRoomsLoader } from "./inspections.server";

type Row = ReturnType<typeof useLoaderData<typeof inspectionRoomsLoader>>["rows"][number];

const COLUMNS: DataColumn<Row>[] = [
  {
    id: "ambiente",
    label: "Ambiente",
    primary: true,
    cell: (row) => <Link to={`/inspecoes/nova/${row.ambiente.id}`}>{row.ambiente.nome}</Link>,
  },
  { id: "filial", label: "Filial", cell: (row) => row.filial.nome },
  { id: "checklist", label: "Checklist", cell: (row) => row.checklist },
  {
    id: "ultima",
    label: "Última inspeção",
    cell: (row) =>
      row.ultima ? (
        <Link to={`/inspecoes/${row.ultima.id}`}>
          {row.ultima.notaText} em {row.ultima.emText}
        </Link>
      ) : (
        "Nunca inspecionado"
      ),
  },
];

/** /inspecoes/nova: the rooms whose category has a checklist; choosing one opens its inspection form. */
export default function InspectionRooms() {
  const {
    texts: T,
    q,
    filial,
    pagina,
    branches,
    mayEditChecklists,
    rows,
    total,
  } = useLoaderData<typeof inspectionRoomsLoader>();
  const listParams: ListParams = {
    q,
    ordem: "nome",
    dir: "asc",
    pagina,
    tamanho: "20",
    extra: filial ? [["filial", String(filial)]] : [],
  };
  return (
    <>
      <PageHeader title={T.newInspection} />
      <p>
        <Link to="/inspecoes">Voltar às inspeções</Link>
      </p>
      <Form method="get" className="list-search incident-filters" role="search">
        <div className="field">
          <label htmlFor="q">Ambiente</label>
          <input id="q" name="q" type="search" defaultValue={q} maxLength={100} />
        </div>
        <BranchFilter branches={branches} value={filial} />
        <button type="submit" className="button">
          Buscar
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="empty-state">
          Nenhum ambiente com checklist de inspeção.
          {mayEditChecklists ? (
            <>
              {" "}
              <Link to="/inspecoes/checklists">Cadastre um checklist</Link> para a categoria dos ambientes.
            </>
          ) : null}
        </p>
      ) : (
        <DataList
          label={`Ambientes para inspecionar (${total})`}
          rows={rows}
          rowKey={(row) => row.ambiente.id}
          columns={COLUMNS}
        />
      )}
      <Pager params={listParams} total={total} defaultSort="nome" />
    </>
  );
}
