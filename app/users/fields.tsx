import { getSelectProps, type FieldMetadata } from "@conform-to/react";

import { ErrorList } from "~/components/forms";

/** conform's select props (id, name, default value, aria-invalid, aria-describedby to the errors) without its key. */
export function selectProps(meta: FieldMetadata<string>) {
  const { key: _key, ...props } = getSelectProps(meta);
  return props;
}

export type LevelChoice = { id: number; label: string; branch: boolean };

/** 'Nível de acesso': a select of the levels offered, with an empty 'Selecione' or a 'Sem nível' entry. */
export function LevelSelect({
  meta,
  options,
  onChange,
}: {
  meta: FieldMetadata<string>;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={meta.id}>Nível de acesso</label>
      <select {...selectProps(meta)} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/**
 * 'Filial', for the levels that live in a branch. With JS it shows only while such a level is chosen; without JS it
 * is always there, with a hint that the other levels ignore it (`hint` says which levels use it).
 */
export function BranchSelect({
  meta,
  branches,
  hint,
}: {
  meta: FieldMetadata<string>;
  branches: { id: number; nome: string }[];
  hint?: string;
}) {
  const hintId = `${meta.id}-hint`;
  const props = selectProps(meta);
  const describedBy = [hint ? hintId : null, props["aria-describedby"]].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={meta.id}>Filial</label>
      <select {...props} aria-describedby={describedBy}>
        {branches.map((branch) => (
          <option key={branch.id} value={branch.id}>
            {branch.id} - {branch.nome}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={hintId} className="muted field-hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
