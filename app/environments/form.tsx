import { getFormProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";

import {
  defaultsForCompany,
  ENVIRONMENT_TEXTS as T,
  isAllOptional,
  markAllOptional,
  pickProcedure,
  type ProcedureList,
  type ProcedureSelection,
} from "../../api/domain/environments";

import { ColorChip } from "~/components/color-chip";
import { ErrorList, Field, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";
import { useHydrated } from "~/lib/use-hydrated";
import type { ToastInput } from "~/toast.server";

import { environmentFormSchema, MARK_ALL_FIELD, SHOWN_BRANCH_FIELD } from "./form-schema";
import type { FormOptions } from "./form.server";
import type { environmentRegisterLoader } from "./register.server";

/** What the form starts with: the environment's values (edit), or the typed name and floor (register). */
export type EnvironmentFormValues = {
  name: string;
  andar: string;
  categoriaId?: number | null;
  setorId?: number | null;
  riscos?: number[];
  procedures?: number[];
  proceduresNotMandatory?: number[];
};

const MISSING_CATALOGUES: ToastInput = {
  type: "info",
  title: T.missingCataloguesTitle,
  description: T.missingCataloguesDescription,
};

/** Ids from a posted value kept by conform ('3', ['3', '5']) or from the loader (numbers). */
function idsOf(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null || value === "" ? [] : [value];
  return list.map(Number).filter((id) => Number.isInteger(id) && id > 0);
}
const idOf = (value: unknown) => idsOf(value)[0];

/**
 * The register and edit form of an environment (spec 000 §2, §4, §5). The company (register only), name, category,
 * sector, floor, risks (with their colours), mandatory and optional procedures, with 'Adicionar novo' links to the
 * catalogues' register tabs.
 *
 * With JS: ticking a procedure in one list unticks it in the other, 'Marcar todos' makes every procedure optional,
 * and a new company loads its options (this route's loader, ?empresa=) and resets category and sector to its first,
 * risks and procedures to none. Without JS the same inputs post as they are: the server refuses a procedure in both
 * lists with its message, applies 'Marcar todos' itself, and 'Carregar' reloads the form for the chosen company.
 */
export function EnvironmentForm({
  register,
  options: loadedOptions,
  lacking: loadedLacking,
  values,
  actionData,
  back,
}: {
  register?: { branches: { id: number; nome: string }[]; branchId: number };
  options: FormOptions;
  lacking: boolean;
  values: EnvironmentFormValues;
  actionData: FormActionData | undefined;
  /** Edit: where Cancelar and a save go back to. */
  back?: string;
}) {
  const hydrated = useHydrated();
  const schema = register ? environmentFormSchema(true) : environmentFormSchema(false);
  // After a refused post without JS the page starts again from what was posted.
  const posted = actionData?.result?.initialValue as Record<string, unknown> | undefined;
  const start = {
    companyId: idOf(posted?.companyId) ?? register?.branchId,
    categoriaId: posted ? idOf(posted.categoriaId) : values.categoriaId,
    setorId: posted ? idOf(posted.setorId) : values.setorId,
    riscos: posted ? idsOf(posted.riscos) : (values.riscos ?? []),
    mandatory: posted ? idsOf(posted.procedures) : (values.procedures ?? []),
    optional: posted ? idsOf(posted.proceduresNotMandatory) : (values.proceduresNotMandatory ?? []),
  };
  const { form, fields, onSubmit, toast } = useValidatedForm(schema, actionData, {
    id: "ambiente",
    defaultValue: { name: values.name, andar: values.andar },
  });

  const [branchId, setBranchId] = useState(String(start.companyId ?? ""));
  const [shown, setShown] = useState({ branchId: register?.branchId, options: loadedOptions });
  const { options } = shown;
  const [categoriaId, setCategoriaId] = useState(String(start.categoriaId ?? options.categorias[0]?.id ?? ""));
  const [setorId, setSetorId] = useState(String(start.setorId ?? options.setores[0]?.id ?? ""));
  const [riscos, setRiscos] = useState<number[]>(start.riscos);
  const [selection, setSelection] = useState<ProcedureSelection>({
    mandatory: start.mandatory,
    optional: start.optional,
  });
  const [infoToast, setInfoToast] = useState<ToastInput | null>(loadedLacking ? MISSING_CATALOGUES : null);

  const company = useFetcher<typeof environmentRegisterLoader>();
  const changeCompany = (value: string) => {
    setBranchId(value);
    setRiscos([]);
    setSelection({ mandatory: [], optional: [] });
    company.load(`/ambientes/cadastrar?empresa=${encodeURIComponent(value)}`);
  };
  useEffect(() => {
    const loaded = company.data;
    if (!loaded || String(loaded.branchId) !== branchId) return;
    setShown({ branchId: loaded.branchId, options: loaded.options });
    const defaults = defaultsForCompany({
      categoryIds: loaded.options.categorias.map((item) => item.id),
      sectorIds: loaded.options.setores.map((item) => item.id),
    });
    setCategoriaId(String(defaults.categoriaId ?? ""));
    setSetorId(String(defaults.setorId ?? ""));
    setRiscos(defaults.riscos);
    setSelection({ mandatory: defaults.procedures, optional: defaults.proceduresNotMandatory });
    // A fresh object: the notice shows again for each company that lacks categories or sectors.
    setInfoToast(loaded.lacking ? { ...MISSING_CATALOGUES } : null);
    // Only a new answer resets the form (branchId is read to drop an answer for a company no longer chosen).
  }, [company.data]);
  const loading = company.state !== "idle";

  const allProcedures = options.procedimentos.map((item) => item.id);
  const pick = (list: ProcedureList) => (id: number, picked: boolean) =>
    setSelection((current) => pickProcedure(current, list, id, picked));

  return (
    <>
      <FormToast toast={toast ?? infoToast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack environment-form">
        {back ? <input type="hidden" name="redirectTo" value={back} /> : null}
        {register ? (
          <>
            <input type="hidden" name={SHOWN_BRANCH_FIELD} value={shown.branchId ?? ""} />
            <div className="field field-with-action">
              <label htmlFor={fields.companyId.id}>Empresa / filial</label>
              <div className="inline-form">
                <select
                  id={fields.companyId.id}
                  name="companyId"
                  value={branchId}
                  onChange={(event) => changeCompany(event.currentTarget.value)}
                  aria-describedby={fields.companyId.errors?.length ? fields.companyId.errorId : undefined}
                >
                  {register.branches.map((branch) => (
                    <option key={branch.id} value={branch.id}>
                      {branch.id} - {branch.nome}
                    </option>
                  ))}
                </select>
                {hydrated ? null : (
                  <button
                    type="submit"
                    className="button"
                    formMethod="get"
                    formAction="/ambientes/cadastrar"
                    formNoValidate
                  >
                    Carregar
                  </button>
                )}
              </div>
              {hydrated ? null : (
                <p className="muted field-hint">
                  Depois de trocar a empresa, use Carregar para ver as categorias, setores, riscos e procedimentos dela.
                </p>
              )}
              <ErrorList id={fields.companyId.errorId} errors={fields.companyId.errors} />
            </div>
          </>
        ) : null}

        <div className="grid-2">
          <Field label="Nome do ambiente" meta={fields.name} inputProps={{ autoComplete: "off" }} />
          <Field label="Andar" meta={fields.andar} inputProps={{ autoComplete: "off" }} />
        </div>

        <div className="grid-2">
          <OptionSelect
            label="Categoria"
            meta={fields.categoriaId}
            items={options.categorias}
            empty="Nenhuma categoria cadastrada"
            value={categoriaId}
            onChange={setCategoriaId}
            addHref="/categorias/cadastrar"
            addLabel="Adicionar nova categoria"
          />
          <OptionSelect
            label="Setor"
            meta={fields.setorId}
            items={options.setores}
            empty="Nenhum setor cadastrado"
            value={setorId}
            onChange={setSetorId}
            addHref="/setores/cadastrar"
            addLabel="Adicionar novo setor"
          />
        </div>

        <CheckList
          legend="Riscos"
          name="riscos"
          meta={fields.riscos}
          items={options.riscos}
          empty="Nenhum risco cadastrado nesta empresa."
          checked={riscos}
          onToggle={(id, picked) =>
            setRiscos((current) =>
              picked ? [...current.filter((item) => item !== id), id] : current.filter((item) => item !== id),
            )
          }
          addHref="/riscos/cadastrar"
          addLabel="Adicionar novo risco"
        />
        <CheckList
          legend="Procedimentos obrigatórios"
          name="procedures"
          meta={fields.procedures}
          items={options.procedimentos}
          empty="Nenhum procedimento cadastrado nesta empresa."
          checked={selection.mandatory}
          onToggle={pick("mandatory")}
          addHref="/procedimentos/cadastrar"
          addLabel="Adicionar novo procedimento"
        />
        <CheckList
          legend="Procedimentos opcionais"
          name="proceduresNotMandatory"
          meta={fields.proceduresNotMandatory}
          items={options.procedimentos}
          empty="Nenhum procedimento cadastrado nesta empresa."
          checked={selection.optional}
          onToggle={pick("optional")}
          before={
            allProcedures.length ? (
              <label className="check check-all">
                <input
                  type="checkbox"
                  name={MARK_ALL_FIELD}
                  value="1"
                  checked={isAllOptional(selection, allProcedures)}
                  onChange={(event) => {
                    const mark = event.currentTarget.checked;
                    setSelection((current) => markAllOptional(current, allProcedures, mark));
                  }}
                />
                Marcar todos
              </label>
            ) : null
          }
        />

        <div className="form-actions">
          {back ? (
            <Link to={back} className="button">
              Cancelar
            </Link>
          ) : null}
          <button type="submit" className="button button-primary" disabled={loading}>
            {register ? "Cadastrar" : "Salvar"}
          </button>
        </div>
      </Form>
    </>
  );
}

function AddNew({ href, label }: { href: string; label: string }) {
  return (
    <Link to={href} className="add-new" aria-label={label}>
      Adicionar novo
    </Link>
  );
}

function OptionSelect({
  label,
  meta,
  items,
  empty,
  value,
  onChange,
  addHref,
  addLabel,
}: {
  label: string;
  meta: FieldMetadata<string>;
  items: { id: number; name: string }[];
  empty: string;
  value: string;
  onChange: (value: string) => void;
  addHref: string;
  addLabel: string;
}) {
  const invalid = !!meta.errors?.length;
  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={meta.id}>{label}</label>
        <AddNew href={addHref} label={addLabel} />
      </div>
      <select
        id={meta.id}
        name={meta.name}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? meta.errorId : undefined}
      >
        {items.length ? null : <option value="">{empty}</option>}
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

function CheckList({
  legend,
  name,
  meta,
  items,
  empty,
  checked,
  onToggle,
  before,
  addHref,
  addLabel,
}: {
  legend: string;
  name: string;
  meta: FieldMetadata<string>;
  items: { id: number; name: string; color?: string }[];
  empty: string;
  checked: number[];
  onToggle: (id: number, picked: boolean) => void;
  before?: ReactNode;
  addHref?: string;
  addLabel?: string;
}) {
  const invalid = !!meta.errors?.length;
  return (
    <fieldset className="check-field" aria-describedby={invalid ? meta.errorId : undefined}>
      <legend>{legend}</legend>
      {before}
      {items.length ? (
        <div className="check-list">
          {items.map((item) => (
            <label key={item.id} className="check">
              <input
                type="checkbox"
                name={name}
                value={item.id}
                checked={checked.includes(item.id)}
                onChange={(event) => onToggle(item.id, event.currentTarget.checked)}
              />
              {item.color ? <ColorChip color={item.color} /> : null}
              <span>{item.name}</span>
            </label>
          ))}
        </div>
      ) : (
        <p className="muted">{empty}</p>
      )}
      <ErrorList id={meta.errorId} errors={meta.errors} />
      {addHref && addLabel ? <AddNew href={addHref} label={addLabel} /> : null}
    </fieldset>
  );
}
