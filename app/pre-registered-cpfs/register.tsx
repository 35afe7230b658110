import { getFormProps, getSelectProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import { BatchUpload } from "~/catalogues/batch-upload";
import { INTENT } from "~/catalogues/register-form";
import { ErrorList, Field, FormToast, useValidatedForm } from "~/components/forms";

import { CpfFormSchema } from "./form-schema";
import type { cpfRegisterLoader, CpfRegisterActionData } from "./register.server";

/** conform's select props (id, name, value, aria-invalid, aria-describedby to the errors) without its React key. */
function selectProps(meta: Parameters<typeof getSelectProps>[0]) {
  const { key: _key, ...props } = getSelectProps(meta);
  return props;
}

const BASE = "/pre-cadastro-usuarios";

/**
 * 'Cadastrar CPF's' (spec 000 §2): 'Cadastro individual' (branch, CPF masked as typed, access level) or, with
 * ?modo=lote, 'Cadastro em lote' (branch, CSV files, 'Baixar Modelo'), as the catalogue screens offer the choice.
 */
export default function CpfRegister() {
  const { branches, batch } = useLoaderData<typeof cpfRegisterLoader>();
  const actionData = useActionData<CpfRegisterActionData>();
  const navigation = useNavigation();
  return (
    <section className="card" aria-labelledby="cpf-form-title">
      <nav className="segmented" aria-label="Tipo de cadastro">
        <Link to={`${BASE}/cadastrar`} aria-current={batch ? undefined : "page"}>
          {T.single}
        </Link>
        <Link to={`${BASE}/cadastrar?modo=lote`} aria-current={batch ? "page" : undefined}>
          {T.batch}
        </Link>
      </nav>
      {batch ? (
        <>
          <h2 id="cpf-form-title">{T.batch}</h2>
          <FormToast toast={actionData?.toast} />
          <BatchUpload
            basePath={BASE}
            hint={T.batchHint}
            branches={branches}
            intent={INTENT.batch}
            serverResults={actionData?.files ?? []}
            branchId={actionData?.branchId}
            defaultBranchId={branches[0]?.id ?? 0}
            busy={navigation.state === "submitting"}
            failedTitle={T.batchFailed}
          />
        </>
      ) : (
        <SingleForm actionData={actionData} />
      )}
    </section>
  );
}

function SingleForm({ actionData }: { actionData: CpfRegisterActionData | undefined }) {
  const { branches, levels } = useLoaderData<typeof cpfRegisterLoader>();
  const { form, fields, onSubmit, toast } = useValidatedForm(CpfFormSchema, actionData, {
    defaultValue: { idEmpresaFilial: String(branches[0]?.id ?? "") },
  });
  return (
    <>
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
    </>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.registerTab} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
