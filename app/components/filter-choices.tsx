/**
 * 'Filtrar por' (spec 001 §2.15): which fields the search looks in, as tick boxes `campos` of the search's GET form,
 * folded in a <details> (no JS needed). The summary counts the choices when they are not the default one.
 */
export function FilterChoices({
  title = "Filtrar por",
  fields,
  chosen,
  defaultChoice,
}: {
  title?: string;
  fields: readonly { key: string; label: string }[];
  chosen: readonly string[];
  defaultChoice: string;
}) {
  return (
    <details className="filter">
      <summary className="button">
        {title}
        {chosen.length > 1 || chosen[0] !== defaultChoice ? ` (${chosen.length})` : ""}
      </summary>
      <fieldset className="filter-panel" key={chosen.join(",")}>
        <legend>{title}</legend>
        {fields.map((field) => (
          <label key={field.key} className="check">
            <input type="checkbox" name="campos" value={field.key} defaultChecked={chosen.includes(field.key)} />
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
