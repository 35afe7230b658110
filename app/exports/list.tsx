import { Link, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";

import type { exportListLoader } from "./exports.server";

/** /exportacoes: the requester's latest exports, newest first; a ready one downloads, the others show their state. */
export function ExportList() {
  const { jobs } = useLoaderData<typeof exportListLoader>();
  return (
    <>
      <PageHeader title="Minhas exportações" />
      {jobs.length === 0 ? (
        <p className="empty-state">Nenhuma exportação nas últimas 24 horas.</p>
      ) : (
        <ul className="export-list">
          {jobs.map((job) => (
            <li key={job.id} className="export-job">
              <h2>
                <Link to={`/exportacoes/${job.id}`}>{job.title}</Link>
              </h2>
              <p className="muted">
                Pedida em {job.requestedAt} ·{" "}
                <span className={`export-status export-${job.status}`}>{job.statusLabel}</span>
              </p>
              {job.status === "pronta" && job.fileName ? (
                <p>
                  <a href={job.fileUrl} download={job.fileName}>
                    Baixar {job.fileName}
                  </a>{" "}
                  ({job.size}){job.keptUntil ? `, disponível até ${job.keptUntil}` : ""}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
