import { useLoaderData, useLocation } from "@remix-run/react";

import { formatCnpjText } from "../../api/domain/masks";
import { COMPANY_TEXTS as T, statusLabel } from "../../api/domain/organisation";

import { DataList, type DataColumn } from "~/components/data-list";
import { ListSearch, Pager } from "~/components/list-controls";
import { sortFields, sortLinks } from "~/components/sort-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import type { companyListLoader } from "./list.server";
import { DEFAULT_SORT } from "./sort";

type Row = ReturnType<typeof useLoaderData<typeof companyListLoader>>["page"]["items"][number];

/**
 * 'Listar empresas' (spec 000 §2 'Main companies'): search, Nome, CNPJ formatted, Endereço, Número, Status, page
 * sizes, pager, export. roleId 1 gets the edit column; anyone else sees the ID column and no edit.
 */
export default function CompanyList() {
  const { params, page, canEdit } = useLoaderData<typeof companyListLoader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const back = encodeURIComponent(here);
  const columns: DataColumn<Row>[] = [
    ...(canEdit ? [] : [{ id: "id", label: "ID", sortKey: "id", cell: (company: Row) => company.ID }]),
    { id: "nome", label: "Nome", sortKey: "nome", primary: true, cell: (company) => company.NOME },
    { id: "cnpj", label: "CNPJ", sortKey: "cnpj", cell: (company) => formatCnpjText(company.CNPJ) },
    { id: "endereco", label: "Endereço", sortKey: "endereco", cell: (company) => company.ENDERECO },
    { id: "numero", label: "Número", sortKey: "numero", cell: (company) => company.NUMERO },
    { id: "status", label: "Status", sortKey: "status", cell: (company) => statusLabel(company.ATIVO) },
  ];
  return (
    <section aria-label={T.listTab}>
      <ListSearch params={params} label={T.searchLabel} defaultSort={DEFAULT_SORT} sortFields={sortFields(columns)} />
      {page.items.length === 0 ? (
        <p className="empty-state">{params.q ? NO_SEARCH_RESULTS : T.empty}</p>
      ) : (
        <DataList
          label={T.title}
          rows={page.items}
          rowKey={(company) => company.ID}
          sort={sortLinks({ params, defaultSort: DEFAULT_SORT })}
          columns={columns}
          actions={
            canEdit
              ? [
                  {
                    label: "Editar",
                    action: (company) => ({
                      label: "Editar",
                      to: `/empresa-principal/${company.ID}/editar?redirectTo=${back}`,
                      accessibleName: `Editar ${company.NOME}`,
                    }),
                  },
                ]
              : []
          }
        />
      )}
      <div className="list-actions">
        <a className="button" href={`/empresa-principal/exportar.xlsx${location.search}`}>
          Exportar Excel
        </a>
      </div>
      <Pager params={params} total={page.total} defaultSort={DEFAULT_SORT} />
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
