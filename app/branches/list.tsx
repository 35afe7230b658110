import { useLoaderData, useLocation } from "@remix-run/react";

import { formatCnpjText } from "../../api/domain/masks";
import { BRANCH_TEXTS as T, statusLabel } from "../../api/domain/organisation";

import { DataList, type DataColumn } from "~/components/data-list";
import { ListSearch, Pager } from "~/components/list-controls";
import { sortFields, sortLinks } from "~/components/sort-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import type { branchListLoader } from "./list.server";
import { DEFAULT_SORT } from "./sort";

type Branch = ReturnType<typeof useLoaderData<typeof branchListLoader>>["page"]["items"][number];

const COLUMNS: DataColumn<Branch>[] = [
  { id: "id", label: "ID", sortKey: "id", cell: (branch) => branch.ID },
  { id: "nome", label: "Nome", sortKey: "nome", primary: true, cell: (branch) => branch.NOME },
  { id: "cnpj", label: "CNPJ", sortKey: "cnpj", cell: (branch) => formatCnpjText(branch.CNPJ) },
  { id: "endereco", label: "Endereço", sortKey: "endereco", cell: (branch) => branch.ENDERECO },
  { id: "numero", label: "Número", sortKey: "numero", cell: (branch) => branch.NUMERO },
  { id: "status", label: "Status", sortKey: "status", cell: (branch) => statusLabel(branch.ATIVO) },
];
const SORT_FIELDS = sortFields(COLUMNS);

/** 'Listar filiais' (spec 000 §2 'Branches'): search, sortable columns, page sizes, pager, export, edit per row. */
export default function BranchList() {
  const { params, page } = useLoaderData<typeof branchListLoader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const back = encodeURIComponent(here);
  return (
    <section aria-label={T.listTab}>
      <ListSearch params={params} label={T.searchLabel} defaultSort={DEFAULT_SORT} sortFields={SORT_FIELDS} />
      {page.items.length === 0 ? (
        <p className="empty-state">{params.q ? NO_SEARCH_RESULTS : T.empty}</p>
      ) : (
        <DataList
          label={T.title}
          rows={page.items}
          rowKey={(branch) => branch.ID}
          sort={sortLinks({ params, defaultSort: DEFAULT_SORT })}
          columns={COLUMNS}
          actions={[
            {
              label: "Editar",
              action: (branch) => ({
                label: "Editar",
                to: `/filiais/${branch.ID}/editar?redirectTo=${back}`,
                accessibleName: `Editar ${branch.NOME}`,
              }),
            },
          ]}
        />
      )}
      <div className="list-actions">
        <a className="button" href={`/filiais/exportar.xlsx${location.search}`}>
          Exportar Excel
        </a>
      </div>
      <Pager params={params} total={page.total} defaultSort={DEFAULT_SORT} />
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
