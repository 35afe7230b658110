import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { callApi } from "~/api.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ConfirmRemoval } from "~/components/modal";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { requireCatalogue, requireEditableItem } from "./catalogue.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { catalogue, item } = await requireEditableItem(request, context, params.id);
  const back = safeRedirectTo(new URL(request.url).searchParams.get("voltar"), `/${catalogue.kind}`);
  return json({ item, kind: catalogue.kind, back });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  const form = await request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), `/${catalogue.kind}`);
  const id = Number(params.id);
  // The contract removes procedures by id and the others with the item as the body.
  const result = catalogue.definition.deleteById
    ? await callApi(context, request, `${catalogue.definition.apiPath}/${id}`, {
        method: "DELETE",
        token: catalogue.auth.token,
      })
    : await callApi(context, request, catalogue.definition.apiPath, {
        method: "DELETE",
        token: catalogue.auth.token,
        json: { id },
      });
  if (!result.ok) {
    return redirectWithToast(context, back, {
      type: "error",
      title: catalogue.texts.deleteFailed,
      description: result.message,
    });
  }
  return redirectWithToast(context, back, { type: "success", title: catalogue.texts.deleted });
}

/** Without JS, 'Remover' asks here; with JS the list asks in a dialog and posts to this route's action. */
export default function RemovePage() {
  const { item, kind, back } = useLoaderData<typeof loader>();
  return (
    <section className="card dialog-page" aria-labelledby="remove-title">
      <h2 id="remove-title">Remover {item.name}</h2>
      <p className="muted">{item.empresa}</p>
      <ConfirmRemoval action={`/${kind}/${item.id}/remover`} redirectTo={back} cancelHref={back} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
