import { Link, useLoaderData } from "@remix-run/react";

import { Calendar } from "./calendar";
import { CalendarFilter } from "./calendar-filter";
import type { agendamentosListLoader } from "./list.server";

/**
 * 'Listar agendamentos' (spec 001 §2.1): the search (times, collaborator's name and e-mail, environment, sector), the
 * branch for company-wide users, and the calendar's cards, each with 'Editar' and 'Remover' links: the edit modal and
 * the removal's confirmation are pages (/agendamentos/:id/editar, /agendamentos/:id/remover), with JS or without.
 */
export default function AgendamentosList() {
  const { branches, state, calendar, actions } = useLoaderData<typeof agendamentosListLoader>();
  return (
    <>
      <CalendarFilter state={state} branches={branches} placeholder="Horário, colaborador, e-mail, ambiente ou setor" />
      <Calendar
        data={calendar}
        cardAction={(card) => {
          const links = actions[card.id];
          if (!links) return null;
          const subject = `${card.ambiente}, ${card.horario}`;
          return (
            <p className="calendar-card-actions">
              <Link to={links.edit} className="button" aria-label={`Editar ${subject}`}>
                Editar
              </Link>
              <Link to={links.remove} className="button button-danger" aria-label={`Remover ${subject}`}>
                Remover
              </Link>
            </p>
          );
        }}
      />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
