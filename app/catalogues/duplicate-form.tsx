import { Form, Link } from "@remix-run/react";

import { ALREADY_PRESENT } from "../../api/domain/catalogues";

import type { DuplicateData } from "./duplicate.server";

/**
 * The duplicate dialog's content (spec 000 §2): a branch selector and the ticked items the branch does not have
 * yet, with 'Duplicar'. The same component is the no-JS page and the in-place dialog.
 */
export function DuplicateForm({
  data,
  onBranchChange,
  onCancel,
  redirectTo,
}: {
  data: DuplicateData;
  onBranchChange?: (branchId: string) => void;
  onCancel?: () => void;
  redirectTo: string;
}) {
  const action = `/${data.kind}/duplicar`;
  return (
    <div className="stack">
      <Form method="get" action={action} className="inline-form">
        {data.ids.map((id) => (
          <input key={id} type="hidden" name="ids" value={id} />
        ))}
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <div className="field">
          <label htmlFor="filial-destino">Filial de destino</label>
          <select
            id="filial-destino"
            name="filial"
            defaultValue={data.branchId ?? undefined}
            onChange={onBranchChange ? (event) => onBranchChange(event.currentTarget.value) : undefined}
          >
            {data.branches.map((branch) => (
              <option key={branch.id} value={branch.id}>
                {branch.id} - {branch.nome}
              </option>
            ))}
          </select>
        </div>
        {onBranchChange ? null : (
          <button type="submit" className="button">
            Ver itens
          </button>
        )}
      </Form>
      {data.missing.length === 0 ? (
        <p className="empty-state">{ALREADY_PRESENT}</p>
      ) : (
        <ul className="duplicate-items" aria-label="Itens que serão duplicados">
          {data.missing.map((item) => (
            <li key={item.id}>
              {item.color ? (
                <span className="color-chip" style={{ background: item.color }} aria-hidden="true" />
              ) : null}{" "}
              {item.name}
              {item.color ? <span className="muted"> ({item.color})</span> : null}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" action={action} className="form-actions">
        {data.missing.map((item) => (
          <input key={item.id} type="hidden" name="ids" value={item.id} />
        ))}
        <input type="hidden" name="filial" value={data.branchId ?? ""} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancelar
          </button>
        ) : (
          <Link className="button" to={redirectTo}>
            Cancelar
          </Link>
        )}
        <button type="submit" className="button button-primary" disabled={data.missing.length === 0}>
          Duplicar
        </button>
      </Form>
    </div>
  );
}
