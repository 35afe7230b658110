import { getFormProps, getInputProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { CLIENT_REPORT_TEXTS } from "../../api/domain/client-report";
import { formatCnpjText } from "../../api/domain/masks";
import { COMPANY_TEXTS as T } from "../../api/domain/organisation";

import { ErrorList, Field, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";

import type { companyEditLoader } from "./edit.server";
import { BoardTable, CompanyFields } from "./fields";
import { CompanyEditSchema, EDIT_INVALID_TOAST } from "./form-schema";

/**
 * 'Editar Empresa' (spec 000 §2 'Main companies'): the active toggle, every field, the user limit and the table
 * 'Quadros de Auditoria'. The spec labels its submit button 'Cadastrar'.
 */
export default function CompanyEdit() {
  const { company, boards, back } = useLoaderData<typeof companyEditLoader>();
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(CompanyEditSchema, actionData, {
    invalidToast: EDIT_INVALID_TOAST,
    defaultValue: {
      ativo: company.ATIVO ? "on" : "",
      nome: company.NOME,
      cnpj: formatCnpjText(company.CNPJ),
      endereco: company.ENDERECO,
      numero: company.NUMERO,
      bairro: company.BAIRRO,
      cidade: company.CIDADE,
      max_number_users: String(company.max_number_users),
      late_tolerance_minutes: String(company.late_tolerance_minutes),
      quadroIds: company.quadros.map((board) => String(board.ID)),
    },
  });
  const { key: ativoKey, ...ativo } = getInputProps(fields.ativo, { type: "checkbox" });
  return (
    <section className="card" aria-labelledby="company-edit-title">
      <h2 id="company-edit-title">
        {T.editTitle} <span className="muted">({company.NOME})</span>
      </h2>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack org-form">
        <input type="hidden" name="redirectTo" value={back} />
        <div className="field">
          <label className="org-switch">
            <input key={ativoKey} {...ativo} />
            <span>Ativo</span>
          </label>
          <ErrorList id={fields.ativo.errorId} errors={fields.ativo.errors} />
        </div>
        <CompanyFields fields={fields} />
        <Field
          label="Número máximo de funcionários"
          meta={fields.max_number_users}
          inputProps={{ inputMode: "numeric" }}
        />
        <Field
          label={CLIENT_REPORT_TEXTS.toleranceLabel}
          meta={fields.late_tolerance_minutes}
          hint={<p className="muted">{CLIENT_REPORT_TEXTS.toleranceHint}</p>}
          inputProps={{ inputMode: "numeric" }}
        />
        <BoardTable boards={boards} meta={fields.quadroIds} />
        <div className="form-actions">
          <Link to={back} className="button">
            Cancelar
          </Link>
          <button type="submit" className="button button-primary">
            Cadastrar
          </button>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.editTitle} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
