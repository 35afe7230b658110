import type { MetaFunction } from "@remix-run/react";
import { useLoaderData } from "@remix-run/react";

import { ConfirmRemoval } from "~/components/modal";

import type { RouteLoader } from "./catalogue.server";
import type { catalogueRemoveLoader } from "./remove.server";

/** Without JS, 'Remover' asks here; with JS the list asks in a dialog and posts to this route's action. */
export default function RemovePage() {
  const { item, kind, back } = useLoaderData<typeof catalogueRemoveLoader>();
  return (
    <section className="card dialog-page" aria-labelledby="remove-title">
      <h2 id="remove-title">Remover {item.name}</h2>
      <p className="muted">{item.empresa}</p>
      <ConfirmRemoval action={`/${kind}/${item.id}/remover`} redirectTo={back} cancelHref={back} />
    </section>
  );
}

export const meta: MetaFunction<RouteLoader<typeof catalogueRemoveLoader>> = ({ data }) => [
  { title: `Remover ${data?.item.name ?? ""} | Limpeza` },
];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
