import type { MetaFunction } from "@remix-run/react";
import { useActionData, useLoaderData } from "@remix-run/react";

import { ENVIRONMENT_TEXTS as T } from "../../api/domain/environments";

import type { FormActionData } from "~/components/forms";

import type { environmentEditLoader } from "./edit.server";
import { EnvironmentForm } from "./form";

/** 'Editar ambiente': the register form without the company; Cancelar goes back to the list as it was. */
export default function EnvironmentEdit() {
  const { environment, options, lacking, back } = useLoaderData<typeof environmentEditLoader>();
  const actionData = useActionData<FormActionData>();
  return (
    <section className="card" aria-labelledby="edit-title">
      <h2 id="edit-title">
        {T.editTitle} <span className="muted">({environment.empresa})</span>
      </h2>
      <EnvironmentForm
        key={environment.id}
        options={options}
        lacking={lacking}
        values={environment}
        actionData={actionData}
        back={back}
      />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.editTitle} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
