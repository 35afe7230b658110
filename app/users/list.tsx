import { Link, useLoaderData, useLocation } from "@remix-run/react";

import { USER_TEXTS as T } from "../../api/domain/users";

import { DataList, type DataColumn } from "~/components/data-list";
import { ListSearch, Pager } from "~/components/list-controls";
import { sortFields, sortLinks } from "~/components/sort-header";
import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import { editHref, namesHref, USERS_PATH } from "./links";
import type { userListLoader } from "./list.server";
import { DEFAULT_SORT } from "./params";
import type { UserRow } from "./rows.server";

/**
 * 'Listar usuários' (spec 000 §2 'Users'): search (CPF, nome, e-mail, companyId), sortable columns, 20 a page, pager,
 * export. Per row: 'Nomes' next to the name ('Nomes do Usuário') and the edit button, shown disabled (a button that
 * does nothing, not a link) when the §6 rules keep the viewer from editing that user.
 */
export default function UserList() {
  const { params, showLevel, rows, total } = useLoaderData<typeof userListLoader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const back = here.startsWith(USERS_PATH) ? here : USERS_PATH;

  const columns: DataColumn<UserRow>[] = [
    { id: "empresa", label: "Empresa", sortKey: "empresa", cell: (row) => row.empresa },
    {
      id: "nome",
      label: "Nome",
      sortKey: "nome",
      primary: true,
      cell: (row) => (
        <>
          {row.nome}
          {row.ativo ? null : <span className="muted"> (Inativo)</span>}{" "}
          <Link to={namesHref(row.id, back)} className="add-new" aria-label={`${T.namesTitle}: ${row.nome}`}>
            Nomes
          </Link>
        </>
      ),
    },
    { id: "cpf", label: "CPF", sortKey: "cpf", cell: (row) => row.cpf },
    { id: "email", label: "E-mail", sortKey: "email", wrap: true, cell: (row) => row.email },
    { id: "telefone", label: "Telefone", sortKey: "telefone", cell: (row) => row.telefone },
    { id: "nascimento", label: "Data de Nascimento", sortKey: "nascimento", cell: (row) => row.nascimento },
    ...(showLevel
      ? [{ id: "nivel", label: "Nível", sortKey: "nivel", cell: (row: UserRow) => row.nivel } as DataColumn<UserRow>]
      : []),
    {
      id: "editar",
      label: "Editar",
      action: true,
      cell: (row) =>
        row.canEdit ? (
          <Link to={editHref(row.id, back)} className="row-action" aria-label={`Editar ${row.nome}`}>
            Editar
          </Link>
        ) : (
          <button
            type="button"
            className="button row-action"
            disabled
            aria-disabled="true"
            aria-label={`Editar ${row.nome}`}
            title="Seu nível de acesso não permite editar este usuário."
          >
            Editar
          </button>
        ),
    },
  ];

  return (
    <section aria-label={T.listTab}>
      <ListSearch
        params={params}
        label={T.searchLabel}
        defaultSort={DEFAULT_SORT}
        sortFields={sortFields(columns)}
        pageSize={false}
      />
      {rows.length === 0 ? (
        <p className="empty-state">{params.q ? NO_SEARCH_RESULTS : T.empty}</p>
      ) : (
        <DataList
          label="Usuários"
          cardsBelow={1100}
          rows={rows}
          rowKey={(row) => row.id}
          sort={sortLinks({ params, defaultSort: DEFAULT_SORT })}
          columns={columns}
        />
      )}
      <div className="list-actions">
        <a className="button" href={`${USERS_PATH}/exportar.xlsx${location.search}`}>
          Exportar Excel
        </a>
      </div>
      <Pager params={params} total={total} defaultSort={DEFAULT_SORT} />
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
