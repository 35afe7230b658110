import { useLoaderData } from "@remix-run/react";

import type { activityDetailLoader } from "./activities.server";
import { StatusChip } from "./drill-down";
import { ReportDialog } from "./report-dialog";
import { TaskPhoto } from "./task-photo";

/**
 * 'Detalhes do Agendamento' / 'Detalhes' (spec 001 §2.12): the slot's date, scheduled range, Feito or Pendente and
 * user, then each activity: procedure, performed start and end, observation, the photo (thumbnail to the zoom page).
 * 'Ok' goes back to the list as it was.
 */
export default function ActivityDetail() {
  const data = useLoaderData<typeof activityDetailLoader>();
  return (
    <ReportDialog title={data.title} subtitle={data.subtitle} back={data.close} close={data.close}>
      <dl className="detail-facts">
        <div>
          <dt>Data</dt>
          <dd>{data.data}</dd>
        </div>
        <div>
          <dt>Horário agendado</dt>
          <dd>
            {data.horario} ({data.tipo})
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusChip status={data.status} />
          </dd>
        </div>
        <div>
          <dt>Usuário</dt>
          <dd>{data.colaborador}</dd>
        </div>
      </dl>
      <h3>Atividades</h3>
      {data.atividades.length === 0 ? (
        <p className="empty-state">Nenhuma atividade registrada neste agendamento.</p>
      ) : (
        <ul className="report-tasks">
          {data.atividades.map((activity) => (
            <li key={activity.id} className="report-task">
              <TaskPhoto photo={activity.foto} label={activity.procedimento} />
              <span className="report-task-name">
                <strong>{activity.procedimento}</strong>
                <span className="muted">
                  Início {activity.inicio} · Fim {activity.fim}
                </span>
                <span className="muted">Observação: {activity.observacao}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </ReportDialog>
  );
}
