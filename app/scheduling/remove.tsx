import type { MetaFunction } from "@remix-run/react";
import { useLoaderData } from "@remix-run/react";

import { ConfirmRemoval } from "~/components/modal";

import type { agendamentoRemoveLoader } from "./remove.server";

/** 'Tem certeza que deseja remover?' for one booking (a page with JS or without; Não goes back to the list). */
export default function AgendamentoRemovePage() {
  const { booking, back } = useLoaderData<typeof agendamentoRemoveLoader>();
  return (
    <section className="card dialog-page" aria-labelledby="remove-title">
      <h2 id="remove-title">Remover {booking.title}</h2>
      <p className="muted">{booking.detail}</p>
      <ConfirmRemoval action={`/agendamentos/${booking.id}/remover`} redirectTo={back} cancelHref={back} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Remover agendamento | Limpeza" }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
