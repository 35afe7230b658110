import { getFormProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";

import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import { FormToast, useValidatedForm, type FormActionData } from "~/components/forms";

import { BranchFields, ReadOnlyId } from "./fields";
import { BranchFormSchema } from "./form-schema";
import type { branchRegisterLoader } from "./register.server";

/** 'Cadastrar filial': the form 'Dados da filial' (spec 000 §2 'Branches'). */
export default function BranchRegister() {
  const { companyId, companyName } = useLoaderData<typeof branchRegisterLoader>();
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(BranchFormSchema, actionData);
  return (
    <section className="card" aria-labelledby="branch-form-title">
      <h2 id="branch-form-title">{T.formTitle}</h2>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
        <ReadOnlyId
          id="empresa-id"
          value={companyId}
          hint={companyName ? `Empresa matriz: ${companyName}` : undefined}
        />
        <BranchFields fields={fields} />
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
