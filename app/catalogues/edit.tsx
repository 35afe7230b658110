import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { callApi } from "~/api.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { BLANK_FIELDS_TOAST, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";
import { catalogueItemSchema } from "~/lib/schemas";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

import { requireCatalogue, requireEditableItem } from "./catalogue.server";
import { CatalogueItemFields } from "./item-fields";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { catalogue, item } = await requireEditableItem(request, context, params.id);
  return json({
    item,
    kind: catalogue.kind,
    title: catalogue.definition.title,
    nameLabel: catalogue.texts.nameLabel,
    hasColor: catalogue.definition.hasColor,
    back: safeRedirectTo(new URL(request.url).searchParams.get("voltar"), `/${catalogue.kind}`),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  const form = await request.formData();
  const back = safeRedirectTo(form.get("voltar"), `/${catalogue.kind}`);
  const submission = parseWithZod(form, {
    schema: catalogueItemSchema(catalogue.kind, false),
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return json<FormActionData>({ result: submission.reply(), toast: BLANK_FIELDS_TOAST }, { status: 400 });
  }
  const result = await callApi(context, request, `${catalogue.definition.apiPath}/${Number(params.id)}`, {
    method: "PUT",
    token: catalogue.auth.token,
    json: { name: submission.value.name, color: submission.value.color },
  });
  if (!result.ok) {
    // Spec 000 §5: the sector edit check shows an error toast, the others an info toast.
    const toast: ToastInput =
      result.status === 409
        ? {
            type: catalogue.kind === "setores" ? "error" : "info",
            title: catalogue.texts.duplicateTitle,
            description: catalogue.texts.duplicateDescription,
          }
        : { type: "error", title: catalogue.texts.editFailed, description: result.message };
    return json<FormActionData>(
      { result: submission.reply({ fieldErrors: result.fieldErrors ?? {} }), toast },
      { status: result.status },
    );
  }
  return redirectWithToast(context, back, { type: "success", title: catalogue.texts.edited });
}

export default function CatalogueEdit() {
  const { item, kind, title, nameLabel, hasColor, back } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
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
        <input type="hidden" name="voltar" value={back} />
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
