import { getFormProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";

import { USER_TEXTS as T } from "../../api/domain/users";

import { ReadOnlyId } from "~/branches/fields";
import { Field, FormToast, PasswordField, useValidatedForm, type FormActionData } from "~/components/forms";
import { useHydrated } from "~/lib/use-hydrated";

import { BranchSelect, LevelSelect } from "./fields";
import { UserCreateSchema } from "./form-schema";
import type { userRegisterLoader } from "./register.server";

/** Ours: the hint under 'Filial' when it shows for every level (without JS). */
const BRANCH_HINT = "Usada para Coordenador, ASG e Cliente; ignorada para Administrador e Auditor.";

/**
 * 'Cadastrar usuário' (spec 000 §2 'Users'), titled 'Dados da filial' as the original: the company's ID (read-only),
 * the access level, the branch (Coordenador, ASG, Cliente), nome, e-mail, CPF, Data de Nascimento, telefone (masked
 * as typed), senha and its confirmation.
 */
export default function UserRegister() {
  const { companyId, companyName, branches, levels } = useLoaderData<typeof userRegisterLoader>();
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(UserCreateSchema, actionData, {
    defaultValue: { filialId: String(branches[0]?.id ?? "") },
  });
  const hydrated = useHydrated();
  const [levelId, setLevelId] = useState(fields.roleId.initialValue ?? "");
  const branchLevel = levels.some((level) => String(level.id) === levelId && level.branch);
  return (
    <section className="card" aria-labelledby="user-form-title">
      <h2 id="user-form-title">Dados da filial</h2>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
        <ReadOnlyId
          id="empresa-id"
          value={companyId}
          hint={companyName ? `Empresa matriz: ${companyName}` : undefined}
        />
        <LevelSelect
          meta={fields.roleId}
          options={[
            { value: "", label: "Selecione" },
            ...levels.map((level) => ({ value: String(level.id), label: level.label })),
          ]}
          onChange={setLevelId}
        />
        {!hydrated || branchLevel ? (
          <BranchSelect meta={fields.filialId} branches={branches} hint={hydrated ? undefined : BRANCH_HINT} />
        ) : null}
        <Field label="Nome" meta={fields.nome} inputProps={{ autoComplete: "off" }} />
        <Field label="E-mail" meta={fields.email} type="email" inputProps={{ autoComplete: "off" }} />
        <Field label="CPF" meta={fields.cpf} mask="cpf" inputProps={{ placeholder: "000.000.000-00" }} />
        <Field
          label="Data de Nascimento"
          meta={fields.dataNascimento}
          mask="date"
          inputProps={{ placeholder: "dd/mm/aaaa" }}
        />
        <Field
          label="Telefone"
          meta={fields.telefone}
          mask="phone"
          type="tel"
          inputProps={{ placeholder: "(00) 0 0000-0000", autoComplete: "off" }}
        />
        <PasswordField label="Senha" meta={fields.password} autoComplete="new-password" />
        <PasswordField label="Confirmar senha" meta={fields.confirmPassword} autoComplete="new-password" />
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
