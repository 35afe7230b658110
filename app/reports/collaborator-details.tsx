import { useLoaderData } from "@remix-run/react";

import { REPORT_TEXTS as T } from "../../api/domain/reports";

import type { collaboratorDetailsLoader } from "./collaborator-history.server";
import { ReportDialog } from "./report-dialog";

/** 'Detalhes do Colaborador' (spec 001 §2.9): the avatar and the collaborator's data, '-' for what is missing. */
export default function CollaboratorDetails() {
  const data = useLoaderData<typeof collaboratorDetailsLoader>();
  return (
    <ReportDialog title={T.collaboratorDetailsTitle} back={data.close} close={data.close}>
      {data.avatar ? <img className="report-avatar" src={data.avatar} alt="" width={96} height={96} /> : null}
      <dl className="detail-facts">
        {data.facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </ReportDialog>
  );
}
