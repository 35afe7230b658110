/**
 * 'Filtrar por' (spec 001 §2.15): which fields the search looks in, as tick boxes `campos` of the search's GET form,
 * folded in a <details> (no JS needed). The summary counts the choices when they are not the default one. The same
 * shape serves other choices of a GET form (`name`, e.g. a report's visible columns, whose default is all of them).
 */
export function FilterChoices({
  title = "Filtrar por",
  name = "campos",
  fields,
  chosen,
  defaultChoice,
  single = false,
}: {
  title?: string;
  name?: string;
  fields: readonly { key: string; label: string }[];
  chosen: readonly string[];
  /** The default choice; none: every field is the default. */
  defaultChoice?: string;
  /** One choice only (radio buttons): the incomplete tasks' 'Filtrar por' (§2.15). */
  single?: boolean;
}) {
  const isDefault =
    defaultChoice === undefined ? chosen.length === fields.length : chosen.length === 1 && chosen[0] === defaultChoice;
  return (
    <details className="filter">
      <summary className="button">
        {title}
        {isDefault ? "" : ` (${chosen.length})`}
      </summary>
      <fieldset className="filter-panel" key={chosen.join(",")}>
        <legend>{title}</legend>
        {fields.map((field) => (
          <label key={field.key} className="check">
            <input
              type={single ? "radio" : "checkbox"}
              name={name}
              value={field.key}
              defaultChecked={chosen.includes(field.key)}
            />
            {field.label}
          </label>
        ))}
        <button type="submit" className="button button-primary">
          Aplicar
        </button>
      </fieldset>
    </details>
  );
}
