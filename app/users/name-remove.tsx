import type { MetaFunction } from "@remix-run/react";
import { useLoaderData } from "@remix-run/react";

import { ConfirmRemoval } from "~/components/modal";

import type { userNameRemoveLoader } from "./name-remove.server";

/** Without JS, 'Remover' a name asks here; with JS the names page asks in a dialog and posts to this route's action. */
export default function UserNameRemovePage() {
  const { user, name, action, namesPage } = useLoaderData<typeof userNameRemoveLoader>();
  return (
    <section className="card dialog-page" aria-labelledby="remove-title">
      <h2 id="remove-title">Remover {name.name}</h2>
      <p className="muted">{user.nome}</p>
      <ConfirmRemoval action={action} redirectTo={namesPage} cancelHref={namesPage} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Remover nome do usuário | Limpeza" }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
