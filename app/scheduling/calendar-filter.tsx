import { Form } from "@remix-run/react";

/**
 * The calendar pages' filter (/historico-agenda, /agendamentos): a plain GET form that keeps the month and day shown,
 * with the branch choice for company-wide users (`branches` null for the others) and the search.
 */
export function CalendarFilter({
  state,
  branches,
  placeholder,
}: {
  state: { mes: string; dia?: string | null; filial?: number | string | null; q?: string };
  branches: { id: number; nome: string }[] | null;
  placeholder: string;
}) {
  return (
    <Form method="get" className="list-search calendar-filter" role="search" key={`${state.filial}|${state.q}`}>
      <input type="hidden" name="mes" value={state.mes} />
      {state.dia ? <input type="hidden" name="dia" value={state.dia} /> : null}
      {branches ? (
        <div className="field">
          <label htmlFor="filial">Filial</label>
          <select id="filial" name="filial" defaultValue={state.filial ?? ""}>
            <option value="">Todas as filiais</option>
            {branches.map((branch) => (
              <option key={branch.id} value={branch.id}>
                {branch.id} - {branch.nome}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="q">Buscar</label>
        <input id="q" name="q" type="search" defaultValue={state.q} placeholder={placeholder} />
      </div>
      <button type="submit" className="button">
        Filtrar
      </button>
    </Form>
  );
}
