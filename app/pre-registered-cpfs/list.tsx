import { Form, useLoaderData, useLocation } from "@remix-run/react";

import { formatCnpjText, formatCpfText } from "../../api/domain/masks";
import { statusLabel } from "../../api/domain/organisation";
import { CPF_TEXTS as T, STATUS_ACTION_LABELS, STATUS_ACTIONS } from "../../api/domain/pre-registered-cpfs";

import { DataList, type DataColumn } from "~/components/data-list";
import { ListSearch, Pager } from "~/components/list-controls";
import { useRowTicks } from "~/components/row-ticks";
import { sortFields, sortLinks } from "~/components/sort-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import type { cpfListLoader } from "./list.server";
import { DEFAULT_SORT } from "./sort";

const MENU_ORDER = [STATUS_ACTIONS.activate, STATUS_ACTIONS.inactivate, STATUS_ACTIONS.remove] as const;

type Row = ReturnType<typeof useLoaderData<typeof cpfListLoader>>["page"]["items"][number];

const COLUMNS: DataColumn<Row>[] = [
  { id: "cpf", label: "CPF", sortKey: "cpf", primary: true, cell: (row) => formatCpfText(row.CPF) },
  { id: "filial", label: "Filial", sortKey: "filial", cell: (row) => row.NOME_FILIAL },
  { id: "cnpj", label: "CNPJ", sortKey: "cnpj", cell: (row) => formatCnpjText(row.CNPJ) },
  { id: "status", label: "Status", sortKey: "status", cell: (row) => statusLabel(row.ATIVO) },
];
const SORT_FIELDS = sortFields(COLUMNS);

/**
 * 'Listar CPF's' (spec 000 §2 'Pre-registered CPFs'): search, sortable columns, page sizes, pager, export and, for
 * editors, tick boxes and the 'Status do(s) Usuário(s)' menu. The menu is a <details> of submit buttons of a GET
 * form that opens the confirmation page, so it works without JS; 'Marcar Todos' is a link without JS.
 */
export default function CpfList() {
  const { params, page, canEdit } = useLoaderData<typeof cpfListLoader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const tickAll = new URLSearchParams(location.search).get("marcar") === "todos";
  const { column } = useRowTicks({
    rows: page.items,
    data: page,
    tickAll,
    boxes: {
      form: "selecao",
      name: "cpf",
      key: (row) => row.CPF,
      parse: String,
      label: (row) => `Selecionar ${formatCpfText(row.CPF)}`,
    },
  });

  return (
    <section aria-label={T.listTab}>
      <ListSearch params={params} label={T.searchLabel} defaultSort={DEFAULT_SORT} sortFields={SORT_FIELDS} />
      {canEdit ? (
        <Form method="get" action="/pre-cadastro-usuarios/status" id="selecao">
          <input type="hidden" name="redirectTo" value={here} />
        </Form>
      ) : null}
      {page.items.length === 0 ? (
        <p className="empty-state">{params.q ? NO_SEARCH_RESULTS : T.empty}</p>
      ) : (
        <DataList
          label={T.title}
          rows={page.items}
          rowKey={(row) => row.ID}
          sort={sortLinks({ params, defaultSort: DEFAULT_SORT })}
          tick={canEdit ? column : undefined}
          columns={COLUMNS}
        />
      )}
      <div className="list-actions">
        {canEdit ? (
          <details className="status-menu">
            <summary className="button">{T.statusMenu}</summary>
            <div className="stack">
              {MENU_ORDER.map((code) => (
                <button key={code} type="submit" form="selecao" name="acao" value={code} className="button">
                  {STATUS_ACTION_LABELS[code].label}
                </button>
              ))}
            </div>
          </details>
        ) : null}
        <a className="button" href={`/pre-cadastro-usuarios/exportar.xlsx${location.search}`}>
          Exportar Excel
        </a>
      </div>
      <Pager params={params} total={page.total} defaultSort={DEFAULT_SORT} />
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
