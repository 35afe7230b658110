import { Form, Link, useLoaderData, useSubmit } from "@remix-run/react";

import { ReportDialog } from "~/reports/report-dialog";

import { AUDIT_PATH_CLIENT, FILTER_LABELS } from "./audit-filters-labels";
import type { auditFiltersLoader } from "./audit-page.server";

/**
 * The 'Filtros' dialog (spec 001 §2.13): six multi-selects (Empresa, Colaborador, Ambiente, Categoria, Setor,
 * Procedimento), 'Filtrar' and 'Limpar filtros'. One GET form to /auditoria. Choosing companies narrows the other
 * lists: with JS the form is sent to the dialog at once; without JS 'Atualizar listas' does it.
 */
export function AuditFilters() {
  const { close, clear, hidden, state, options } = useLoaderData<typeof auditFiltersLoader>();
  const submit = useSubmit();
  return (
    <ReportDialog title="Filtros" back={close} close={close}>
      <Form method="get" action={AUDIT_PATH_CLIENT} className="audit-filters" preventScrollReset>
        {hidden.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="filtrar" value="1" />
        <p className="muted">Escolha um ou mais itens em cada lista (no computador, com Ctrl ou ⌘ pressionado).</p>
        {FILTER_LABELS.map(([name, label]) => (
          <div className="field" key={name}>
            <label htmlFor={`filtro-${name}`}>{label}</label>
            <select
              id={`filtro-${name}`}
              name={name}
              multiple
              size={Math.min(6, Math.max(3, options[name].length))}
              defaultValue={state.filters[name].map(String)}
              onChange={
                name === "filiais"
                  ? (event) =>
                      submit(event.currentTarget.form, {
                        action: `${AUDIT_PATH_CLIENT}/filtros`,
                        preventScrollReset: true,
                        replace: true,
                      })
                  : undefined
              }
            >
              {options[name].map((option) => (
                <option key={option.id} value={option.id}>
                  {option.nome}
                </option>
              ))}
            </select>
            {options.mais.includes(name) ? (
              <p className="muted">
                Mostrando os primeiros {options[name].length}; escolha uma empresa para ver os seus.
              </p>
            ) : null}
          </div>
        ))}
        <div className="form-actions">
          <button type="submit" className="button" formAction={`${AUDIT_PATH_CLIENT}/filtros`}>
            Atualizar listas
          </button>
          <Link className="button" to={clear}>
            Limpar filtros
          </Link>
          <button type="submit" className="button button-primary">
            Filtrar
          </button>
        </div>
      </Form>
    </ReportDialog>
  );
}
