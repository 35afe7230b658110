import { getFormProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { formatCnpjText } from "../../api/domain/masks";
import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import { ErrorList, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";

import type { branchEditLoader } from "./edit.server";
import { BranchFields, ReadOnlyId } from "./fields";
import { BranchEditSchema } from "./form-schema";

/** 'Editar filial' (spec 000 §2 'Branches'): the fields of 'Dados da filial' plus Status Ativo / Inativo. */
export default function BranchEdit() {
  const { branch, back } = useLoaderData<typeof branchEditLoader>();
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(BranchEditSchema, actionData, {
    defaultValue: {
      NOME: branch.NOME,
      CNPJ: formatCnpjText(branch.CNPJ),
      ENDERECO: branch.ENDERECO,
      NUMERO: branch.NUMERO,
      ATIVO: String(branch.ATIVO),
    },
  });
  const status = fields.ATIVO;
  return (
    <section className="card" aria-labelledby="branch-edit-title">
      <h2 id="branch-edit-title">
        {T.editTitle} <span className="muted">({branch.NOME})</span>
      </h2>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
        <input type="hidden" name="redirectTo" value={back} />
        <ReadOnlyId id="filial-id" value={branch.ID} />
        <BranchFields fields={fields} />
        <fieldset
          className="org-fieldset org-choices"
          aria-describedby={status.errors?.length ? status.errorId : undefined}
        >
          <legend>Status</legend>
          {[
            ["true", "Ativo"],
            ["false", "Inativo"],
          ].map(([value, label]) => (
            <label key={value} className="org-check">
              <input type="radio" name={status.name} value={value} defaultChecked={status.initialValue === value} />{" "}
              {label}
            </label>
          ))}
          <ErrorList id={status.errorId} errors={status.errors} />
        </fieldset>
        <div className="form-actions">
          <Link to={back} className="button">
            Cancelar
          </Link>
          <button type="submit" className="button button-primary">
            Salvar
          </button>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.editTitle} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
