import { getFormProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { ErrorList, FormToast, useValidatedForm } from "~/components/forms";
import { catalogueItemSchema } from "~/lib/schemas";

import { BatchUpload } from "./batch-upload";
import type { RouteLoader } from "./catalogue.server";
import { CatalogueItemFields } from "./item-fields";
import { INTENT } from "./register-form";
import type { catalogueRegisterLoader, RegisterActionData } from "./register.server";

export default function CatalogueRegister() {
  const { kind, texts, hasColor, branches, defaultBranchId, batch } = useLoaderData<typeof catalogueRegisterLoader>();
  const actionData = useActionData<RegisterActionData>();
  const navigation = useNavigation();
  const { form, fields, onSubmit, toast } = useValidatedForm(
    catalogueItemSchema(kind, true),
    batch ? undefined : actionData,
    {
      defaultValue: { companyId: String(defaultBranchId), color: "#c62828" },
    },
  );
  const batchFiles = actionData?.files ?? [];

  return (
    <section className="card" aria-label={texts.registerTab}>
      <nav className="segmented" aria-label="Tipo de cadastro">
        <Link to={`/${kind}/cadastrar`} aria-current={batch ? undefined : "page"}>
          Cadastro individual
        </Link>
        <Link to={`/${kind}/cadastrar?modo=lote`} aria-current={batch ? "page" : undefined}>
          Cadastro em lote
        </Link>
      </nav>
      {batch ? (
        <>
          <FormToast toast={actionData?.toast} />
          <BatchUpload
            basePath={`/${kind}`}
            branches={branches}
            intent={INTENT.batch}
            serverResults={batchFiles}
            branchId={actionData?.branchId}
            defaultBranchId={defaultBranchId}
            busy={navigation.state === "submitting"}
            failedTitle={texts.batchFailed}
          />
        </>
      ) : (
        <>
          <FormToast toast={toast} />
          <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
            <input type="hidden" name="intent" value={INTENT.single} />
            <div className="field">
              <label htmlFor={fields.companyId.id}>Empresa / filial</label>
              <select
                id={fields.companyId.id}
                name={fields.companyId.name}
                defaultValue={fields.companyId.initialValue}
              >
                {branches.map((branch) => (
                  <option key={branch.id} value={branch.id}>
                    {branch.id} - {branch.nome}
                  </option>
                ))}
              </select>
              <ErrorList errors={fields.companyId.errors} />
            </div>
            <CatalogueItemFields nameLabel={texts.nameLabel} hasColor={hasColor} fields={fields} />
            <div className="form-actions">
              <button type="submit" className="button button-primary">
                Cadastrar
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

export const meta: MetaFunction<RouteLoader<typeof catalogueRegisterLoader>> = ({ data }) => [
  { title: `${data?.texts.registerTab ?? "Cadastrar"} | Limpeza` },
];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
