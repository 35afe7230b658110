import { Link, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";

import { Calendar } from "./calendar";
import { CalendarFilter } from "./calendar-filter";
import type { historyCalendarLoader } from "./history-calendar.server";

/**
 * 'Agenda' (spec 001 §2.4): the search, the branch choice for company-wide users, a 'Criar' link to /agendamentos for
 * who may schedule, and the calendar in read mode. The filter is a plain GET form that keeps the month and day shown.
 */
export default function HistoryCalendar() {
  const { canCreate, branches, state, calendar } = useLoaderData<typeof historyCalendarLoader>();
  return (
    <>
      <PageHeader title="Agenda" help="Veja os agendamentos de cada dia do mês: escolha o mês, depois o dia.">
        {canCreate ? (
          <Link to="/agendamentos" className="button button-primary calendar-create">
            Criar
          </Link>
        ) : null}
      </PageHeader>
      <CalendarFilter state={state} branches={branches} placeholder="Colaborador, ambiente, setor ou horário" />
      <Calendar data={calendar} />
    </>
  );
}
