import { getFormProps, getSelectProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";

import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import { ErrorList, Field, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";

import { CpfFormSchema } from "./form-schema";
import type { cpfRegisterLoader } from "./register.server";

/** conform's select props (id, name, value, aria-invalid, aria-describedby to the errors) without its React key. */
function selectProps(meta: Parameters<typeof getSelectProps>[0]) {
  const { key: _key, ...props } = getSelectProps(meta);
  return props;
}

/** 'Cadastrar CPF's', 'Cadastro individual' (spec 000 §2): branch, CPF (masked as typed), access level. */
export default function CpfRegister() {
  const { branches, levels } = useLoaderData<typeof cpfRegisterLoader>();
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(CpfFormSchema, actionData, {
    defaultValue: { idEmpresaFilial: String(branches[0]?.id ?? "") },
  });
  return (
    <section className="card" aria-labelledby="cpf-form-title">
      <h2 id="cpf-form-title">{T.single}</h2>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
        <div className="field">
          <label htmlFor={fields.idEmpresaFilial.id}>Empresa / filial</label>
          <select {...selectProps(fields.idEmpresaFilial)}>
            {branches.map((branch) => (
              <option key={branch.id} value={branch.id}>
                {branch.id} - {branch.nome}
              </option>
            ))}
          </select>
          <ErrorList id={fields.idEmpresaFilial.errorId} errors={fields.idEmpresaFilial.errors} />
        </div>
        <Field label="CPF" meta={fields.cpf} mask="cpf" inputProps={{ placeholder: "000.000.000-00" }} />
        <div className="field">
          <label htmlFor={fields.roleId.id}>Nível de acesso</label>
          <select {...selectProps(fields.roleId)} defaultValue={fields.roleId.initialValue ?? ""}>
            <option value="">Selecione</option>
            {levels.map((level) => (
              <option key={level.id} value={level.id}>
                {level.label}
              </option>
            ))}
          </select>
          <ErrorList id={fields.roleId.errorId} errors={fields.roleId.errors} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary">
            Cadastrar
          </button>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.registerTab} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
