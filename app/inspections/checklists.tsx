import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { DataList, type DataColumn } from "~/components/data-list";
import { PageHeader } from "~/components/page-header";

import type { checklistListLoader, PassMarkActionData } from "./checklists.server";

type Row = ReturnType<typeof useLoaderData<typeof checklistListLoader>>["rows"][number];

const COLUMNS: DataColumn<Row>[] = [
  {
    id: "nome",
    label: "Checklist",
    primary: true,
    cell: (row) => <Link to={`/inspecoes/checklists/${row.id}/editar`}>{row.nome}</Link>,
  },
  { id: "categoria", label: "Categoria", cell: (row) => row.categoria.nome },
  { id: "filial", label: "Filial", cell: (row) => row.filial.nome },
  { id: "itens", label: "Itens", cell: (row) => row.itens },
  { id: "versao", label: "Versão", cell: (row) => row.versao },
  { id: "atualizado", label: "Atualizado em", cell: (row) => row.atualizadoEmText },
];

/** /inspecoes/checklists: the company's checklists (one per room category) and its pass mark. */
export default function ChecklistList() {
  const { texts: T, notaMinima, notaMinimaText, rows } = useLoaderData<typeof checklistListLoader>();
  const answer = useActionData<PassMarkActionData>();
  return (
    <>
      <PageHeader
        title={T.checklistsTitle}
        help="Um checklist por categoria de ambiente. Alterar os itens cria uma nova versão: inspeções já feitas mantêm a versão e a nota que tiveram."
      />
      <p className="inspection-links">
        <Link to="/inspecoes">Voltar às inspeções</Link>
        <Link to="/inspecoes/checklists/cadastrar" className="button button-primary">
          Novo checklist
        </Link>
      </p>
      {rows.length === 0 ? (
        <p className="empty-state">Nenhum checklist cadastrado.</p>
      ) : (
        <DataList
          label={`${T.checklistsTitle} (${rows.length})`}
          rows={rows}
          rowKey={(row) => row.id}
          columns={COLUMNS}
        />
      )}
      <section aria-labelledby="nota-minima" className="incident-card inspection-mark">
        <h2 id="nota-minima">Nota mínima para aprovação</h2>
        <p className="muted">
          Hoje: {notaMinimaText}. Vale para as próximas inspeções; as já feitas mantêm a nota mínima que tiveram.
        </p>
        <Form method="post" className="incident-form inspection-mark">
          <div className="field field-narrow">
            <label htmlFor="notaMinima">Nota mínima (%)</label>
            <input
              id="notaMinima"
              name="notaMinima"
              inputMode="decimal"
              defaultValue={notaMinima}
              required
              maxLength={5}
            />
          </div>
          {answer ? (
            <p className="field-errors" role="alert">
              {answer.message}
            </p>
          ) : null}
          <button type="submit" className="button">
            Salvar nota mínima
          </button>
        </Form>
      </section>
    </>
  );
}
