import type { FieldMetadata } from "@conform-to/react";

import { Field } from "~/components/forms";

/** Nome, CNPJ (masked as typed; the server takes it with or without punctuation), Endereço, Número. */
export function BranchFields({ fields }: { fields: Record<string, FieldMetadata<string>> }) {
  return (
    <>
      <Field label="Nome" meta={fields.NOME} inputProps={{ autoComplete: "off" }} />
      <Field label="CNPJ" meta={fields.CNPJ} mask="cnpj" inputProps={{ placeholder: "00.000.000/0000-00" }} />
      <Field label="Endereço" meta={fields.ENDERECO} inputProps={{ autoComplete: "off" }} />
      <Field label="Número" meta={fields.NUMERO} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
    </>
  );
}

/** The read-only ID the spec's forms show first (the main company's on create, the branch's on edit). */
export function ReadOnlyId({ id, value, hint }: { id: string; value: number; hint?: string }) {
  return (
    <div className="field field-narrow">
      <label htmlFor={id}>ID</label>
      <input id={id} value={value} readOnly aria-describedby={hint ? `${id}-hint` : undefined} />
      {hint ? (
        <p id={`${id}-hint`} className="muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
