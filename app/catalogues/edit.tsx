import { getFormProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { FormToast, useValidatedForm } from "~/components/forms";
import { catalogueItemSchema } from "~/lib/schemas";

import type { RouteLoader } from "./catalogue.server";
import type { catalogueEditAction, catalogueEditLoader } from "./edit.server";
import { CatalogueItemFields } from "./item-fields";

export default function CatalogueEdit() {
  const { item, kind, title, nameLabel, hasColor, back } = useLoaderData<typeof catalogueEditLoader>();
  const actionData = useActionData<typeof catalogueEditAction>();
  const { form, fields, onSubmit, toast } = useValidatedForm(catalogueItemSchema(kind, false), actionData, {
    defaultValue: { name: item.name, color: item.color ?? undefined },
  });
  return (
    <section className="card" aria-labelledby="edit-title">
      <h2 id="edit-title">
        Editar {title.toLowerCase()} <span className="muted">({item.empresa})</span>
      </h2>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
        <input type="hidden" name="redirectTo" value={back} />
        <CatalogueItemFields nameLabel={nameLabel} hasColor={hasColor} fields={fields} />
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

export const meta: MetaFunction<RouteLoader<typeof catalogueEditLoader>> = ({ data }) => [
  { title: `Editar ${data?.title.toLowerCase() ?? "cadastro"} | Limpeza` },
];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
