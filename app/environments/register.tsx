import type { MetaFunction } from "@remix-run/react";
import { useActionData, useLoaderData } from "@remix-run/react";

import { ENVIRONMENT_TEXTS as T } from "../../api/domain/environments";

import type { FormActionData } from "~/components/forms";

import { EnvironmentForm } from "./form";
import type { environmentRegisterLoader } from "./register.server";

/** 'Cadastrar ambiente'. */
export default function EnvironmentRegister() {
  const { branches, branchId, options, lacking, typed } = useLoaderData<typeof environmentRegisterLoader>();
  const actionData = useActionData<FormActionData>();
  return (
    <section className="card" aria-label={T.registerTab}>
      {/* A new company (no-JS 'Carregar') is a new form: nothing of the previous company's choices stays. */}
      <EnvironmentForm
        key={branchId}
        register={{ branches, branchId }}
        options={options}
        lacking={lacking}
        values={typed}
        actionData={actionData}
      />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.registerTab} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
