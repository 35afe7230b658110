import { getFormProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";

import { OPT_IN_BOARDS } from "../../api/domain/audit";
import { COMPANY_TEXTS as T } from "../../api/domain/organisation";

import { Field, FormToast, PasswordField, useValidatedForm, type FormActionData } from "~/components/forms";

import { BoardChoice, CompanyFields } from "./fields";
import { CompanyRegisterSchema, REGISTER_INVALID_TOAST } from "./form-schema";
import type { companyRegisterLoader } from "./register.server";

const optIn = new Set<number>(OPT_IN_BOARDS);

/** 'Cadastrar empresa' (spec 000 §2, §3): company data, the audit boards, the company's first administrator. */
export default function CompanyRegister() {
  const { boards } = useLoaderData<typeof companyRegisterLoader>();
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(CompanyRegisterSchema, actionData, {
    invalidToast: REGISTER_INVALID_TOAST,
    // The spec's boards start ticked: the company gets the whole audit dashboard unless told otherwise. Ours (the
    // inspections' chart) is opt-in: offered, not ticked.
    defaultValue: {
      quadroIds: boards.filter((board) => !optIn.has(board.ID)).map((board) => String(board.ID)),
    },
  });
  return (
    <section className="card" aria-label={T.registerTab}>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack org-form">
        <fieldset className="org-fieldset stack">
          <legend>Dados da empresa</legend>
          <CompanyFields fields={fields} />
        </fieldset>
        <BoardChoice boards={boards} meta={fields.quadroIds} />
        <fieldset className="org-fieldset stack">
          <legend>Usuário administrador</legend>
          <Field label="Nome do usuário" meta={fields.nomeuser} inputProps={{ autoComplete: "off" }} />
          <Field label="E-mail" meta={fields.email} type="email" inputProps={{ autoComplete: "off" }} />
          <Field label="CPF" meta={fields.cpf} mask="cpf" inputProps={{ placeholder: "000.000.000-00" }} />
          <Field
            label="Data de nascimento"
            meta={fields.nascimento}
            mask="date"
            inputProps={{ placeholder: "DD/MM/AAAA" }}
          />
          <Field
            label="Telefone"
            meta={fields.telefone}
            mask="phone"
            inputProps={{ placeholder: "(00) 0 0000-0000" }}
          />
          <PasswordField label="Senha" meta={fields.password} autoComplete="new-password" />
          <PasswordField label="Confirmar senha" meta={fields.confirmPassword} autoComplete="new-password" />
        </fieldset>
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
