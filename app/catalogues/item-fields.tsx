import { getInputProps, type FieldMetadata } from "@conform-to/react";

import { ErrorList, Field } from "~/components/forms";

/** Name (and colour for risks): the fields create and edit share. */
export function CatalogueItemFields({
  nameLabel,
  hasColor,
  fields,
}: {
  nameLabel: string;
  hasColor: boolean;
  fields: Record<string, FieldMetadata<string>>;
}) {
  return (
    <>
      <Field label={nameLabel} meta={fields.name} inputProps={{ autoComplete: "off" }} />
      {hasColor ? <ColorField meta={fields.color} /> : null}
    </>
  );
}

function ColorField({ meta }: { meta: FieldMetadata<string> }) {
  const { key, ...props } = getInputProps(meta, { type: "color" });
  return (
    <div className="field field-narrow">
      <label htmlFor={meta.id}>Cor</label>
      <input key={key} {...props} defaultValue={meta.initialValue ?? "#c62828"} className="color-input" />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
