import type { ReactNode } from "react";

import { PROOF_TEXTS } from "../../api/domain/field-proof";
import { REPORT_TEXTS } from "../../api/domain/reports";

import { ListSearch } from "~/components/list-controls";
import type { SortField } from "~/components/sort-header";
import type { ListParams } from "~/lib/list-params";

import { PeriodFields } from "./period-fields";

/**
 * A report list's GET form (issue 23 §1): the search, sort and page size (ListSearch), the branch for company-wide users
 * ('Todos' = every branch), the period, the report's own filters (`fields`, beside them) and secondary choices
 * (`children`: 'Filtrar por', columns, older data, folded with the sort and page size on phones). The dates the form shows travel as
 * inicioAnterior / fimAnterior: the view to go back to when the dates asked for are refused ('Filtro inválido').
 * Give it `key={location.key}`: drawn anew on every navigation, after a refusal it shows the dates it went back to.
 */
export function ReportFilters({
  state,
  branches,
  defaultSort,
  sortFields,
  fields,
  children,
  submitLabel,
}: {
  state: ListParams & { inicio: string; fim: string; filial: number | null };
  branches: { id: number; nome: string }[] | null;
  defaultSort: string;
  sortFields?: readonly SortField[];
  fields?: ReactNode;
  children?: ReactNode;
  /** The search button's text (ListSearch's), where the spec names it. */
  submitLabel?: string;
}) {
  return (
    <ListSearch
      params={state}
      label="Buscar"
      defaultSort={defaultSort}
      sortFields={sortFields}
      submitLabel={submitLabel}
      filters={
        <>
          {branches ? (
            <div className="field">
              <label htmlFor="filial">Filial</label>
              <select id="filial" name="filial" defaultValue={state.filial ?? -1}>
                <option value={-1}>Todos</option>
                {branches.map((branch) => (
                  <option key={branch.id} value={branch.id}>
                    {branch.nome}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <PeriodFields from={state.inicio} to={state.fim} />
          {fields}
        </>
      }
    >
      {children}
    </ListSearch>
  );
}

/** 'Mostrar dados anteriores à Agosto/2022' (§2.9, §2.11) and its tooltip: `anteriores=1` in the report's URL. */
export function LegacyToggle({ checked }: { checked: boolean }) {
  return (
    <label className="check" title={REPORT_TEXTS.legacyTooltip}>
      <input type="checkbox" name="anteriores" value="1" defaultChecked={checked} />
      Mostrar dados anteriores à Agosto/2022
    </label>
  );
}

/**
 * The field app's proof filters (docs/field-app.md 'Proof flags'): 'Sem leitura do QR' (`semQr=1`) and 'Enviado com
 * atraso' (`atraso=1`), tick boxes of the report's GET form; each keeps only the slots with that flag.
 */
export function ProofFilters({ semQr, atraso }: { semQr: boolean; atraso: boolean }) {
  return (
    <fieldset className="field">
      <legend>{PROOF_TEXTS.filterLegend}</legend>
      <label className="check">
        <input type="checkbox" name="semQr" value="1" defaultChecked={semQr} />
        {PROOF_TEXTS.noQr}
      </label>
      <label className="check">
        <input type="checkbox" name="atraso" value="1" defaultChecked={atraso} />
        {PROOF_TEXTS.late}
      </label>
    </fieldset>
  );
}
