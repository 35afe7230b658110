import { Link, useLoaderData } from "@remix-run/react";

import { REPORT_TEXTS as T } from "../../api/domain/reports";

import type { environmentCollaboratorsLoader } from "./environment-history.server";
import { ReportDialog } from "./report-dialog";

/** 'Histórico do Ambiente', first level: the room's collaborators in the period; each opens their days there. */
export default function EnvironmentCollaborators() {
  const data = useLoaderData<typeof environmentCollaboratorsLoader>();
  return (
    <ReportDialog title={T.environmentHistoryTitle} subtitle={data.subtitle} back={data.close} close={data.close}>
      {data.collaborators.length === 0 ? (
        <p className="empty-state">{T.environmentsEmpty}</p>
      ) : (
        <ul className="report-days">
          {data.collaborators.map((person) => (
            <li key={person.id}>
              <Link to={person.href} preventScrollReset className="report-day">
                <span className="report-day-room">{person.nome}</span>
                <span className="muted">
                  {person.completos} de {person.agendamentos} completos
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </ReportDialog>
  );
}
