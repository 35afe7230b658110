import type { MetaFunction } from "@remix-run/react";
import { useLoaderData } from "@remix-run/react";

import { ConfirmRemoval } from "~/components/modal";

import type { environmentRemoveLoader } from "./remove.server";

/** Without JS, 'Remover' asks here; with JS the list asks in a dialog and posts to this route's action. */
export default function EnvironmentRemovePage() {
  const { environment, back } = useLoaderData<typeof environmentRemoveLoader>();
  return (
    <section className="card dialog-page" aria-labelledby="remove-title">
      <h2 id="remove-title">Remover {environment.name}</h2>
      <p className="muted">{environment.empresa}</p>
      <ConfirmRemoval action={`/ambientes/${environment.id}/remover`} redirectTo={back} cancelHref={back} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Remover ambiente | Limpeza" }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
