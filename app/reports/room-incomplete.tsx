import { Form, useLoaderData } from "@remix-run/react";

import { INCOMPLETE_TEXTS as T } from "../../api/domain/incomplete-tasks";

import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import type { roomIncompleteLoader } from "./incomplete-tasks.server";
import { DialogPager, ReportDialog } from "./report-dialog";

/**
 * 'Tarefas Incompletas de {room}' (spec 001 §2.11): per slot closed incomplete, the collaborator (photo, name), the
 * date, every procedure of the room marked done or 'IMCOMPLETO' (the spec's spelling) and the reason; searched in
 * the name, the date and the reason.
 */
export default function RoomIncomplete() {
  const data = useLoaderData<typeof roomIncompleteLoader>();
  return (
    <ReportDialog title={data.title} subtitle={data.period} back={data.back} close={data.close}>
      <Form method="get" className="list-search" role="search" preventScrollReset>
        {data.hidden.map(([name, value], index) => (
          <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
        ))}
        <div className="field">
          <label htmlFor="busca">Buscar</label>
          <input id="busca" name="busca" type="search" defaultValue={data.busca} placeholder="Nome, data ou motivo" />
        </div>
        <button type="submit" className="button">
          Buscar
        </button>
      </Form>
      {data.slots.length === 0 ? (
        <p className="empty-state">{data.busca ? NO_SEARCH_RESULTS : T.roomEmpty}</p>
      ) : (
        <ul className="room-incomplete">
          {data.slots.map((slot) => (
            <li key={slot.agendamentoId}>
              <div className="room-incomplete-person">
                {slot.avatar ? (
                  <img className="avatar" src={slot.avatar} alt="" width={40} height={40} loading="lazy" />
                ) : (
                  <span className="avatar avatar-empty" aria-hidden="true" />
                )}
                <strong>{slot.colaborador.nome}</strong>
                <span className="muted">{slot.data}</span>
              </div>
              <ul className="room-incomplete-tasks" aria-label="Tarefas">
                {slot.tarefas.map((task) => (
                  <li key={task.nome}>
                    <span>{task.nome}</span>
                    <span
                      className={
                        task.feita ? "report-status report-status-completo" : "report-status report-status-incompleto"
                      }
                    >
                      {task.feita ? T.completeMark : T.incompleteMark}
                    </span>
                  </li>
                ))}
              </ul>
              <p>
                <strong>Motivo:</strong> {slot.motivo}
              </p>
            </li>
          ))}
        </ul>
      )}
      <DialogPager pager={data.pager} label="Páginas das tarefas incompletas" unit="registros" />
    </ReportDialog>
  );
}
