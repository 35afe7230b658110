/** One of the list's choices: '' (every one) first, then the options; the URL's value chosen. */
export function FilterSelect(props: {
  name: string;
  label: string;
  all: string;
  value: string | number | null;
  options: { value: string | number; label: string }[];
}) {
  return (
    <div className="field field-narrow">
      <label htmlFor={props.name}>{props.label}</label>
      <select id={props.name} name={props.name} defaultValue={props.value ?? ""}>
        <option value="">{props.all}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
