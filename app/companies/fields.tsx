import type { FieldMetadata } from "@conform-to/react";

import { COMPANY_TEXTS as T } from "../../api/domain/organisation";

import { ErrorList, Field } from "~/components/forms";

type Fields = Record<string, FieldMetadata<string>>;
export type BoardOption = { ID: number; label: string };

/** Nome, CNPJ (masked as typed), Endereço, Número, Bairro, Cidade: what create and edit share. */
export function CompanyFields({ fields }: { fields: Fields }) {
  return (
    <>
      <Field label="Nome" meta={fields.nome} inputProps={{ autoComplete: "organization" }} />
      <Field label="CNPJ" meta={fields.cnpj} mask="cnpj" inputProps={{ placeholder: "00.000.000/0000-00" }} />
      <Field label="Endereço" meta={fields.endereco} inputProps={{ autoComplete: "off" }} />
      <Field label="Número" meta={fields.numero} inputProps={{ autoComplete: "off" }} />
      <Field label="Bairro" meta={fields.bairro} inputProps={{ autoComplete: "off" }} />
      <Field label="Cidade" meta={fields.cidade} inputProps={{ autoComplete: "off" }} />
    </>
  );
}

/** The ticked boards a form starts with (conform keeps one value as text, several as a list). */
export function tickedBoards(meta: FieldMetadata<string>) {
  const initial = meta.initialValue as unknown;
  const values = Array.isArray(initial) ? initial : initial === undefined || initial === null ? [] : [initial];
  return new Set(values.map(String));
}

/** The register form's board choice: one tick box per default board (1 to 8). */
export function BoardChoice({ boards, meta }: { boards: BoardOption[]; meta: FieldMetadata<string> }) {
  const ticked = tickedBoards(meta);
  return (
    <fieldset className="org-fieldset" aria-describedby={meta.errors?.length ? meta.errorId : undefined}>
      <legend>{T.boardsTitle}</legend>
      <div className="org-board-grid">
        {boards.map((board) => (
          <label key={board.ID} className="org-check">
            <input type="checkbox" name={meta.name} value={board.ID} defaultChecked={ticked.has(String(board.ID))} />
            <span>{`${board.ID} - ${board.label}`}</span>
          </label>
        ))}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/**
 * 'Editar Empresa''s table 'Quadros de Auditoria' (spec 000 §2): one row per default board with its select/unselect
 * action, a tick box posted with the form (no JS needed).
 */
export function BoardTable({ boards, meta }: { boards: BoardOption[]; meta: FieldMetadata<string> }) {
  const ticked = tickedBoards(meta);
  return (
    <fieldset className="org-fieldset" aria-describedby={meta.errors?.length ? meta.errorId : undefined}>
      <legend>{T.boardsTitle}</legend>
      <div className="table-scroll">
        <table className="data-table org-board-table">
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Quadro</th>
              <th scope="col">Selecionar</th>
            </tr>
          </thead>
          <tbody>
            {boards.map((board) => (
              <tr key={board.ID}>
                <td>{board.ID}</td>
                <td id={`quadro-${board.ID}`}>{board.label}</td>
                <td>
                  <input
                    type="checkbox"
                    name={meta.name}
                    value={board.ID}
                    defaultChecked={ticked.has(String(board.ID))}
                    aria-labelledby={`quadro-${board.ID}`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
