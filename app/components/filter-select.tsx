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

/** A list's days filter as two date inputs, `de` and `ate` (yyyy-MM-dd in the URL); `label` names the first. */
export function DayRangeFields({ label, de, ate }: { label: string; de: string | null; ate: string | null }) {
  return (
    <>
      <div className="field field-narrow">
        <label htmlFor="de">{label}</label>
        <input id="de" name="de" type="date" defaultValue={de ?? ""} />
      </div>
      <div className="field field-narrow">
        <label htmlFor="ate">até</label>
        <input id="ate" name="ate" type="date" defaultValue={ate ?? ""} />
      </div>
    </>
  );
}

/** The branch choice of a company-wide user's list ('Todas' first); nothing for users held to one branch. */
export function BranchFilter({
  branches,
  value,
}: {
  branches: { id: number; nome: string }[] | null;
  value: number | null;
}) {
  if (!branches) return null;
  return (
    <FilterSelect
      name="filial"
      label="Filial"
      all="Todas"
      value={value}
      options={branches.map((branch) => ({ value: branch.id, label: branch.nome }))}
    />
  );
}
