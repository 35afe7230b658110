import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";

import { ALREADY_PRESENT } from "../../api/domain/catalogues";

import { ColorChip } from "~/components/color-chip";

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
  busy = false,
}: {
  data: DuplicateData;
  onBranchChange?: (branchId: string) => void;
  onCancel?: () => void;
  redirectTo: string;
  /** The dialog is loading another branch's list: 'Duplicar' waits for it (it would post the previous branch). */
  busy?: boolean;
}) {
  const action = `/${data.kind}/duplicar`;
  // Controlled, so a branch the dialog picks itself (not the source's) shows, and a choice stays while it loads.
  const [branch, setBranch] = useState(String(data.branchId ?? ""));
  useEffect(() => setBranch(String(data.branchId ?? "")), [data.branchId]);
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
            value={branch}
            onChange={(event) => {
              setBranch(event.currentTarget.value);
              onBranchChange?.(event.currentTarget.value);
            }}
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
              {item.color ? <ColorChip color={item.color} /> : null} {item.name}
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
        <button type="submit" className="button button-primary" disabled={busy || data.missing.length === 0}>
          Duplicar
        </button>
      </Form>
    </div>
  );
}
