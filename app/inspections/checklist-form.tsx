import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";

import type { checklistCreateLoader, checklistEditLoader, ChecklistFormActionData, ItemRow } from "./checklists.server";

type Choices = { categories: { id: number; nome: string }[]; procedures: { id: number; nome: string }[] };

/** The checklist's name, category and item rows; the form 'Salvar' and 'Mais itens' post. */
function ChecklistFields(props: {
  values: { nome: string; categoria: string; itens: ItemRow[] };
  choices: Choices;
  weights: number[];
  message: string | null;
  hidden?: { name: string; value: string };
}) {
  const { values, choices } = props;
  return (
    <Form method="post" className="checklist-form">
      {props.hidden ? <input type="hidden" name={props.hidden.name} value={props.hidden.value} /> : null}
      <input type="hidden" name="linhas" value={values.itens.length} />
      {props.message ? (
        <p className="field-errors form-error" role="alert">
          {props.message}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="nome">Nome do checklist</label>
        <input id="nome" name="nome" defaultValue={values.nome} maxLength={80} required />
      </div>
      <div className="field">
        <label htmlFor="categoria">Categoria dos ambientes</label>
        <select id="categoria" name="categoria" defaultValue={values.categoria} required>
          <option value="" disabled>
            Escolha a categoria
          </option>
          {choices.categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.nome}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="checklist-items">
        <legend>Itens (peso de 1 a 5; linhas em branco são ignoradas)</legend>
        <ol>
          {values.itens.map((item, index) => (
            <li key={index} className="checklist-item">
              <input type="hidden" name={`chave_${index}`} value={item.chave} />
              <div className="field">
                <label htmlFor={`texto_${index}`}>Item {index + 1}</label>
                <input id={`texto_${index}`} name={`texto_${index}`} defaultValue={item.texto} maxLength={200} />
              </div>
              <div className="field field-narrow">
                <label htmlFor={`peso_${index}`}>Peso</label>
                <select id={`peso_${index}`} name={`peso_${index}`} defaultValue={item.peso}>
                  {props.weights.map((weight) => (
                    <option key={weight} value={weight}>
                      {weight}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`procedimento_${index}`}>Procedimento (opcional)</label>
                <select id={`procedimento_${index}`} name={`procedimento_${index}`} defaultValue={item.procedimento}>
                  <option value="">Nenhum</option>
                  {choices.procedures.map((procedure) => (
                    <option key={procedure.id} value={procedure.id}>
                      {procedure.nome}
                    </option>
                  ))}
                </select>
              </div>
              {item.texto ? (
                <label className="check">
                  <input type="checkbox" name={`remover_${index}`} value="1" />
                  Remover
                </label>
              ) : null}
            </li>
          ))}
        </ol>
      </fieldset>
      <div className="form-actions">
        <button type="submit" name="intent" value="salvar" className="button button-primary">
          Salvar
        </button>
        <button type="submit" name="intent" value="linhas" className="button" formNoValidate>
          Mais itens
        </button>
      </div>
    </Form>
  );
}

/** /inspecoes/checklists/cadastrar: choose the branch, then the checklist's name, category and items. */
export function ChecklistCreate() {
  const { texts: T, branches, branch, choices, checklist, weights } = useLoaderData<typeof checklistCreateLoader>();
  const answer = useActionData<ChecklistFormActionData>();
  return (
    <>
      <PageHeader title="Novo checklist" />
      <p>
        <Link to="/inspecoes/checklists">Voltar aos checklists</Link>
      </p>
      <Form method="get" className="list-search">
        <div className="field">
          <label htmlFor="filial">Filial</label>
          <select id="filial" name="filial" defaultValue={branch?.id ?? ""} required>
            <option value="" disabled>
              Escolha a filial
            </option>
            {branches.map((row) => (
              <option key={row.id} value={row.id}>
                {row.nome}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {branch ? "Trocar filial" : "Continuar"}
        </button>
      </Form>
      {branch && choices ? (
        choices.categories.length === 0 ? (
          <p className="empty-state">Todas as categorias de {branch.nome} já têm checklist.</p>
        ) : (
          <ChecklistFields
            values={answer?.values ?? checklist}
            choices={choices}
            weights={weights}
            message={answer?.message ?? null}
          />
        )
      ) : (
        <p className="muted">{T.categoryRequired}</p>
      )}
    </>
  );
}

/** /inspecoes/checklists/{id}/editar: the checklist's fields, and 'Duplicar' to another branch. */
export function ChecklistEdit() {
  const { versao, branch, otherBranches, choices, checklist, weights } = useLoaderData<typeof checklistEditLoader>();
  const answer = useActionData<ChecklistFormActionData & { duplicateMessage?: string }>();
  return (
    <>
      <PageHeader title={`Checklist: ${checklist.nome}`} />
      <p>
        <Link to="/inspecoes/checklists">Voltar aos checklists</Link>
      </p>
      <p className="muted">
        {branch.nome} · versão {versao}. Alterar os itens cria a versão {versao + 1}; as inspeções já feitas mantêm a
        versão {versao} e a nota que tiveram.
      </p>
      <ChecklistFields
        values={answer?.values ?? checklist}
        choices={choices}
        weights={weights}
        message={answer?.message ?? null}
      />
      {otherBranches.length > 0 ? (
        <section aria-labelledby="duplicar" className="incident-card">
          <h2 id="duplicar">Duplicar para outra filial</h2>
          <p className="muted">
            A cópia usa a categoria de mesmo nome da filial escolhida e, em cada item, o procedimento de mesmo nome.
          </p>
          <Form method="post" className="incident-form">
            <input type="hidden" name="intent" value="duplicar" />
            <div className="field">
              <label htmlFor="filial-destino">Filial</label>
              <select id="filial-destino" name="filial" required defaultValue="">
                <option value="" disabled>
                  Escolha a filial
                </option>
                {otherBranches.map((row) => (
                  <option key={row.id} value={row.id}>
                    {row.nome}
                  </option>
                ))}
              </select>
            </div>
            {answer?.duplicateMessage ? (
              <p className="field-errors" role="alert">
                {answer.duplicateMessage}
              </p>
            ) : null}
            <button type="submit" className="button">
              Duplicar
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}
